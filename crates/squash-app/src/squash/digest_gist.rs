//! A hybrid fit's digest: the model's gist of the digest's messages (what the folded work was
//! for and what came of it), verified like any squash's, above the facts the plan wrote. The
//! facts are the digest's as planned, so a gist never costs one; it only takes the room the plan
//! left for it ([`squash_core::fit::gist_room`]), cut between sentences. A gist that invents,
//! speaks about the squash or does not fit is left out and the digest applied as planned.

use squash_core::fit::GIST_MAX_TOKENS;
use squash_core::ledger::{check_facts, ledger_and_runs};
use squash_core::note::gist_within;
use squash_core::prompt::{messages_text, PromptStyle, SquashStyle};
use squash_core::quality::{FactReport, Fallback, FallbackCause};
use squash_core::{ConversationId, Message, MessageId, Role, ThreadId};

use super::engine::ResultBase;
use super::faithful::{self, Drafted, Faithful};
use super::input::{full_text, Input};
use super::{SquashEngine, SquashError, SquashResult};

/// A digest of a fit, to be written with its gist.
pub struct DigestToWrite<'a> {
    pub conversation: ConversationId,
    /// The messages the digest stands for, in thread order.
    pub sources: &'a [MessageId],
    /// The digest's facts, as the plan wrote them.
    pub facts: &'a str,
    /// The most tokens the gist may take.
    pub room: u64,
    /// The thread and revision the fit was planned on.
    pub computed_on: (ThreadId, u64),
}

impl SquashEngine {
    /// The digest's text with the model's gist above its facts, or its facts alone (the
    /// result's fallback says why) when no faithful gist fits its room. A failed model call is
    /// an error: the fit it is part of writes nothing.
    pub async fn digest_with_gist(
        &self,
        digest: DigestToWrite<'_>,
    ) -> Result<SquashResult, SquashError> {
        let model = self
            .model()
            .ok_or(SquashError::NoModel(SquashStyle::Prose))?;
        let messages = self.service().store().messages(digest.sources).await?;
        let refs: Vec<&Message> = messages.iter().collect();
        let (ledger, runs) = ledger_and_runs(&refs);
        let full_text = full_text(&refs);
        let prompt_text = messages_text(&refs);
        // A gist, whatever the model: the facts are the plan's, so every model gets the prompt
        // that asks only for the sentences connecting them.
        let input = Input {
            messages: &refs,
            ledger: &ledger,
            runs: &runs,
            full_text: &full_text,
            prompt_text: &prompt_text,
            instructions: None,
            style: SquashStyle::Prose,
            prompt_style: PromptStyle::Brief,
        };
        let mut asker = self.asker(model.as_ref(), self.options());
        let Drafted {
            verified,
            prompts,
            repairs,
            estimated_prompt_tokens,
        } = faithful::draft(&mut asker, &input).await?;
        let room = digest.room.min(GIST_MAX_TOKENS);
        let (text, style, fallback, invented) = match verified {
            Ok((gist, invented)) => match gist_within(&gist, room) {
                Some(gist) => (
                    format!("{gist}\n\n{}", digest.facts),
                    SquashStyle::Prose,
                    None,
                    invented,
                ),
                None => (
                    digest.facts.to_owned(),
                    SquashStyle::Extract,
                    Some(Fallback {
                        style: SquashStyle::Extract,
                        reason: format!(
                            "the gist's first sentence was over its room of {room} tokens"
                        ),
                        cause: FallbackCause::TooLong,
                    }),
                    invented,
                ),
            },
            Err((reason, invented)) => (
                digest.facts.to_owned(),
                SquashStyle::Extract,
                Some(Fallback {
                    style: SquashStyle::Extract,
                    reason,
                    cause: FallbackCause::Unusable,
                }),
                invented,
            ),
        };
        let stated = check_facts(&ledger, &text).kept;
        let faithful = Faithful {
            facts: FactReport::new(&ledger, &stated, &[], invented),
            text,
            style,
            prompts,
            repairs,
            fallback,
            estimated_prompt_tokens,
        };
        let base = ResultBase {
            conversation: digest.conversation,
            messages: &messages,
            added_partners: &[],
            computed_on: digest.computed_on,
            prepared: None,
            requested: SquashStyle::Prose,
            // A digest stands for the agent's work, as a fit's other extracts do.
            role: Role::Assistant,
            instructions: None,
            full_text: &full_text,
        };
        let context_window = asker.context_window();
        let provider = model.info().provider;
        Ok(base.answered(faithful, asker, provider, context_window))
    }
}
