use thiserror::Error;

/// Why a Gromozeka database (or one conversation of it) could not be read.
#[derive(Debug, Error)]
pub enum DatabaseError {
    #[error("{0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("no \"{0}\" table")]
    MissingTable(&'static str),
    /// Other SQLite files have tables of these names too (ours does): the columns tell.
    #[error("no \"{0}\" column: not a Gromozeka schema")]
    NotGromozeka(&'static str),
}
