//! The AI squash engine: selected messages in, one compressed message out.
//!
//! [`SquashEngine::squash_messages`] computes a [`SquashResult`] without touching storage:
//! it reads the current thread, orders the selection by thread position and brings in tool
//! partners, builds the XML prompt, refuses input that cannot fit the model's context window,
//! calls the model (temperature 0.3, at most 4096 output tokens, no tools, no extended
//! thinking), checks and cleans the answer and reports its quality. [`SquashEngine::apply`]
//! then stores the result like any other squash (copy-on-write, one transaction, re-applied
//! on the newer thread when the user appended during the call). A failed call changes nothing.
//!
//! [`SquashEngine::rerun`] sends a recorded AI squash's stored prompt again and applies the new
//! answer as a further thread; the old result stays reachable.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Serialize, Serializer};
use squash_core::prompt::{build_squash_prompt, messages_text, PromptStyle, SquashPrompt};
use squash_core::quality::{check_output, quality_report, OutputProblem, QualityReport};
use squash_core::thread_ops::{self, PartnerAdded, PartnerPolicy};
use squash_core::tokens::{check_fits, context_window_for, TooLarge};
use squash_core::{
    ContentItem, ConversationId, DomainError, Message, MessageId, Role, SquashOperationId,
    ThreadId, TokenUsage,
};
use squash_llm::{
    CancellationToken, ChatMessage, ChatModel, ChatRequest, ChatResponse, LlmError, ModelInfo,
    ProviderKind,
};
use squash_store::StoreError;
use thiserror::Error;

use crate::conversations::{ConversationService, OperationOutcome, SquashApplication};
use crate::error::ServiceError;

/// The sampling temperature of a squash call: low, for a faithful summary.
pub const SQUASH_TEMPERATURE: f32 = 0.3;
/// The most tokens a squash answer may have.
pub const SQUASH_MAX_OUTPUT_TOKENS: u32 = 4096;
/// The environment variable holding the context window assumed for models the table does not
/// know.
pub const CONTEXT_WINDOW_ENV: &str = "SQUASH_CONTEXT_WINDOW";

/// A callback that receives the answer's text as it streams in.
pub type Progress = Arc<dyn Fn(&str) + Send + Sync>;

/// How a squash is asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct SquashOptions {
    /// The prompt's shape; `None`: the one suited to the model's provider (see
    /// [`prompt_style_for`]).
    pub style: Option<PromptStyle>,
    pub temperature: f32,
    pub max_output_tokens: u32,
    /// A model id to use instead of the provider's configured one (and, for a re-run, instead
    /// of the recorded one).
    pub model: Option<String>,
    /// The context window of models the per-model table does not know; the provider's own
    /// figure when unset.
    pub default_context_window: Option<u32>,
    /// The context window to check against whatever the model, overriding table and provider.
    pub context_window: Option<u32>,
    /// What to do when the selection holds one side of a tool call only.
    pub partner_policy: PartnerPolicy,
}

impl Default for SquashOptions {
    fn default() -> Self {
        SquashOptions {
            style: None,
            temperature: SQUASH_TEMPERATURE,
            max_output_tokens: SQUASH_MAX_OUTPUT_TOKENS,
            model: None,
            default_context_window: None,
            context_window: None,
            partner_policy: PartnerPolicy::Include,
        }
    }
}

impl SquashOptions {
    /// The defaults, with the default context window read from `SQUASH_CONTEXT_WINDOW`.
    pub fn from_env() -> Result<SquashOptions, SquashError> {
        let default_context_window = match std::env::var(CONTEXT_WINDOW_ENV) {
            Ok(v) if !v.trim().is_empty() => Some(parse_window(&v).ok_or_else(|| {
                ServiceError::Invalid(format!(
                    "{CONTEXT_WINDOW_ENV} is not a positive number of tokens: {v}"
                ))
            })?),
            _ => None,
        };
        Ok(SquashOptions {
            default_context_window,
            ..SquashOptions::default()
        })
    }

