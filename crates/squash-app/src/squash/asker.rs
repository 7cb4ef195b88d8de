//! Sending squash prompts to the model: sizes checked first, answers streamed for progress,
//! usage and time added up over every call of one squash.

use std::sync::Arc;
use std::time::{Duration, Instant};

use squash_core::prompt::{PromptStyle, SquashPrompt};
use squash_core::tokens::check_fits;
use squash_core::TokenUsage;
use squash_llm::{
    CancellationToken, ChatMessage, ChatModel, ChatRequest, ChatResponse, StopReason,
};

use super::options::{SquashOptions, BRIEF_MAX_OUTPUT_TOKENS};
use super::SquashError;

/// A callback that receives the answer's text as it streams in.
pub type Progress = Arc<dyn Fn(&str) + Send + Sync>;

/// What a squash is doing, for progress displays: a large selection goes in parts, a faulty
/// answer gets a repair request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "stage", rename_all = "snake_case")]
pub enum SquashStage {
    /// Squashing part `index` (1-based) of `of`.
    Part { index: usize, of: usize },
    /// Squashing the parts' results into one.
    Combining,
    /// Asking the model to correct its answer.
    Repairing,
    /// The answers were unusable; the extractive squash stands in.
    FallingBack,
}

/// A callback told about each stage.
pub type StageListener = Arc<dyn Fn(SquashStage) + Send + Sync>;

/// One model, and the running totals of a squash's calls.
pub(super) struct Asker<'a> {
    pub model: &'a dyn ChatModel,
    pub options: &'a SquashOptions,
    pub model_id: Option<String>,
    pub cancel: &'a CancellationToken,
    pub progress: Option<&'a Progress>,
    pub stages: Option<&'a StageListener>,
    /// Summed over the calls; `None` once one call's count is unknown.
    pub usage: Option<TokenUsage>,
    pub duration: Duration,
    pub model_reported: Option<String>,
    pub stop_reason: Option<StopReason>,
}

impl Asker<'_> {
    /// The context window prompts are checked against.
    pub fn context_window(&self) -> u32 {
        let info = self.model.info();
        let id = self.model_id.clone().unwrap_or_else(|| info.model.clone());
        self.options.context_window_for(&id, &info)
    }

    /// Output tokens a prompt of `style` may ask for.
    pub fn max_output(&self, style: PromptStyle) -> u32 {
        match style {
            PromptStyle::Brief => self.options.max_output_tokens.min(BRIEF_MAX_OUTPUT_TOKENS),
            _ => self.options.max_output_tokens,
        }
    }

    /// Whether `prompt` leaves room for its answer in the context window.
    pub fn fits(&self, prompt: &SquashPrompt) -> bool {
        self.check(prompt).is_ok()
    }

    pub fn check(&self, prompt: &SquashPrompt) -> Result<(), SquashError> {
        check_fits(
            prompt.estimated_tokens(),
            u64::from(self.max_output(prompt.style)),
            self.context_window(),
        )?;
        Ok(())
    }

    pub fn stage(&self, stage: SquashStage) {
        if let Some(listener) = self.stages {
            listener(stage);
        }
    }

    /// Sends `prompt` as one user turn.
    pub async fn ask(&mut self, prompt: &SquashPrompt) -> Result<ChatResponse, SquashError> {
        self.check(prompt)?;
        let turns = vec![ChatMessage::user(prompt.user.clone())];
        self.send(prompt.system.clone(), turns, prompt.style).await
    }

    /// Sends `prompt`, the model's `previous` answer and a follow-up turn.
    pub async fn follow_up(
        &mut self,
        prompt: &SquashPrompt,
        previous: &str,
        follow_up: &str,
    ) -> Result<ChatResponse, SquashError> {
        let turns = vec![
            ChatMessage::user(prompt.user.clone()),
            ChatMessage::assistant(previous.to_owned()),
            ChatMessage::user(follow_up.to_owned()),
        ];
        self.send(prompt.system.clone(), turns, prompt.style).await
    }

    async fn send(
        &mut self,
        system: Option<String>,
        messages: Vec<ChatMessage>,
        style: PromptStyle,
    ) -> Result<ChatResponse, SquashError> {
        let request = ChatRequest {
            system,
            messages,
            temperature: Some(self.options.temperature),
            max_output_tokens: self.max_output(style),
            model: self.model_id.clone(),
        };
        let noop = |_: &str| {};
        let on_delta: &(dyn Fn(&str) + Send + Sync) = match self.progress {
            Some(p) => p.as_ref(),
            None => &noop,
        };
        let started = Instant::now();
        let response = self.model.stream(&request, self.cancel, on_delta).await?;
        self.duration += started.elapsed();
        self.usage = match (self.usage, response.usage) {
            (Some(total), Some(call)) => Some(TokenUsage {
                input_tokens: total.input_tokens + call.input_tokens,
                output_tokens: total.output_tokens + call.output_tokens,
            }),
            _ => None,
        };
        self.model_reported = Some(response.model.clone());
        self.stop_reason.clone_from(&response.stop_reason);
        Ok(response)
    }
}
