//! [`SquashEngine`]: selected messages in, one message out, applied as a new thread.
//!
//! [`SquashEngine::squash_messages`] computes a [`SquashResult`] without touching storage: it
//! reads the current thread once, orders the selection by thread position and brings in tool
//! partners, computes the fact ledger, then either renders the ledger (the `extract` style) or
//! asks the model (temperature 0.3, no tools, no extended thinking; in parts when the selection
//! does not fit its context window) and makes the answer faithful (see `faithful.rs`).
//! [`SquashEngine::apply`] stores the result like any other squash (copy-on-write, one
//! transaction, re-applied on the newer thread when the user appended during the call). A
//! failed call changes nothing.
//!
//! [`SquashEngine::rerun`] repeats a recorded squash on the same sources with the recorded
//! style and instructions (the prompt builders are pure, so the same prompt is sent again) and
//! applies the new answer as a further thread; the old result stays reachable.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use squash_core::ledger::{check_facts, ledger_and_runs, Ledger};
use squash_core::note::compose_within;
use squash_core::prompt::{messages_text, SquashStyle};
use squash_core::quality::{quality_report, FactReport, SizeLimit};
use squash_core::thread_ops::{PartnerAdded, PartnerPolicy};
use squash_core::tokens::estimate_tokens;
use squash_core::{
    ContentItem, ConversationId, DomainError, Message, MessageId, Role, SquashOperationId,
    ThreadId, TokenUsage,
};
use squash_llm::{CancellationToken, ChatModel, ProviderKind, StopReason};

use super::asker::{Asker, Progress, StageListener};
use super::faithful::{self, Faithful};
use super::input::{applied_tokens, full_text, note_limit, Input};
use super::options::SquashOptions;
use super::result::{AiSquash, SquashResult};
use super::SquashError;
use crate::conversations::{ConversationService, OperationOutcome, PreparedSquash};

/// Computes, applies and re-runs squashes with one model (or none, for the extractive style).
#[derive(Clone)]
pub struct SquashEngine {
    service: ConversationService,
    model: Option<Arc<dyn ChatModel>>,
    options: SquashOptions,
    cancel: CancellationToken,
    progress: Option<Progress>,
    stages: Option<StageListener>,
}

/// The selection, read once from the current thread, and its messages.
struct Prepared {
    conversation: ConversationId,
    messages: Vec<Message>,
    added_partners: Vec<PartnerAdded>,
    computed_on: (ThreadId, u64),
    /// Handed on to the commit, which plans on the same snapshot.
    squash: PreparedSquash,
}

impl SquashEngine {
    pub fn new(service: ConversationService, model: Arc<dyn ChatModel>) -> SquashEngine {
        SquashEngine {
            model: Some(model),
            ..SquashEngine::offline(service)
        }
    }

    /// An engine without a model: only the extractive style works.
    pub fn offline(service: ConversationService) -> SquashEngine {
        SquashEngine {
            service,
            model: None,
            options: SquashOptions::default(),
            cancel: CancellationToken::new(),
            progress: None,
            stages: None,
        }
    }

    pub fn with_options(mut self, options: SquashOptions) -> SquashEngine {
        self.options = options;
        self
    }

    /// Cancels the model call when `cancel` fires ([`squash_llm::LlmError::Cancelled`],
    /// nothing changed).
    pub fn with_cancel(mut self, cancel: CancellationToken) -> SquashEngine {
        self.cancel = cancel;
        self
    }

    /// Reports the answer's text as it streams in.
    pub fn with_progress(mut self, progress: Progress) -> SquashEngine {
        self.progress = Some(progress);
        self
    }

    /// Reports the stages of a long squash (parts, repair, fallback).
    pub fn with_stages(mut self, stages: StageListener) -> SquashEngine {
        self.stages = Some(stages);
        self
    }

    pub fn options(&self) -> &SquashOptions {
        &self.options
    }

    pub fn service(&self) -> &ConversationService {
        &self.service
    }

    pub fn model(&self) -> Option<&Arc<dyn ChatModel>> {
        self.model.as_ref()
    }