    /// The context window a prompt for `model_id` is checked against: an explicit
    /// [`context_window`](SquashOptions::context_window) wins; a model the table knows gets the
    /// table's window, capped by what the provider says it serves (a local server may run a
    /// model with a smaller window than it was trained for); any other model gets
    /// [`default_context_window`](SquashOptions::default_context_window), else the provider's
    /// figure.
    pub fn context_window_for(&self, model_id: &str, info: &ModelInfo) -> u32 {
        if let Some(window) = self.context_window {
            return window;
        }
        match context_window_for(model_id) {
            Some(known) => known.min(info.context_window_tokens),
            None => self
                .default_context_window
                .unwrap_or(info.context_window_tokens),
        }
    }
}

fn parse_window(v: &str) -> Option<u32> {
    v.trim()
        .replace(['_', ','], "")
        .parse::<u32>()
        .ok()
        .filter(|w| *w > 0)
}

/// A computed AI squash, not yet applied.
#[derive(Clone, Debug, Serialize)]
pub struct SquashResult {
    pub conversation_id: ConversationId,
    /// The compressed text, cleaned of preambles and wrappers: the new message's text.
    pub text: String,
    /// The prompt exactly as sent.
    pub prompt: SquashPrompt,
    /// The model id the provider reported.
    pub model: String,
    pub provider: ProviderKind,
    /// Tokens as the provider counted them.
    pub usage: TokenUsage,
    /// How long the model call took.
    #[serde(rename = "duration_ms", serialize_with = "as_millis")]
    pub duration: Duration,
    pub report: QualityReport,
    /// The squashed messages in thread order, tool partners included.
    pub sources: Vec<MessageId>,
    /// Tool partners that joined the selection.
    #[serde(skip)]
    pub added_partners: Vec<PartnerAdded>,
    pub custom_instructions: Option<String>,
    /// The thread and revision the result was computed from.
    pub computed_on: (ThreadId, u64),
    /// The estimated prompt tokens and the context window they were checked against.
    pub estimated_prompt_tokens: u64,
    pub context_window: u32,
    pub stop_reason: Option<String>,
    /// The answer hit the output limit and may be cut off.
    pub truncated: bool,
}

impl SquashResult {
    /// The duration in whole milliseconds, as recorded.
    pub fn duration_ms(&self) -> u64 {
        u64::try_from(self.duration.as_millis()).unwrap_or(u64::MAX)
    }
}

fn as_millis<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u64(u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// An applied AI squash: the computed result and what storing it did.
#[derive(Clone, Debug)]
pub struct AiSquash {
    pub result: SquashResult,
    pub outcome: OperationOutcome,
}

/// Why an AI squash did not happen. Nothing was changed in every case.
#[derive(Debug, Error)]
pub enum SquashError {
    #[error(transparent)]
    Service(#[from] ServiceError),
    #[error("the model call failed: {0}")]
    Model(#[from] LlmError),
    #[error("{0}")]
    TooLarge(TooLarge),
    #[error("{0}")]
    Output(#[from] OutputProblem),
    #[error(
        "operation {0} is not an AI squash (it has no recorded prompt and model); only AI \
         squashes can be re-run"
    )]
    NotAiSquash(SquashOperationId),
    #[error(
        "cannot re-run operation {operation}: {} of its source messages are no longer in the \
         current thread ({}); switch back to the thread it was applied to (`squash undo` or \
         `squash thread switch`) first",
        .missing.len(),
        .missing.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(", ")
    )]
    SourcesGone {
        operation: SquashOperationId,
        missing: Vec<MessageId>,
    },
}

impl From<TooLarge> for SquashError {
    fn from(e: TooLarge) -> Self {
        SquashError::TooLarge(e)
    }
}

impl From<DomainError> for SquashError {
    fn from(e: DomainError) -> Self {
        SquashError::Service(e.into())
    }
}

impl From<StoreError> for SquashError {
    fn from(e: StoreError) -> Self {
        SquashError::Service(e.into())
    }
}

