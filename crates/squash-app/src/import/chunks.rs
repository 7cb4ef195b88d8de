//! A conversation whose messages are made from its source as it is stored: read in chunks of
//! bounded size, or whole when it is small enough to wait in a [`Group`](super::group::Group).

use std::sync::Arc;

use squash_formats::claude_code::DeferredMessages;
use squash_store::{MessageChunks, PreparedChunk, StoreError};

use crate::error::ServiceError;

/// Messages per chunk of a streamed import at most; its bytes of source are the store's
/// (`ConversationStore::import_chunk_bytes`): together what bounds memory.
pub(super) const CHUNK_MESSAGES: usize = 1_000;

/// The messages `deferred` makes from the source, read now, in one chunk with their rows made
/// (what a store's writer would otherwise make while every other write waits). For a small
/// conversation, on a thread where blocking is allowed.
pub(super) fn made_whole(deferred: &DeferredMessages) -> Result<PreparedChunk, StoreError> {
    let mut messages = Vec::with_capacity(deferred.len());
    for chunk in deferred.chunks(usize::MAX, u64::MAX) {
        messages.extend(chunk.map_err(StoreError::source_failed)?);
    }
    PreparedChunk::of(messages)
}

/// The messages of a conversation that come besides its batch's own: those `deferred` makes
/// from the source, read and made now ([`made_whole`]), or none.
pub(super) async fn whole(
    deferred: Option<&Arc<DeferredMessages>>,
) -> Result<MessageChunks, ServiceError> {
    let Some(deferred) = deferred.cloned() else {
        return Ok(MessageChunks::none());
    };
    let made = tokio::task::spawn_blocking(move || made_whole(&deferred))
        .await
        .map_err(|e| StoreError::Backend(format!("reading the source: {e}")))?;
    Ok(MessageChunks::ready(made?))
}
