//! A chat turn: the user's message in, the model's streamed reply stored after it.

use std::time::{Duration, Instant};

use serde::Serialize;
use squash_core::tokens::{check_fits, estimate_tokens, TooLarge, IMAGE_TOKENS, MESSAGE_OVERHEAD};
use squash_core::{ContentItem, ConversationId, Message, Role, ThreadId, TokenUsage};
use squash_llm::{
    chat_messages_from_domain, CancellationToken, ChatMessage, ChatModel, ChatPart, ChatRequest,
    LlmError, ProviderKind, StopReason,
};
use squash_store::StoreError;
use thiserror::Error;

use crate::conversations::ConversationService;
use crate::error::{AppError, ErrorCode, ServiceError};
use crate::remedy::Remedy;
use crate::squash::{SquashOptions, SQUASH_MAX_OUTPUT_TOKENS};

/// How a chat turn asks the model.
#[derive(Clone, Debug, PartialEq)]
pub struct ChatOptions {
    /// A system prompt for the model.
    pub system: Option<String>,
    /// `None` leaves the provider's default.
    pub temperature: Option<f32>,
    pub max_output_tokens: u32,
    /// A model id instead of the provider's configured one.
    pub model: Option<String>,
    /// As in [`SquashOptions`]: the window of models the table does not know, and an override.
    pub default_context_window: Option<u32>,
    pub context_window: Option<u32>,
}

impl Default for ChatOptions {
    fn default() -> Self {
        ChatOptions {
            system: None,
            temperature: None,
            max_output_tokens: SQUASH_MAX_OUTPUT_TOKENS,
            model: None,
            default_context_window: None,
            context_window: None,
        }
    }
}

impl ChatOptions {
    /// The context window a chat with `model` has: resolved as a squash's is
    /// ([`SquashOptions::context_window_for`]), for the model id these options ask for.
    pub fn context_window_of(&self, model: &dyn ChatModel) -> u32 {
        let info = model.info();
        let model_id = self.model.clone().unwrap_or_else(|| info.model.clone());
        SquashOptions {
            default_context_window: self.default_context_window,
            context_window: self.context_window,
            ..SquashOptions::default()
        }
        .context_window_for(&model_id, &info)
    }
}

/// A finished chat turn: both stored messages and what the call cost.
/// A stored chat turn; serialized as `squash --json chat` and the API both answer it.
#[derive(Clone, Debug, Serialize)]
pub struct ChatTurn {
    pub conversation_id: ConversationId,
    /// The thread both messages were appended to.
    pub thread_id: ThreadId,
    pub user: Message,
    pub assistant: Message,
    /// The model id the provider reported.
    pub model: String,
    pub provider: ProviderKind,
    /// Tokens as the provider counted them; `None` when it did not say.
    pub usage: Option<TokenUsage>,
    #[serde(rename = "duration_ms", serialize_with = "crate::answers::as_millis")]
    pub duration: Duration,
    pub stop_reason: Option<StopReason>,
}

