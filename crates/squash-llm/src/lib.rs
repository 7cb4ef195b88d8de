//! Provider-neutral chat models.
//!
//! [`ChatModel`] is the one interface the services use: a request of turns in, one text answer
//! out, optionally streamed. Squash sends no tools and asks for no extended thinking, so the
//! request types carry neither. Each provider keeps its wire format private:
//!
//! - [`AnthropicModel`]: the Anthropic Messages API (`ANTHROPIC_API_KEY`).
//! - [`OpenAiModel`]: OpenAI Chat Completions and the local servers that speak it
//!   (`OPENAI_API_KEY`, `OPENAI_BASE_URL`).
//! - [`ClaudeCliModel`]: the Claude Code CLI in print mode.
//! - `LocalModel` (feature `local`): a GGUF model run in-process by llama.cpp; [`models`]
//!   installs the catalog's models without a model hub.
//! - `FakeModel` (feature `test-support`): scripted answers for tests.
//!
//! Every failure is an [`LlmError`] with a stable [`LlmError::class`], a retry verdict and a
//! hint for the user. The HTTP providers retry rate limits, server errors and dropped
//! connections under a [`RetryPolicy`], and every call honours a `CancellationToken`.

mod anthropic;
mod claude_cli;
mod context_window;
mod convert;
pub mod env;
mod error;
#[cfg(feature = "test-support")]
mod fake;
mod guard;
mod http;
#[cfg(feature = "local")]
mod local;
mod model;
pub mod models;
mod openai;
mod retry;
mod transcript;

pub use anthropic::{
    AnthropicConfig, AnthropicModel, ANTHROPIC_DEFAULT_BASE_URL, ANTHROPIC_DEFAULT_MODEL,
};
pub use claude_cli::{find_on_path, ClaudeCliConfig, ClaudeCliModel, CLAUDE_CLI_DEFAULT_MODEL};
pub use context_window::context_window_for;
pub use convert::chat_messages_from_domain;
pub use error::LlmError;
#[cfg(feature = "test-support")]
pub use fake::{FakeModel, FakeReply};
pub use http::DEFAULT_TIMEOUT;
#[cfg(feature = "local")]
pub use local::{
    LocalConfig, LocalModel, LocalSampling, LocalStats, LOCAL_DEFAULT_CONTEXT_TOKENS,
    LOCAL_DEFAULT_TEMPERATURE,
};
pub use model::{
    ChatImage, ChatMessage, ChatModel, ChatPart, ChatRequest, ChatResponse, ChatRole, ModelInfo,
    StopReason, Usage,
};
pub use openai::{
    list_models, OpenAiConfig, OpenAiModel, TokenLimitField, OPENAI_DEFAULT_BASE_URL,
    OPENAI_DEFAULT_MODEL,
};
pub use retry::RetryPolicy;
pub use squash_core::{ProviderKind, UnknownProvider};
pub use tokio_util::sync::CancellationToken;