impl SquashError {
    /// A stable code for exit statuses, API responses and logs.
    pub fn code(&self) -> &'static str {
        match self {
            SquashError::Service(e) => e.code(),
            SquashError::Model(_) => "model_error",
            SquashError::TooLarge(_) => "input_too_large",
            SquashError::Output(_) => "bad_model_output",
            SquashError::NotAiSquash(_) => "invalid_input",
            SquashError::SourcesGone { .. } => "conflict",
        }
    }

    /// The finer class of a model or output failure (`rate_limit`, `empty`, ...).
    pub fn class(&self) -> Option<&'static str> {
        match self {
            SquashError::Model(e) => Some(e.class()),
            SquashError::Output(p) => Some(p.class()),
            SquashError::Service(_)
            | SquashError::TooLarge(_)
            | SquashError::NotAiSquash(_)
            | SquashError::SourcesGone { .. } => None,
        }
    }

    /// Whether trying the same squash again later may succeed.
    pub fn is_retryable(&self) -> bool {
        match self {
            SquashError::Service(e) => e.is_retryable(),
            SquashError::Model(e) => e.is_retryable(),
            SquashError::TooLarge(_) => false,
            // Answers vary between calls; another attempt may give a usable one.
            SquashError::Output(_) => true,
            SquashError::NotAiSquash(_) => false,
            SquashError::SourcesGone { .. } => false,
        }
    }

    /// What the user can do about it, when there is something specific to say.
    pub fn hint(&self) -> Option<&'static str> {
        match self {
            SquashError::Model(e) => Some(e.hint()),
            SquashError::Output(_) => {
                Some("Try again, add --instructions to steer the model, or use another model.")
            }
            SquashError::Service(_)
            | SquashError::TooLarge(_)
            | SquashError::NotAiSquash(_)
            | SquashError::SourcesGone { .. } => None,
        }
    }
}

/// Computes, applies and re-runs AI squashes with one model.
#[derive(Clone)]
pub struct SquashEngine {
    service: ConversationService,
    model: Arc<dyn ChatModel>,
    options: SquashOptions,
    cancel: CancellationToken,
    progress: Option<Progress>,
}

/// What the model answered, checked.
struct Answer {
    response: ChatResponse,
    text: String,
    duration: Duration,
    estimated_prompt_tokens: u64,
    context_window: u32,
}

impl SquashEngine {
    pub fn new(service: ConversationService, model: Arc<dyn ChatModel>) -> SquashEngine {
        SquashEngine {
            service,
            model,
            options: SquashOptions::default(),
            cancel: CancellationToken::new(),
            progress: None,
        }
    }

    pub fn with_options(mut self, options: SquashOptions) -> SquashEngine {
        self.options = options;
        self
    }

    /// Cancels the model call when `cancel` fires ([`LlmError::Cancelled`], nothing changed).
    pub fn with_cancel(mut self, cancel: CancellationToken) -> SquashEngine {
        self.cancel = cancel;
        self
    }

    /// Reports the answer's text as it streams in.
    pub fn with_progress(mut self, progress: Progress) -> SquashEngine {
        self.progress = Some(progress);
        self
    }

    pub fn options(&self) -> &SquashOptions {
        &self.options
    }

    pub fn model(&self) -> &Arc<dyn ChatModel> {
        &self.model
    }