/// Why a chat turn failed. The user's message is stored once the call was made (it is part of
/// the conversation whatever the model does); the reply only when there is one.
#[derive(Debug, Error)]
pub enum ChatError {
    #[error(transparent)]
    Service(#[from] ServiceError),
    #[error("the model call failed: {0}")]
    Model(#[from] LlmError),
    /// Checked before anything is stored.
    #[error(transparent)]
    TooLarge(#[from] TooLarge),
    #[error("the model returned an empty reply; nothing was stored for it")]
    EmptyReply,
}

crate::error::via_service!(ChatError: StoreError);

impl AppError for ChatError {
    fn code(&self) -> ErrorCode {
        match self {
            ChatError::Service(e) => e.code(),
            ChatError::Model(e) => e.code(),
            ChatError::TooLarge(_) => ErrorCode::InputTooLarge,
            ChatError::EmptyReply => ErrorCode::BadModelOutput,
        }
    }

    fn class(&self) -> Option<&'static str> {
        match self {
            ChatError::Model(e) => AppError::class(e),
            ChatError::EmptyReply => Some("empty"),
            ChatError::Service(_) | ChatError::TooLarge(_) => None,
        }
    }

    fn is_retryable(&self) -> bool {
        match self {
            ChatError::Service(e) => e.is_retryable(),
            ChatError::Model(e) => AppError::is_retryable(e),
            ChatError::TooLarge(_) => false,
            ChatError::EmptyReply => true,
        }
    }

    fn remedies(&self) -> Vec<Remedy> {
        match self {
            ChatError::Service(e) => e.remedies(),
            ChatError::Model(e) => e.remedies(),
            ChatError::TooLarge(_) => vec![Remedy::MakeRoom],
            ChatError::EmptyReply => Vec::new(),
        }
    }
}

impl ConversationService {
    /// One chat turn: appends `text` as a user message to the current thread, sends the
    /// thread (every content type converted for the model's API) to `model`, streams the reply
    /// to `on_delta` and appends it as an assistant message.
    ///
    /// Refuses, before storing anything, a thread that cannot fit the model's context window.
    pub async fn chat_turn(
        &self,
        model: &dyn ChatModel,
        conversation: ConversationId,
        text: &str,
        options: &ChatOptions,
        cancel: &CancellationToken,
        on_delta: &(dyn Fn(&str) + Send + Sync),
    ) -> Result<ChatTurn, ChatError> {
        if text.trim().is_empty() {
            return Err(ServiceError::Invalid("the message is empty".into()).into());
        }
        let info = model.info();
        let window = options.context_window_of(model);

        let user = Message::text(conversation, Role::User, text).map_err(ServiceError::from)?;
        let mut thread = self.current_thread(conversation).await?.messages;
        thread.push(user.clone());
        check_fits(
            estimate_request(
                options.system.as_deref(),
                &chat_messages_from_domain(&thread),
            ),
            u64::from(options.max_output_tokens),
            window,
        )?;

        let appended = self.append_message(&user).await?;
        // Read again: whatever was appended meanwhile is part of the conversation now.
        let messages = self.store().thread_messages(appended.thread_id).await?;
        let request = ChatRequest {
            system: options.system.clone(),
            messages: chat_messages_from_domain(&messages),
            temperature: options.temperature,
            max_output_tokens: options.max_output_tokens,
            model: options.model.clone(),
        };
        let started = Instant::now();
        let response = model.stream(&request, cancel, on_delta).await?;
        let duration = started.elapsed();
        if response.text.trim().is_empty() {
            return Err(ChatError::EmptyReply);
        }
        let mut assistant = Message::new(
            conversation,
            Role::Assistant,
            vec![ContentItem::text_for(Role::Assistant, response.text)],
        )
        .map_err(ServiceError::from)?;
        assistant.reply_to = Some(user.id);
        let stored = self.append_message(&assistant).await?;
        Ok(ChatTurn {
            conversation_id: conversation,
            thread_id: stored.thread_id,
            user,
            assistant,
            model: response.model,
            provider: info.provider,
            usage: response.usage,
            duration,
            stop_reason: response.stop_reason,
        })
    }
}

/// Estimated tokens of a request's system prompt and turns.
fn estimate_request(system: Option<&str>, turns: &[ChatMessage]) -> u64 {
    let parts: u64 = turns
        .iter()
        .flat_map(|t| &t.content)
        .map(|part| match part {
            ChatPart::Text(text) => estimate_tokens(text),
            ChatPart::Thinking { thinking, .. } => estimate_tokens(thinking),
            ChatPart::ToolUse { name, input, .. } => {
                estimate_tokens(name) + estimate_tokens(&input.to_string())
            }
            ChatPart::ToolResult { content, .. } => estimate_tokens(content),
            ChatPart::Image(_) => IMAGE_TOKENS,
        })
        .sum();
    system.map_or(0, estimate_tokens) + parts + MESSAGE_OVERHEAD * turns.len() as u64
}
