//! The faithful squash: the model's answer checked against the fact ledger, repaired once,
//! cleaned of what it invented, then composed with the facts it leaves out into one note that
//! states each fact once ([`compose_within`]) — or replaced by the extractive squash when no
//! usable answer comes. The user never waits for nothing, never gets a fact the messages did
//! not have, and never gets a note longer than what it replaces.

use squash_core::ledger::{check_facts, drop_sentences_with, invented_terms};
use squash_core::note::{clean_gist, compose_within, GIST_MAX_SENTENCES};
use squash_core::prompt::{
    build_repair_prompt, build_squash_prompt, PromptStyle, SquashPrompt, SquashStyle,
};
use squash_core::quality::{
    check_output, FactReport, Fallback, FallbackCause, InventedOutcome, InventedTerm,
    SIZE_LIMIT_FROM_TOKENS, SIZE_LIMIT_PERCENT,
};

use super::asker::{Asker, SquashStage};
use super::batch::squash_in_parts;
use super::input::{applied_tokens, Input};
use super::result::{PromptPurpose, SentPrompt};
use super::SquashError;

/// The most facts one repair request lists; the rest are appended without asking.
const REPAIR_MAX_FACTS: usize = 20;

/// A finished answer.
pub(super) struct Faithful {
    pub text: String,
    pub style: SquashStyle,
    pub prompts: Vec<SentPrompt>,
    pub facts: FactReport,
    pub repairs: u32,
    pub fallback: Option<Fallback>,
    pub estimated_prompt_tokens: u64,
}

/// The model's answer to `input`, checked: the draft free of invented terms with what was done
/// about them, or why no draft is usable; and every prompt it took.
pub(super) struct Drafted {
    pub verified: Result<(String, Vec<InventedTerm>), (String, Vec<InventedTerm>)>,
    pub prompts: Vec<SentPrompt>,
    pub repairs: u32,
    pub estimated_prompt_tokens: u64,
}

/// Squashes `input` with the model behind `asker`.
pub(super) async fn squash(
    asker: &mut Asker<'_>,
    input: &Input<'_>,
) -> Result<Faithful, SquashError> {
    let Drafted {
        verified,
        prompts,
        repairs,
        estimated_prompt_tokens,
    } = draft(asker, input).await?;
    let answer = match verified {
        Ok((draft, invented)) => compose(
            input,
            draft,
            invented,
            prompts,
            repairs,
            estimated_prompt_tokens,
        ),
        Err((reason, invented)) => {
            asker.stage(SquashStage::FallingBack);
            fallback(
                input,
                prompts,
                repairs,
                estimated_prompt_tokens,
                reason,
                invented,
            )
        }
    };
    within_limit(input, answer)
}

/// Asks the model for `input`'s squash (one repair request when the answer is unusable), takes
/// a brief prompt's gist from it, and verifies it ([`verify`]).
pub(super) async fn draft(
    asker: &mut Asker<'_>,
    input: &Input<'_>,
) -> Result<Drafted, SquashError> {
    let mut prompts = Vec::new();
    let (prompt, raw) = first_answer(asker, input, &mut prompts).await?;
    let estimated_prompt_tokens = prompts
        .first()
        .map_or(0, |p: &SentPrompt| p.prompt.estimated_tokens());
    let mut repairs = 0;
    let draft = match check_output(input.prompt_text, &raw) {
        Ok(text) => Ok(text),
        Err(problem) => {
            // One more chance, told what was wrong; then the extract.
            asker.stage(SquashStage::Repairing);
            repairs += 1;
            let follow = build_repair_prompt(&[], &[], Some(&problem.to_string()));
            record_repair(&mut prompts, &prompt, &follow);
            let retry = asker.follow_up(&prompt, &raw, &follow).await?;
            check_output(input.prompt_text, &retry.text).map_err(|again| again.to_string())
        }
    };
    // The small models' answer is a gist above the facts: what it says about the task, the
    // headings and lists it copied, a sentence cut off go before it is verified.
    let draft = draft.and_then(|text| gist_of(input, text));
    // A usable draft with what was done about its invented terms, or why there is none.
    let verified = match draft {
        Ok(draft) => {
            match verify(asker, input, &prompt, draft, &mut prompts, &mut repairs).await? {
                Verified::Clean { draft, invented } => Ok((draft, invented)),
                Verified::Unusable { invented } => {
                    let terms: Vec<String> = invented.iter().map(|t| t.term.clone()).collect();
                    let reason = format!(
                        "the answer held terms the messages never had ({})",
                        terms.join(", ")
                    );
                    Err((reason, invented))
                }
            }
        }
        Err(reason) => Err((
            format!("no usable answer after a repair request ({reason})"),
            Vec::new(),
        )),
    };
    Ok(Drafted {
        verified,
        prompts,
        repairs,
        estimated_prompt_tokens,
    })
}

