//! Reading a file for an import: its format told or detected, read off the async runtime,
//! refused where an import refuses it; nothing is stored.

use std::path::PathBuf;
use std::sync::Arc;

use chrono::Utc;
use squash_formats::{detect, read};

use super::file_read::{FileRead, SourceRead};
use super::options::{ImportOptions, ImportProgress};
use super::refuse::{check_asked, empty_file, file_format, metadata_only, refuse_unread};
use super::ImportError;

/// Reads and parses the file at `path` (named `name`) as `options` ask, refusing what an
/// import refuses; nothing is stored.
pub(super) async fn read_source(
    path: PathBuf,
    name: String,
    options: &ImportOptions,
    progress: Arc<dyn ImportProgress>,
) -> Result<SourceRead, ImportError> {
    let io = |error| ImportError::Io {
        path: name.clone(),
        error,
    };
    let bytes = std::fs::metadata(&path).map_err(io)?.len();
    progress.file_started(&name, bytes);
    let asked = options.format.source();
    let detected = || detect::inspect_path(&path).map_err(io);
    let Some(format) = file_format(&name, asked, detected)? else {
        return Ok(SourceRead::Nothing(empty_file(&name, bytes)));
    };
    let owned = path.clone();
    let source_name = name.clone();
    let reporter = progress.clone();
    let parsed = parse_off_runtime(&name, move || {
        let mut advanced = |bytes| reporter.advanced(bytes);
        read::read_file_streaming(&owned, &source_name, format, Utc::now(), &mut advanced)
    })
    .await?;
    let parsed = match asked {
        Some(expected) => check_asked(&name, expected, parsed, detected)?,
        None => parsed?,
    };
    let Some(parsed) = refuse_unread(&name, format, parsed)? else {
        return Ok(SourceRead::Nothing(metadata_only(&name, format, bytes)));
    };
    Ok(SourceRead::Parsed(FileRead::new(format, bytes, parsed)))
}

/// Runs a reader on a blocking thread: reading is file IO and parsing.
pub(super) async fn parse_off_runtime<T: Send + 'static>(
    name: &str,
    read: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ImportError> {
    tokio::task::spawn_blocking(read)
        .await
        .map_err(|e| ImportError::invalid(name, format!("the parser stopped: {e}")))
}
