//! OpenAI-compatible Chat Completions (`POST {base}/chat/completions`): OpenAI itself and the
//! local servers that speak its protocol (Ollama, llama.cpp, vLLM, LM Studio). Its settings
//! (`settings.rs`), finding a local server (`server.rs`), its wire format (`wire.rs`, private)
//! and the API the shared HTTP call speaks (`api.rs`).

mod api;
mod server;
mod settings;
mod wire;

pub use server::{find_local_server, list_models, LocalServer};
pub use settings::{
    local_servers, OpenAiConfig, LOCAL_SERVERS, LOCAL_SERVERS_ENV, OPENAI_DEFAULT_BASE_URL,
    OPENAI_DEFAULT_MODEL,
};
pub use wire::TokenLimitField;

/// A model behind an OpenAI-compatible Chat Completions API; made with
/// `OpenAiModel::new(config)`.
pub type OpenAiModel = crate::http::chat::HttpModel<api::Completions>;