/// The gist of a brief prompt's answer ([`clean_gist`]); any other answer as it is. Err when
/// nothing of the answer is left.
fn gist_of(input: &Input<'_>, answer: String) -> Result<String, String> {
    if input.prompt_style != PromptStyle::Brief {
        return Ok(answer);
    }
    clean_gist(&answer, input.full_text, input.runs, GIST_MAX_SENTENCES)
        .ok_or_else(|| "the answer spoke only about the task, not the conversation".to_owned())
}

/// The answer, or the facts alone when it is over the size limit and they are shorter
/// ([`Input::size_limit`]: 40% of a selection of 200 tokens or more, shorter than the selection below
/// that). Both are faithful, so the shorter is applied; the report says what it came to against
/// the limit. Both are measured as applied, with their recall mark. When not even the facts
/// alone are shorter than the selection, nothing is applied.
fn within_limit(input: &Input<'_>, answer: Faithful) -> Result<Faithful, SquashError> {
    let selection_tokens = input.selection_tokens();
    let Some(limit_tokens) = input.size_limit() else {
        return Ok(answer);
    };
    let answer_tokens = applied_tokens(&answer.text);
    let mut applied = answer;
    if answer_tokens > limit_tokens {
        let extract = compose_within(input.ledger, None, input.messages, input.note_limit());
        let extract_tokens = applied_tokens(&extract);
        if extract_tokens < answer_tokens {
            let stated = check_facts(input.ledger, &extract).kept;
            let invented = std::mem::take(&mut applied.facts.invented);
            let limit = if selection_tokens >= SIZE_LIMIT_FROM_TOKENS {
                format!("over {SIZE_LIMIT_PERCENT}% of the selection's {selection_tokens} ({limit_tokens})")
            } else {
                format!("no shorter than the selection's {selection_tokens}")
            };
            applied = Faithful {
                facts: FactReport::new(input.ledger, &stated, &[], invented),
                text: extract,
                style: SquashStyle::Extract,
                fallback: Some(Fallback {
                    style: SquashStyle::Extract,
                    reason: format!(
                        "the answer was {answer_tokens} tokens, {limit}; the facts alone are \
                         {extract_tokens}"
                    ),
                    cause: FallbackCause::TooLong,
                }),
                ..applied
            };
        }
    }
    shorter_than_selection(selection_tokens, &applied.text)?;
    Ok(applied)
}

/// Refuses a text that, applied with its recall mark, is no shorter than the selection it
/// would replace.
pub(super) fn shorter_than_selection(selection_tokens: u64, text: &str) -> Result<(), SquashError> {
    let shortest_tokens = applied_tokens(text);
    if shortest_tokens >= selection_tokens {
        return Err(SquashError::NothingShorter {
            selection_tokens,
            shortest_tokens,
        });
    }
    Ok(())
}

/// The first prompt and its raw answer: one prompt when the selection fits the context window,
/// otherwise the parts' results combined.
async fn first_answer(
    asker: &mut Asker<'_>,
    input: &Input<'_>,
    prompts: &mut Vec<SentPrompt>,
) -> Result<(SquashPrompt, String), SquashError> {
    let prompt = build_squash_prompt(input.messages, input.instructions, input.prompt_style);
    if asker.fits(&prompt) || input.messages.len() < 2 {
        prompts.push(SentPrompt {
            purpose: PromptPurpose::Squash,
            prompt: prompt.clone(),
        });
        let answer = asker.ask(&prompt).await?;
        return Ok((prompt, answer.text));
    }
    squash_in_parts(asker, input, prompts).await
}

enum Verified {
    /// An answer free of invented terms (the ones it had were removed).
    Clean {
        draft: String,
        invented: Vec<InventedTerm>,
    },
    /// Invented terms that could not be removed.
    Unusable { invented: Vec<InventedTerm> },
}

