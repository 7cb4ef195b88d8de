//! Token sizes: each message's estimate is stored when the message is (the domain's
//! [`message_tokens`]), so that a thread's size is one `SUM` over its links and a listing of
//! conversations costs no message content.
//!
//! Rows stored before the `tokens` column existed hold NULL until the store opens and fills
//! them (`crate::backfill`).

use squash_core::tokens::{content_tokens, message_tokens};
use squash_core::{ContentItem, Message, Role};

use crate::StoreError;

/// The value of a new message's `tokens` column.
pub(crate) fn stored_tokens(message: &Message) -> i64 {
    // An estimate past i64::MAX would need exabytes of text; saturate rather than fail.
    i64::try_from(message_tokens(message)).unwrap_or(i64::MAX)
}

/// The `tokens` of a stored row from its `role` and `content` columns, for the backfill.
pub(crate) fn row_tokens(key: i64, role: &str, content: &str) -> Result<i64, StoreError> {
    let role = Role::parse(role)
        .ok_or_else(|| StoreError::Corrupt(format!("message {key} has unknown role {role:?}")))?;
    let content: Vec<ContentItem> = serde_json::from_str(content)
        .map_err(|e| StoreError::Corrupt(format!("content of message {key}: {e}")))?;
    Ok(i64::try_from(content_tokens(role, &content)).unwrap_or(i64::MAX))
}

/// A stored sum, which SQL hands back signed.
pub(crate) fn sum_to_u64(sum: i64) -> Result<u64, StoreError> {
    u64::try_from(sum).map_err(|_| StoreError::Corrupt(format!("a token sum is negative: {sum}")))
}

/// A message's estimate as read back with it: the stored value, or the domain's rule when the
/// row predates the column and the backfill has not reached it.
pub(crate) fn read_tokens(stored: Option<i64>, message: &Message) -> Result<u64, StoreError> {
    match stored {
        Some(tokens) => u64::try_from(tokens).map_err(|_| {
            StoreError::Corrupt(format!(
                "message {} has negative tokens {tokens}",
                message.id
            ))
        }),
        None => Ok(message_tokens(message)),
    }
}
