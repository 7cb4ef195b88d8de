//! How to import, and what a long import tells a progress bar.

use super::ImportFormat;

/// How to import.
#[derive(Clone, Debug)]
pub struct ImportOptions {
    pub format: ImportFormat,
    /// The project the conversations go to; default: the one the source names (its working
    /// directory), else `fallback_project`.
    pub project: Option<String>,
    /// The project for sources that name none (e.g. the current directory).
    pub fallback_project: String,
}

impl Default for ImportOptions {
    fn default() -> Self {
        ImportOptions {
            format: ImportFormat::Auto,
            project: None,
            fallback_project: "imported".to_owned(),
        }
    }
}

/// Progress of a long import, for a progress bar. Every method has a no-op default.
pub trait ImportProgress: Send + Sync {
    /// A file is about to be read.
    fn file_started(&self, _path: &str, _bytes: u64) {}
    /// `bytes` more of the current file were read.
    fn advanced(&self, _bytes: u64) {}
    /// The current file is parsed; `conversations` are being stored.
    fn storing(&self, _conversations: usize) {}
    fn file_finished(&self, _path: &str) {}
}

/// Reports nothing.
pub struct NoProgress;

impl ImportProgress for NoProgress {}
