//! A conversation whose messages are made from its source as it is stored: read in chunks of
//! bounded size, or whole when it is small enough to wait in a [`Group`](super::group::Group).

use std::sync::Arc;

use squash_core::Message;
use squash_formats::claude_code::DeferredMessages;
use squash_store::{ImportBatch, StoreError};

use crate::error::ServiceError;

/// Messages per chunk of a streamed import at most; its bytes of source are the store's
/// (`ConversationStore::import_chunk_bytes`): together what bounds memory.
pub(super) const CHUNK_MESSAGES: usize = 1_000;

/// `batch` with every message in it: those `deferred` makes from the source read now.
pub(super) async fn whole(
    mut batch: ImportBatch,
    deferred: Option<Arc<DeferredMessages>>,
) -> Result<ImportBatch, ServiceError> {
    let Some(deferred) = deferred else {
        return Ok(batch);
    };
    let made = tokio::task::spawn_blocking(move || {
        let mut messages: Vec<Message> = Vec::with_capacity(deferred.len());
        // A small conversation: read in one chunk.
        for chunk in deferred.chunks(usize::MAX, u64::MAX) {
            messages.extend(chunk?);
        }
        Ok::<_, squash_formats::FormatError>(messages)
    })
    .await
    .map_err(|e| ServiceError::Store(StoreError::Backend(format!("reading the source: {e}"))))?;
    let messages = made.map_err(StoreError::source_failed)?;
    batch.messages.extend(messages);
    Ok(batch)
}
