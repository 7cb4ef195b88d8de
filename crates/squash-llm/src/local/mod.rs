//! The embedded local model: a GGUF file run in-process on the CPU by llama.cpp (through the
//! `llama-cpp-2` bindings, which build the llama.cpp sources they bundle). Its settings
//! (`settings.rs`) exist in every build; the model itself (`model.rs`, `engine.rs`) only with
//! the `local` feature.
//!
//! - The prompt is laid out with the chat template stored in the GGUF and tokenized with the
//!   tokenizer stored there, so any instruction-tuned GGUF works without configuration.
//! - The weights are loaded once per process and shared: `LocalModel::load` keeps a
//!   process-wide cache keyed by the model file's canonical path. Every `LocalModel` over the
//!   same file shares one FIFO queue, so concurrent requests wait their turn instead of
//!   splitting two CPU cores between them (which would make each twice as slow and hold two KV
//!   caches in memory).
//! - Inference runs on a blocking thread; text is streamed back token by token, and
//!   cancellation (or a timeout) stops it between two decode steps.
//! - The context is bounded ([`LocalConfig::context_tokens`]); a prompt that does not fit is a
//!   [`crate::LlmError::ContextTooLong`] that says both sizes.

#[cfg(feature = "local")]
mod engine;
#[cfg(feature = "local")]
mod model;
mod settings;
#[cfg(feature = "local")]
mod utf8;

#[cfg(feature = "local")]
pub use model::{LocalModel, LocalStats};
pub use settings::{
    LocalConfig, LocalSampling, LocalSettings, LOCAL_DEFAULT_CONTEXT_TOKENS,
    LOCAL_DEFAULT_TEMPERATURE,
};
