//! The embedded local model as a provider: which GGUF file, loaded with which settings.

use std::path::PathBuf;
use std::sync::Arc;

use squash_llm::models::{self, ModelError};
use squash_llm::ChatModel;

use crate::config::ModelConfig;
use crate::providers::ProviderError;

/// The GGUF file to run: `model` (a `--model` catalog name or path) if given, else
/// `SQUASH_LOCAL_MODEL`, else `local_model` from the configuration, else the first installed
/// catalog model.
pub fn resolve_path(model: Option<&str>, config: &ModelConfig) -> Result<PathBuf, ModelError> {
    let data_dir = models::default_data_dir().ok_or(ModelError::NoModel)?;
    match model {
        Some(m) => models::resolve_named(&data_dir, m),
        None => models::resolve(&data_dir, config.local_model.as_deref()),
    }
}

#[cfg(feature = "local")]
pub async fn build(
    model: Option<&str>,
    config: &ModelConfig,
) -> Result<Arc<dyn ChatModel>, ProviderError> {
    use squash_llm::{LocalConfig, LocalModel, ProviderKind};

    let path = resolve_path(model, config)?;
    let mut local = LocalConfig::default();
    if let Some(threads) = config.threads.filter(|t| *t > 0) {
        local.threads = threads;
    }
    if let Some(tokens) = config.context_tokens.filter(|t| *t > 0) {
        local.context_tokens = tokens;
    }
    // Loading reads hundreds of megabytes: off the async threads.
    let loaded = tokio::task::spawn_blocking(move || LocalModel::load(&path, local))
        .await
        .map_err(|e| ProviderError::Llm {
            provider: ProviderKind::Local,
            source: squash_llm::LlmError::NotConfigured(format!("loading the model failed: {e}")),
        })?
        .map_err(|source| ProviderError::Llm {
            provider: ProviderKind::Local,
            source,
        })?;
    Ok(loaded)
}

#[cfg(not(feature = "local"))]
pub async fn build(
    _model: Option<&str>,
    _config: &ModelConfig,
) -> Result<Arc<dyn ChatModel>, ProviderError> {
    Err(ProviderError::NoLocalSupport)
}
