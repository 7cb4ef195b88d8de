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
//! Each provider module owns its knowledge: `settings.rs` declares what it reads (environment
//! variables, secrets, defaults, the configuration file's values) and implements
//! [`ProviderSettings`]; [`auto`] chooses a provider when none is named; [`providers`] goes
//! from a [`ProviderKind`] to a provider's settings, prompt needs and model; [`verify`] is
//! `doctor`'s check. The HTTP providers share one request/retry/stream call (`http/chat.rs`)
//! and keep only their wire format.
//!
//! Every failure is an [`LlmError`] with a stable [`LlmError::class`], a retry verdict and a
//! hint for the user. The HTTP providers retry rate limits, server errors and dropped
//! connections under a [`RetryPolicy`], and every call honours a `CancellationToken`.

mod anthropic;
pub mod auto;
mod claude_cli;
mod context_window;
mod convert;
pub mod env;
mod error;
#[cfg(feature = "test-support")]
mod fake;
mod guard;
mod http;
mod local;
mod model;
pub mod models;
mod openai;
pub mod providers;
pub mod settings;
mod transcript;
mod verify;

pub use anthropic::{
    AnthropicConfig, AnthropicModel, ANTHROPIC_DEFAULT_BASE_URL, ANTHROPIC_DEFAULT_MODEL,
};
pub use auto::{choose, ProviderChoice, Reason};
pub use claude_cli::{find_on_path, ClaudeCliConfig, ClaudeCliModel, CLAUDE_CLI_DEFAULT_MODEL};
pub use context_window::context_window_for;
pub use convert::chat_messages_from_domain;
pub use error::LlmError;
#[cfg(feature = "test-support")]
pub use fake::{FakeModel, FakeReply};
pub use http::client::DEFAULT_TIMEOUT;
pub use http::retry::RetryPolicy;
pub use local::{
    LocalConfig, LocalSampling, LocalSettings, LOCAL_DEFAULT_CONTEXT_TOKENS,
    LOCAL_DEFAULT_TEMPERATURE,
};
#[cfg(feature = "local")]
pub use local::{LocalModel, LocalStats};
pub use model::{
    ChatCall, ChatImage, ChatMessage, ChatModel, ChatPart, ChatRequest, ChatResponse, ChatRole,
    ModelInfo, OnDelta, StopReason, Usage,
};
pub use openai::{
    list_models, LocalServer, OpenAiConfig, OpenAiModel, TokenLimitField, LOCAL_SERVERS,
    LOCAL_SERVERS_ENV, OPENAI_DEFAULT_BASE_URL, OPENAI_DEFAULT_MODEL,
};
pub use providers::{build, prompt_needs, settings_report, ModelSpec};
pub use settings::{
    ConfiguredBy, EnvVar, FileSettings, PromptNeeds, ProviderSettings, Setting, SettingsReport,
    SetupError,
};
pub use squash_core::{ProviderKind, UnknownProvider};
pub use tokio_util::sync::CancellationToken;
pub use verify::{verify, Reachable, VERIFY_TIMEOUT};
