//! Conversations imported from parts of another's source (Claude Code's sub-agent runs), found
//! by their source keys: a part's key is its whole's followed by `/`.

use rusqlite::Transaction;
use squash_core::ConversationId;

use super::fetch;
use super::import::{record_at, RECORD_COLUMNS};
use super::rows::{self, col, CONVERSATION_COLUMNS, CONVERSATION_FROM};
use super::tokens::thread_tokens_sum;
use crate::tokens::sum_to_u64;
use crate::types::{ConversationSummary, ImportedPart};
use crate::Result;

pub(super) fn import_parts_of(
    tx: &Transaction<'_>,
    conversation: ConversationId,
) -> Result<Vec<ImportedPart>> {
    // `substr` rather than LIKE: a key may hold `%` or `_`, and SQLite's LIKE ignores case.
    let sql = format!(
        "SELECT {CONVERSATION_COLUMNS}, t.message_count, {}, {RECORD_COLUMNS} \
         FROM {CONVERSATION_FROM} JOIN imports i ON i.conversation_key = c.key \
         JOIN imports w ON substr(i.source_key, 1, length(w.source_key) + 1) = w.source_key || '/' \
         JOIN conversations wc ON wc.key = w.conversation_key \
         WHERE wc.id = ?1 ORDER BY i.key",
        thread_tokens_sum!("t.key"),
    );
    fetch::all(tx, &sql, [conversation.as_bytes()], |row| {
        Ok(ImportedPart {
            summary: ConversationSummary {
                conversation: rows::conversation(row)?,
                message_count: col::<i64>(row, 6)? as u64,
                tokens: sum_to_u64(col(row, 7)?)?,
            },
            record: record_at(row, 8)?,
        })
    })
}
