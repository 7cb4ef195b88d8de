//! Which conversations committed writes changed, as a stream any number of readers follow
//! (the web UI's live updates). Ids only: a reader re-reads what it shows.
//!
//! * SQLite: the writes of this process, published by the one write path after its commit.
//! * PostgreSQL: every writer of the database, in any process, through `LISTEN/NOTIFY`
//!   ([`CHANNEL`]); a notification is delivered only if its transaction commits.
//!
//! A reader that falls more than [`CAPACITY`] changes behind gets `Lagged` and should re-read
//! everything it shows.

use squash_core::ConversationId;
use tokio::sync::broadcast;

/// The changed conversations, one id per committed write (or per notification).
pub type Changes = broadcast::Receiver<ConversationId>;

/// How many changes a slow reader may fall behind before it is told it lagged.
pub const CAPACITY: usize = 1024;

/// The PostgreSQL notification channel; the payload is the conversation id. Shared by every
/// schema of a database: readers filter by id, and ids are unique everywhere.
pub const CHANNEL: &str = "squash_changes";

pub(crate) fn sender() -> broadcast::Sender<ConversationId> {
    broadcast::channel(CAPACITY).0
}