    /// Computes the squash of `messages` (any order, non-contiguous allowed; tool partners are
    /// brought in) on the conversation's current thread. Stores nothing.
    pub async fn squash_messages(
        &self,
        conversation: ConversationId,
        messages: &[MessageId],
        custom_instructions: Option<&str>,
    ) -> Result<SquashResult, SquashError> {
        let prepared = self
            .prepare(conversation, messages, self.options.partner_policy)
            .await?;
        let instructions = custom_instructions
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned);
        self.compute(prepared, instructions, &self.options).await
    }

    /// Stores a computed result as a new current thread with its squash record.
    pub async fn apply(&self, result: &SquashResult) -> Result<OperationOutcome, SquashError> {
        Ok(self.service.apply_ai_squash(result).await?)
    }

    /// [`squash_messages`](SquashEngine::squash_messages), then [`apply`](SquashEngine::apply).
    pub async fn squash_and_apply(
        &self,
        conversation: ConversationId,
        messages: &[MessageId],
        custom_instructions: Option<&str>,
    ) -> Result<AiSquash, SquashError> {
        let result = self
            .squash_messages(conversation, messages, custom_instructions)
            .await?;
        let outcome = self.apply(&result).await?;
        Ok(AiSquash { result, outcome })
    }

    /// Repeats a recorded AI squash on its sources, with its style and instructions, and the
    /// recorded model when this engine's provider is the recorded one
    /// ([`SquashOptions::model`] overrides it); applied as a further thread. The sources must
    /// be in the current thread again (after an undo, typically).
    pub async fn rerun(&self, operation: SquashOperationId) -> Result<AiSquash, SquashError> {
        let op = self.service.operation(operation).await?;
        let Some(recorded_model) = op.kind.model().map(str::to_owned) else {
            return Err(SquashError::NotAiSquash(operation));
        };
        let snap = self
            .service
            .store()
            .current_thread(op.conversation_id)
            .await?;
        let in_thread: HashSet<&MessageId> = snap.links.iter().collect();
        let missing: Vec<MessageId> = op
            .source_message_ids
            .iter()
            .filter(|id| !in_thread.contains(id))
            .copied()
            .collect();
        if !missing.is_empty() {
            return Err(SquashError::SourcesGone { operation, missing });
        }
        let prepared = self
            .prepare(
                op.conversation_id,
                &op.source_message_ids,
                PartnerPolicy::Refuse,
            )
            .await?;
        let same_provider = match (op.kind.provider(), &self.model) {
            (Some(recorded), Some(model)) => recorded == model.info().provider,
            _ => true,
        };
        let mut options = self.options.clone();
        options.model = options
            .model
            .or_else(|| same_provider.then_some(recorded_model));
        if let Some(style) = op.kind.style() {
            options.style = style;
        }
        if same_provider {
            options.prompt_style = op.kind.prompt_style().or(options.prompt_style);
        }
        let instructions = op.kind.custom_instructions().map(str::to_owned);
        let result = self.compute(prepared, instructions, &options).await?;
        let outcome = self.apply(&result).await?;
        Ok(AiSquash { result, outcome })
    }

    async fn prepare(
        &self,
        conversation: ConversationId,
        selected: &[MessageId],
        policy: PartnerPolicy,
    ) -> Result<Prepared, SquashError> {
        let squash = self
            .service
            .prepare_squash(conversation, selected, policy)
            .await?;
        let sources = squash.sources();
        if sources.len() < 2 {
            return Err(DomainError::TooFewMessages(sources.len()).into());
        }
        Ok(Prepared {
            conversation,
            messages: self.service.store().messages(sources).await?,
            added_partners: squash.selection.added.clone(),
            computed_on: squash.computed_on(),
            squash,
        })
    }

    async fn compute(
        &self,
        prepared: Prepared,
        instructions: Option<String>,
        options: &SquashOptions,
    ) -> Result<SquashResult, SquashError> {
        let refs: Vec<&Message> = prepared.messages.iter().collect();
        let (ledger, runs) = ledger_and_runs(&refs);
        let full_text = full_text(&refs);
        let role = options.role.unwrap_or_else(|| result_role(&refs));
        let base = ResultBase {
            conversation: prepared.conversation,
            messages: &prepared.messages,
            added_partners: &prepared.added_partners,
            computed_on: prepared.computed_on,
            prepared: Some(&prepared.squash),
            requested: options.style,
            role,
            instructions: instructions.clone(),
            full_text: &full_text,
        };
        if options.style == SquashStyle::Extract {
            return base.extracted(&ledger, &refs);
        }
        let model = self
            .model
            .as_ref()
            .ok_or(SquashError::NoModel(options.style))?;
        let prompt_text = messages_text(&refs);
        let provider = model.info().provider;
        let input = Input {
            messages: &refs,
            ledger: &ledger,
            runs: &runs,
            full_text: &full_text,
            prompt_text: &prompt_text,
            instructions: instructions.as_deref(),
            style: options.style,
            prompt_style: options.prompt_style_on(provider),
        };
        let mut asker = self.asker(model.as_ref(), options);
        let faithful = faithful::squash(&mut asker, &input).await?;
        let context_window = asker.context_window();
        Ok(base.answered(faithful, asker, provider, context_window))
    }

    /// Asks `model` with `options`, this engine's cancellation and progress, totals at zero.
    pub(super) fn asker<'a>(
        &'a self,
        model: &'a dyn ChatModel,
        options: &'a SquashOptions,
    ) -> Asker<'a> {
        Asker {
            model,
            options,
            model_id: options.model.clone(),
            cancel: &self.cancel,
            progress: self.progress.as_ref(),
            stages: self.stages.as_ref(),
            usage: Some(TokenUsage {
                input_tokens: 0,
                output_tokens: 0,
            }),
            duration: Duration::ZERO,
            model_reported: None,
            stop_reason: None,
        }
    }
}

