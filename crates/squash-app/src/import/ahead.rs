//! The next file of a directory import, read while the one before it is stored: its first
//! pass, and the messages of its small conversations made with their rows — what would
//! otherwise wait for the store, and leave the other core idle while the store writes.

use std::path::Path;
use std::sync::Arc;

use squash_formats::Parsed;

use super::chunks::made_whole;
use super::file_read::{FileRead, Made, SourceRead};
use super::group::{is_small, source_bytes};
use super::options::{ImportOptions, ImportProgress, NoProgress};
use super::source::read_source;
use super::ImportError;
use crate::conversations::ConversationService;

/// Files up to this size are read ahead of their turn; a larger one's first pass holds more
/// (a 1 GB session's ~120 MB) than should sit beside the store of the file before it.
const READ_AHEAD_BYTES: u64 = 64 << 20;

/// Bytes of source whose messages a file read ahead makes at most: they wait, made (as
/// messages and as rows, about three times their source), until the file before is stored.
const MADE_AHEAD_BYTES: u64 = 2 << 20;

/// The next file of a directory import, being read (and its small conversations made) while
/// the one before it is stored. Its progress is told when its turn comes, so that a progress
/// bar sees one file at a time.
pub(super) struct ReadAhead {
    bytes: u64,
    task: tokio::task::JoinHandle<Result<SourceRead, ImportError>>,
}

impl ReadAhead {
    pub fn start(
        service: &ConversationService,
        path: &Path,
        options: &ImportOptions,
    ) -> Option<ReadAhead> {
        let bytes = std::fs::metadata(path).ok()?.len();
        if bytes > READ_AHEAD_BYTES {
            return None;
        }
        let (service, path, options) = (service.clone(), path.to_path_buf(), options.clone());
        let name = path.display().to_string();
        let task = tokio::spawn(async move {
            let read = read_source(path, name.clone(), &options, Arc::new(NoProgress)).await?;
            Ok(match read {
                SourceRead::Parsed(read) => {
                    SourceRead::Parsed(make_ahead(&service, read, &name).await?)
                }
                nothing => nothing,
            })
        });
        Some(ReadAhead { bytes, task })
    }

    /// The file read, its progress told now that its turn has come (a progress bar sees one
    /// file at a time).
    pub async fn finish(
        self,
        name: &str,
        progress: &dyn ImportProgress,
    ) -> Result<SourceRead, ImportError> {
        progress.file_started(name, self.bytes);
        let read = self
            .task
            .await
            .map_err(|e| ImportError::invalid(name, format!("the reader stopped: {e}")))?;
        progress.advanced(self.bytes);
        read
    }
}

/// `read` with the messages of its small conversations made, those not already imported as
/// they are (whose messages an import would not read again). A conversation whose messages
/// cannot be made here is made at its turn, which reports why.
async fn make_ahead(
    service: &ConversationService,
    mut read: FileRead,
    name: &str,
) -> Result<FileRead, ImportError> {
    let wanted = worth_making(service, &read.parsed).await;
    if !wanted.iter().any(|w| *w) {
        return Ok(read);
    }
    let made = tokio::task::spawn_blocking(move || {
        let made = read
            .parsed
            .conversations
            .iter()
            .zip(wanted)
            .map(|(conv, wanted)| {
                let deferred = conv.deferred.as_ref().filter(|_| wanted)?;
                made_whole(deferred).ok()
            })
            .collect();
        read.made = Made(made);
        read
    })
    .await;
    made.map_err(|e| ImportError::invalid(name, format!("the reader stopped: {e}")))
}

/// Which conversations of `parsed` to make ahead: small ones whose messages are made from the
/// source, not recorded with the same content, within [`MADE_AHEAD_BYTES`] together.
async fn worth_making(service: &ConversationService, parsed: &Parsed) -> Vec<bool> {
    let mut budget = MADE_AHEAD_BYTES;
    let mut wanted = Vec::with_capacity(parsed.conversations.len());
    for conv in &parsed.conversations {
        let Some(deferred) = conv.deferred.as_ref() else {
            wanted.push(false);
            continue;
        };
        let bytes = source_bytes(deferred);
        let small = is_small(conv.messages.len(), Some(deferred)) && bytes <= budget;
        // A record that cannot be read is taken as none: the conversation is made for nothing
        // at worst, and its turn reads the record again and reports what fails.
        let recorded = small
            && service
                .store()
                .import_record(&conv.source_key)
                .await
                .ok()
                .flatten()
                .is_some_and(|r| r.source.content_hash == conv.content_hash);
        let make = small && !recorded;
        if make {
            budget -= bytes;
        }
        wanted.push(make);
    }
    wanted
}
