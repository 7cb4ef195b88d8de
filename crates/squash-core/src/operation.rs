//! The provenance record of a squash or an edit.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::ids::{ConversationId, MessageId, SquashOperationId, ThreadId};
use crate::prompt::{PromptStyle, SquashStyle};

/// Tokens as the provider counted them. Where a provider did not count, the record holds no
/// usage at all (`Option<TokenUsage>`): unknown, never zero. No `Default` for that reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenUsage {
    pub input_tokens: u64,
    pub output_tokens: u64,
}

/// Immutable record of how a message came to be. A manual squash or an edit has
/// `performed_by_agent = false` and no prompt; an AI squash stores the exact prompt and model.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SquashOperation {
    pub id: SquashOperationId,
    pub conversation_id: ConversationId,
    /// In conversation (thread) order.
    pub source_message_ids: Vec<MessageId>,
    pub result_message_id: MessageId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    pub performed_by_agent: bool,
    /// Who asked for it (a user name or token label), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub performed_by: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom_instructions: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    /// The thread the operation was applied to and the thread it produced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_thread_id: Option<ThreadId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_thread_id: Option<ThreadId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<TokenUsage>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    /// The style of a squash made by the engine (prose, structured, extract).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub style: Option<SquashStyle>,
    /// The prompt the engine sent first, so a re-run sends the same kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_style: Option<PromptStyle>,
    pub created_at: DateTime<Utc>,
}

impl SquashOperation {
    /// One source is an edit; two or more a squash.
    pub fn is_edit(&self) -> bool {
        self.source_message_ids.len() == 1
    }
}
