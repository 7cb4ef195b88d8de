use thiserror::Error;

use crate::gromozeka::DatabaseError;

/// Why a source could not be read at all. (What a reader merely skips — a bad line, a row it
/// cannot use — is reported in [`Parsed`](crate::Parsed), not here.)
#[derive(Debug, Error)]
pub enum FormatError {
    #[error("cannot read {path}: {error}")]
    Io { path: String, error: std::io::Error },
    #[error("{source_name}: {reason}")]
    Invalid { source_name: String, reason: String },
    /// A streamed import read a line again and found other bytes than the first time.
    #[error(
        "{source_name}: the file changed while it was imported (line {line} is not what it was)"
    )]
    Changed { source_name: String, line: usize },
    #[error("{source_name}: not a readable Gromozeka database: {error}")]
    Database {
        source_name: String,
        error: DatabaseError,
    },
}

impl FormatError {
    pub(crate) fn invalid(source_name: &str, reason: impl std::fmt::Display) -> FormatError {
        FormatError::Invalid {
            source_name: source_name.to_owned(),
            reason: reason.to_string(),
        }
    }
}