/// What every result of one computation shares.
pub(super) struct ResultBase<'a> {
    pub conversation: ConversationId,
    /// The sources, in thread order.
    pub messages: &'a [Message],
    pub added_partners: &'a [PartnerAdded],
    pub computed_on: (ThreadId, u64),
    /// The selection as resolved, for a squash applied on its own.
    pub prepared: Option<&'a PreparedSquash>,
    pub requested: SquashStyle,
    pub role: Role,
    pub instructions: Option<String>,
    pub full_text: &'a str,
}

impl ResultBase<'_> {
    fn result(&self, text: String, style: SquashStyle) -> SquashResult {
        let mut report = quality_report(self.full_text, &text);
        report.size = SizeLimit::of(estimate_tokens(self.full_text), applied_tokens(&text));
        SquashResult {
            conversation_id: self.conversation,
            report,
            text,
            style,
            requested_style: self.requested,
            role: self.role,
            prompt: None,
            prompts: Vec::new(),
            model: None,
            provider: None,
            usage: None,
            duration: Duration::ZERO,
            sources: self.messages.iter().map(|m| m.id).collect(),
            added_partners: self.added_partners.to_vec(),
            custom_instructions: self.instructions.clone(),
            computed_on: self.computed_on,
            prepared: self.prepared.cloned(),
            estimated_prompt_tokens: 0,
            context_window: 0,
            stop_reason: None,
            truncated: false,
        }
    }

    /// The extract, unless it is no shorter than the selection.
    fn extracted(&self, ledger: &Ledger, refs: &[&Message]) -> Result<SquashResult, SquashError> {
        let selection_tokens = estimate_tokens(self.full_text);
        let text = compose_within(ledger, None, refs, note_limit(selection_tokens));
        faithful::shorter_than_selection(selection_tokens, &text)?;
        let stated = check_facts(ledger, &text).kept;
        let mut result = self.result(text, SquashStyle::Extract);
        result.report.facts = Some(FactReport::new(ledger, &stated, &[], Vec::new()));
        Ok(result)
    }

    pub(super) fn answered(
        &self,
        faithful: Faithful,
        asker: Asker<'_>,
        provider: ProviderKind,
        context_window: u32,
    ) -> SquashResult {
        let mut result = self.result(faithful.text, faithful.style);
        result.report.facts = Some(faithful.facts);
        result.report.repairs = faithful.repairs;
        result.report.fallback = faithful.fallback;
        result.prompt = faithful.prompts.first().map(|p| p.prompt.clone());
        result.prompts = faithful.prompts;
        result.model = asker.model_reported;
        result.provider = Some(provider);
        result.usage = asker.usage;
        result.duration = asker.duration;
        result.estimated_prompt_tokens = faithful.estimated_prompt_tokens;
        result.context_window = context_window;
        result.truncated = asker
            .stop_reason
            .as_ref()
            .is_some_and(StopReason::is_truncated);
        result.stop_reason = asker.stop_reason;
        result
    }
}

/// The role of a squash result, from its sources: anything the user typed keeps it a user
/// message (the spec's default); a run of the agent's messages and tool results is the
/// agent's, so it reads as the assistant's own account.
pub fn result_role(sources: &[&Message]) -> Role {
    let user_typed = sources.iter().any(|m| {
        m.role == Role::User
            && m.content.iter().any(|item| match item {
                ContentItem::UserMessage { text } => !text.trim().is_empty(),
                _ => false,
            })
    });
    if user_typed {
        Role::User
    } else {
        Role::Assistant
    }
}
