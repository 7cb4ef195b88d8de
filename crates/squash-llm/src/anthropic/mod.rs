//! The Anthropic Messages API (`POST {base}/v1/messages`): its settings (`settings.rs`), its
//! wire format (`wire.rs`, private) and the API the shared HTTP call speaks (`api.rs`).

mod api;
mod settings;
mod wire;

pub use settings::{AnthropicConfig, ANTHROPIC_DEFAULT_BASE_URL, ANTHROPIC_DEFAULT_MODEL};

/// A Claude model behind the Anthropic Messages API; made with `AnthropicModel::new(config)`.
pub type AnthropicModel = crate::http::chat::HttpModel<api::Messages>;