/// Checks the draft against the ledger; asks for one repair when it leaves facts out (except
/// from the brief prompt, which asks for connecting prose only) or invents terms; removes the
/// sentences holding invented terms that the repair kept.
async fn verify(
    asker: &mut Asker<'_>,
    input: &Input<'_>,
    prompt: &SquashPrompt,
    mut draft: String,
    prompts: &mut Vec<SentPrompt>,
    repairs: &mut u32,
) -> Result<Verified, SquashError> {
    let provider = asker.model.info().provider;
    let mut invented = invented_terms(input.full_text, &draft);
    let check = check_facts(input.ledger, &draft);
    let ask_for_facts = input.prompt_style != PromptStyle::Brief && !check.missing.is_empty();
    let mut report = Vec::new();
    if asker.options.repair_rounds_on(provider) > 0 && (ask_for_facts || !invented.is_empty()) {
        asker.stage(SquashStage::Repairing);
        *repairs += 1;
        let missing: Vec<_> = if ask_for_facts {
            let mut m = input.ledger.subset(&check.missing);
            m.truncate(REPAIR_MAX_FACTS);
            m
        } else {
            Vec::new()
        };
        let follow = build_repair_prompt(&missing, &invented, None);
        record_repair(prompts, prompt, &follow);
        let answer = asker.follow_up(prompt, &draft, &follow).await?;
        // An unusable repair answer leaves the draft as it was.
        if let Ok(repaired) = check_output(input.prompt_text, &answer.text) {
            let still = invented_terms(input.full_text, &repaired);
            report.extend(
                invented
                    .iter()
                    .filter(|t| !still.contains(t))
                    .map(|t| InventedTerm {
                        term: t.clone(),
                        outcome: InventedOutcome::RemovedByRepair,
                    }),
            );
            draft = repaired;
            invented = still;
        }
    }
    if invented.is_empty() {
        return Ok(Verified::Clean {
            draft,
            invented: report,
        });
    }
    let (rest, _) = drop_sentences_with(&draft, &invented);
    let left_over = invented_terms(input.full_text, &rest);
    if rest.trim().is_empty() || !left_over.is_empty() {
        report.extend(invented.into_iter().map(|term| InventedTerm {
            term,
            outcome: InventedOutcome::AnswerReplaced,
        }));
        return Ok(Verified::Unusable { invented: report });
    }
    report.extend(invented.into_iter().map(|term| InventedTerm {
        term,
        outcome: InventedOutcome::SentenceDropped,
    }));
    Ok(Verified::Clean {
        draft: rest,
        invented: report,
    })
}

/// The applied text: the answer (for the brief prompt, its gist) above the facts it does not
/// state, each once.
fn compose(
    input: &Input<'_>,
    draft: String,
    invented: Vec<InventedTerm>,
    prompts: Vec<SentPrompt>,
    repairs: u32,
    estimated_prompt_tokens: u64,
) -> Faithful {
    let check = check_facts(input.ledger, &draft);
    let kept = check.kept;
    let text = compose_within(
        input.ledger,
        Some(&draft),
        input.messages,
        input.note_limit(),
    );
    let stated = check_facts(input.ledger, &text).kept;
    let restored: Vec<usize> = stated.into_iter().filter(|i| !kept.contains(i)).collect();
    Faithful {
        facts: FactReport::new(input.ledger, &kept, &restored, invented),
        text,
        style: input.style,
        prompts,
        repairs,
        fallback: None,
        estimated_prompt_tokens,
    }
}

/// The extractive squash in place of unusable answers.
fn fallback(
    input: &Input<'_>,
    prompts: Vec<SentPrompt>,
    repairs: u32,
    estimated_prompt_tokens: u64,
    reason: String,
    invented: Vec<InventedTerm>,
) -> Faithful {
    let text = compose_within(input.ledger, None, input.messages, input.note_limit());
    let stated = check_facts(input.ledger, &text).kept;
    Faithful {
        facts: FactReport::new(input.ledger, &stated, &[], invented),
        text,
        style: SquashStyle::Extract,
        prompts,
        repairs,
        fallback: Some(Fallback {
            style: SquashStyle::Extract,
            reason,
            cause: FallbackCause::Unusable,
        }),
        estimated_prompt_tokens,
    }
}

fn record_repair(prompts: &mut Vec<SentPrompt>, prompt: &SquashPrompt, follow: &str) {
    prompts.push(SentPrompt {
        purpose: PromptPurpose::Repair,
        prompt: SquashPrompt {
            system: None,
            user: follow.to_owned(),
            style: prompt.style,
        },
    });
}