    /// Computes the squash of `messages` (any order, non-contiguous allowed; tool partners are
    /// brought in) on the conversation's current thread. Stores nothing.
    pub async fn squash_messages(
        &self,
        conversation: ConversationId,
        messages: &[MessageId],
        custom_instructions: Option<&str>,
    ) -> Result<SquashResult, SquashError> {
        let store = self.service.store();
        let prepared = self
            .service
            .prepare_squash(conversation, messages, self.options.partner_policy)
            .await?;
        let snap = &prepared.snapshot;
        let sources = prepared.selection.ordered.clone();
        let added_partners = prepared.selection.added.clone();
        if sources.len() < 2 {
            return Err(DomainError::TooFewMessages(sources.len()).into());
        }
        let loaded = store.messages(&sources).await?;
        let refs: Vec<&Message> = loaded.iter().collect();
        let custom_instructions = custom_instructions
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned);
        let style = self
            .options
            .style
            .unwrap_or_else(|| prompt_style_for(self.model.info().provider));
        let prompt = build_squash_prompt(&refs, custom_instructions.as_deref(), style);
        let input_text = messages_text(&refs);
        let answer = self
            .ask(&prompt, self.options.model.clone(), &input_text)
            .await?;
        Ok(self.result(
            conversation,
            prompt,
            answer,
            &input_text,
            sources,
            added_partners,
            custom_instructions,
            (snap.thread.id, snap.thread.revision),
        ))
    }

    /// Stores a computed result as a new current thread with its AI squash record.
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

    /// Repeats a recorded AI squash: the stored prompt, sent again to the recorded model (when
    /// this engine's provider is the recorded one; [`SquashOptions::model`] overrides it), and
    /// applied as a further thread. The sources must be in the current thread again (after an
    /// undo, typically); the old result stays reachable through its thread.
    pub async fn rerun(&self, operation: SquashOperationId) -> Result<AiSquash, SquashError> {
        let op = self.service.operation(operation).await?;
        let (Some(prompt_text), Some(recorded_model), true) =
            (op.prompt.clone(), op.model.clone(), op.performed_by_agent)
        else {
            return Err(SquashError::NotAiSquash(operation));
        };
        let conversation = op.conversation_id;
        let snap = self.service.store().current_thread(conversation).await?;
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
        let sources = thread_ops::order_by_thread(&snap.links, &op.source_message_ids)?;
        let loaded = self.service.store().messages(&sources).await?;
        let refs: Vec<&Message> = loaded.iter().collect();
        let input_text = messages_text(&refs);
        let prompt = prompt_from_record(&prompt_text);

        let same_provider = op
            .provider
            .as_deref()
            .and_then(parse_provider_kind)
            .is_none_or(|p| p == self.model.info().provider);
        let model = self
            .options
            .model
            .clone()
            .or_else(|| same_provider.then_some(recorded_model));
        let answer = self.ask(&prompt, model, &input_text).await?;
        let result = self.result(
            conversation,
            prompt,
            answer,
            &input_text,
            sources,
            Vec::new(),
            op.custom_instructions.clone(),
            (snap.thread.id, snap.thread.revision),
        );
        let outcome = self.apply(&result).await?;
        Ok(AiSquash { result, outcome })
    }

    /// Checks the size, calls the model, checks the answer.
    async fn ask(
        &self,
        prompt: &SquashPrompt,
        model: Option<String>,
        input_text: &str,
    ) -> Result<Answer, SquashError> {
        let info = self.model.info();
        let model_id = model.clone().unwrap_or_else(|| info.model.clone());
        let context_window = self.options.context_window_for(&model_id, &info);
        let estimated_prompt_tokens = prompt.estimated_tokens();
        check_fits(
            estimated_prompt_tokens,
            u64::from(self.options.max_output_tokens),
            context_window,
        )?;
        let request = ChatRequest {
            system: prompt.system.clone(),
            messages: vec![ChatMessage::user(prompt.user.clone())],
            temperature: Some(self.options.temperature),
            max_output_tokens: self.options.max_output_tokens,
            model,
        };
        let started = Instant::now();
        let noop = |_: &str| {};
        let on_delta: &(dyn Fn(&str) + Send + Sync) = match &self.progress {
            Some(p) => p.as_ref(),
            None => &noop,
        };
        tracing::debug!(
            provider = %info.provider,
            model = %model_id,
            estimated_prompt_tokens,
            context_window,
            "asking for a squash"
        );
        let response = self.model.stream(&request, &self.cancel, on_delta).await?;
        let duration = started.elapsed();
        let text = check_output(input_text, &response.text)?;
        Ok(Answer {
            response,
            text,
            duration,
            estimated_prompt_tokens,
            context_window,
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn result(
        &self,
        conversation: ConversationId,
        prompt: SquashPrompt,
        answer: Answer,
        input_text: &str,
        sources: Vec<MessageId>,
        added_partners: Vec<PartnerAdded>,
        custom_instructions: Option<String>,
        computed_on: (ThreadId, u64),
    ) -> SquashResult {
        let report = quality_report(input_text, &answer.text);
        let truncated = matches!(
            answer.response.stop_reason.as_deref(),
            Some("max_tokens" | "length")
        );
        SquashResult {
            conversation_id: conversation,
            text: answer.text,
            prompt,
            model: answer.response.model,
            provider: self.model.info().provider,
            usage: TokenUsage {
                input_tokens: answer.response.usage.input_tokens,
                output_tokens: answer.response.usage.output_tokens,
            },
            duration: answer.duration,
            report,
            sources,
            added_partners,
            custom_instructions,
            computed_on,
            estimated_prompt_tokens: answer.estimated_prompt_tokens,
            context_window: answer.context_window,
            stop_reason: answer.response.stop_reason,
            truncated,
        }
    }
}

impl ConversationService {
    /// Applies a computed AI squash: the result as a user message in place of its sources, on
    /// a new current thread, with a squash record holding the exact prompt, the model, the
    /// provider, the custom instructions, token usage and duration. An append made while the
    /// model was working does not fail it: the squash is re-applied on the newer thread as
    /// long as every source is still there (otherwise a conflict, and nothing changes).
    pub async fn apply_ai_squash(
        &self,
        result: &SquashResult,
    ) -> Result<OperationOutcome, ServiceError> {
        // The service recomputes on the newer thread without counting it when the first
        // attempt already sees it; count it here, so callers can tell the user.
        let before = self.store().current_thread(result.conversation_id).await?;
        let moved_on = (before.thread.id, before.thread.revision) != result.computed_on;
        let mut outcome = self
            .apply_squash(
                result.conversation_id,
                SquashApplication {
                    messages: result.sources.clone(),
                    content: vec![ContentItem::text_for(Role::User, result.text.clone())],
                    role: Role::User,
                    // The sources already hold every partner; a new one (a tool result that arrived
                    // for a selected call during the model call) is not in the answer: a conflict.
                    policy: PartnerPolicy::Refuse,
                    performed_by_agent: true,
                    prompt: Some(result.prompt.full_text()),
                    model: Some(result.model.clone()),
                    provider: Some(result.provider.as_str().to_owned()),
                    custom_instructions: result.custom_instructions.clone(),
                    usage: Some(result.usage),
                    duration_ms: Some(result.duration_ms()),
                    computed_on: Some(result.computed_on),
                },
            )
            .await?;
        if moved_on {
            outcome.reapplied = outcome.reapplied.max(1);
        }
        Ok(outcome)
    }

    /// Squashes `messages` with `model` and applies the result (see [`SquashEngine`]), with the
    /// default options.
    pub async fn squash_messages_with_ai(
        &self,
        model: Arc<dyn ChatModel>,
        conversation: ConversationId,
        messages: &[MessageId],
        custom_instructions: Option<&str>,
    ) -> Result<AiSquash, SquashError> {
        SquashEngine::new(self.clone(), model)
            .squash_and_apply(conversation, messages, custom_instructions)
            .await
    }

    /// Re-runs a recorded AI squash with `model` (see [`SquashEngine::rerun`]).
    pub async fn rerun_ai_squash(
        &self,
        model: Arc<dyn ChatModel>,
        operation: SquashOperationId,
    ) -> Result<AiSquash, SquashError> {
        SquashEngine::new(self.clone(), model)
            .rerun(operation)
            .await
    }
}

/// The prompt for a provider's models: the spec's prompt for large hosted models; the notes
/// prompt for the small embedded ones, which copy or echo the others' blocks and markup
/// (measured: see the README's local model table).
pub fn prompt_style_for(provider: ProviderKind) -> PromptStyle {
    match provider {
        ProviderKind::Local => PromptStyle::Notes,
        ProviderKind::Anthropic
        | ProviderKind::OpenAi
        | ProviderKind::ClaudeCli
        | ProviderKind::Fake => PromptStyle::Spec,
    }
}

/// A provider name as stored in a record (`claude_cli`) or typed (`claude-cli`).
pub(crate) fn parse_provider_kind(name: &str) -> Option<ProviderKind> {
    ProviderKind::parse(&name.trim().to_ascii_lowercase().replace('-', "_"))
}

/// The prompt a record holds ([`SquashPrompt::full_text`]), split back into its messages.
pub fn prompt_from_record(text: &str) -> SquashPrompt {
    const SYSTEM: &str = "[system]\n";
    const USER: &str = "\n\n[user]\n";
    if let Some(rest) = text.strip_prefix(SYSTEM) {
        if let Some((system, user)) = rest.split_once(USER) {
            return SquashPrompt {
                system: Some(system.to_owned()),
                user: user.to_owned(),
                style: PromptStyle::Compact,
            };
        }
    }
    SquashPrompt {
        system: None,
        user: text.to_owned(),
        style: PromptStyle::Spec,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(window: u32) -> ModelInfo {
        ModelInfo {
            provider: ProviderKind::Fake,
            model: "m".into(),
            context_window_tokens: window,
        }
    }

    #[test]
    fn context_window_resolution() {
        let opts = SquashOptions::default();
        // Known model: the table's window, capped by the provider's.
        assert_eq!(opts.context_window_for("gpt-4o", &info(1_000_000)), 128_000);
        assert_eq!(opts.context_window_for("gpt-4o", &info(8_192)), 8_192);
        // Unknown model: the configured default, else the provider's figure.
        assert_eq!(opts.context_window_for("mystery", &info(5_000)), 5_000);
        let with_default = SquashOptions {
            default_context_window: Some(32_000),
            ..SquashOptions::default()
        };
        assert_eq!(
            with_default.context_window_for("mystery", &info(5_000)),
            32_000
        );
        let forced = SquashOptions {
            context_window: Some(1_000),
            ..SquashOptions::default()
        };
        assert_eq!(forced.context_window_for("claude-x", &info(200_000)), 1_000);
    }

    #[test]
    fn window_values_parse() {
        assert_eq!(parse_window(" 32_768 "), Some(32_768));
        assert_eq!(parse_window("128,000"), Some(128_000));
        assert_eq!(parse_window("0"), None);
        assert_eq!(parse_window("lots"), None);
    }

    #[test]
    fn recorded_prompts_split_back() {
        let spec = SquashPrompt {
            system: None,
            user: "<task>x</task>".into(),
            style: PromptStyle::Spec,
        };
        assert_eq!(prompt_from_record(&spec.full_text()), spec);
        let compact = SquashPrompt {
            system: Some("You compress.".into()),
            user: "Message 1 (user):\n```\n[user]\n```".into(),
            style: PromptStyle::Compact,
        };
        assert_eq!(prompt_from_record(&compact.full_text()), compact);
    }

    #[test]
    fn provider_names_parse_both_spellings() {
        assert_eq!(
            parse_provider_kind("claude-cli"),
            Some(ProviderKind::ClaudeCli)
        );
        assert_eq!(
            parse_provider_kind("claude_cli"),
            Some(ProviderKind::ClaudeCli)
        );
        assert_eq!(parse_provider_kind("OpenAI"), Some(ProviderKind::OpenAi));
        assert_eq!(parse_provider_kind("nope"), None);
    }

    #[test]
    fn every_error_has_a_code() {
        let errors = [
            SquashError::Service(ServiceError::Invalid("x".into())),
            SquashError::Model(LlmError::Cancelled),
            SquashError::TooLarge(TooLarge {
                estimated: 10,
                available: 5,
                window: 9,
            }),
            SquashError::Output(OutputProblem::Empty),
            SquashError::NotAiSquash(SquashOperationId::new()),
            SquashError::SourcesGone {
                operation: SquashOperationId::new(),
                missing: vec![MessageId::new()],
            },
        ];
        for e in &errors {
            assert!(!e.code().is_empty());
            assert!(!e.to_string().is_empty());
        }
        assert!(errors[3].is_retryable());
        assert!(!errors[2].is_retryable());
    }
}
