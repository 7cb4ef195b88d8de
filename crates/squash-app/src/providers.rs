//! Which model to use, the app's side: it loads the configuration file and asks squash-llm to
//! choose a provider ([`squash_llm::auto`]: the provider named, else the file's, else
//! auto-detection) and to make its model. What each provider reads, how it is detected and
//! checked is squash-llm's (`squash-llm/src/<provider>/settings.rs`); `doctor`'s report is
//! [`crate::doctor`].

use std::sync::Arc;

use squash_llm::{build, choose, ChatModel, LlmError, ModelSpec, ProviderKind, SetupError};
use thiserror::Error;

use crate::config::{load_config, ConfigError};
use crate::error::{AppError, ErrorCode};
use crate::remedy::Remedy;

pub use squash_llm::{ProviderChoice, Reason};

/// Why no model could be made.
#[derive(Debug, Error)]
pub enum ProviderError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Setup(#[from] SetupError),
}

impl AppError for ProviderError {
    fn code(&self) -> ErrorCode {
        match self {
            ProviderError::Setup(SetupError::Unselectable(_)) => ErrorCode::InvalidInput,
            ProviderError::Config(_)
            | ProviderError::Setup(
                SetupError::NoLocalSupport
                | SetupError::LocalModel(_)
                | SetupError::Llm {
                    source: LlmError::NotConfigured(_),
                    ..
                },
            ) => ErrorCode::NotConfigured,
            ProviderError::Setup(SetupError::Llm { .. }) => ErrorCode::ModelError,
        }
    }

    fn class(&self) -> Option<&'static str> {
        match self {
            ProviderError::Setup(SetupError::Llm { source, .. }) => Some(source.class()),
            ProviderError::Config(_) | ProviderError::Setup(_) => None,
        }
    }

    fn is_retryable(&self) -> bool {
        match self {
            ProviderError::Setup(SetupError::Llm { source, .. }) => source.is_retryable(),
            ProviderError::Config(_)
            | ProviderError::Setup(
                SetupError::Unselectable(_)
                | SetupError::NoLocalSupport
                | SetupError::LocalModel(_),
            ) => false,
        }
    }

    fn remedies(&self) -> Vec<Remedy> {
        match self {
            ProviderError::Setup(SetupError::Llm { source, .. }) => source.remedies(),
            ProviderError::Config(e) => e.remedies(),
            ProviderError::Setup(
                SetupError::Unselectable(_)
                | SetupError::NoLocalSupport
                | SetupError::LocalModel(_),
            ) => Vec::new(),
        }
    }
}

/// The model to use and why it was chosen: the provider `named` (by the person), else the one
/// [`choose`] detects; `model` instead of the configured model id when given (for `local`: a
/// catalog name or a GGUF path).
pub async fn select_model(
    named: Option<ProviderKind>,
    model: Option<&str>,
) -> Result<(Arc<dyn ChatModel>, ProviderChoice), ProviderError> {
    let file = load_config()?.file_settings();
    let choice = choose(named, &file).await?;
    let built = build(choice.spec(&file, model)).await?;
    Ok((built, choice))
}

/// [`select_model`] without the reason.
pub async fn model_from_env(
    provider: Option<ProviderKind>,
    model: Option<&str>,
) -> Result<Arc<dyn ChatModel>, ProviderError> {
    Ok(select_model(provider, model).await?.0)
}

/// A model of `provider` (as recorded by an earlier squash), configured from the environment
/// and the configuration file.
pub async fn build_model(
    provider: ProviderKind,
    model: Option<&str>,
) -> Result<Arc<dyn ChatModel>, ProviderError> {
    let file = load_config()?.file_settings();
    let spec = ModelSpec {
        model,
        ..ModelSpec::new(provider, &file)
    };
    Ok(build(spec).await?)
}
