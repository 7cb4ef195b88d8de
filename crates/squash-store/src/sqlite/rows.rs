//! Private row types and their conversion to domain types.

use chrono::{DateTime, Utc};
use rusqlite::Row;
use squash_core::{Conversation, Message, Project, Role, SquashOperation, Thread, ThreadOrigin};
use uuid::Uuid;

use super::packed::unpack;
use crate::error::StoreError;
use crate::provenance::{recall_ref, KindColumns};
use crate::tokens::sum_to_u64;
use crate::types::ConversationSummary;

pub fn micros(t: DateTime<Utc>) -> i64 {
    t.timestamp_micros()
}

pub fn time(us: i64) -> Result<DateTime<Utc>, StoreError> {
    DateTime::from_timestamp_micros(us)
        .ok_or_else(|| StoreError::Corrupt(format!("timestamp out of range: {us}")))
}

pub fn uuid(bytes: &[u8]) -> Result<Uuid, StoreError> {
    Uuid::from_slice(bytes).map_err(|e| StoreError::Corrupt(format!("bad id: {e}")))
}

pub fn opt_uuid(bytes: Option<Vec<u8>>) -> Result<Option<Uuid>, StoreError> {
    bytes.map(|b| uuid(&b)).transpose()
}

pub fn col<T: rusqlite::types::FromSql>(row: &Row<'_>, i: usize) -> Result<T, StoreError> {
    row.get(i).map_err(super::conn::map_err)
}

pub const PROJECT_COLUMNS: &str = "id, path, created_at";

pub fn project(row: &Row<'_>) -> Result<Project, StoreError> {
    Ok(Project {
        id: uuid(&col::<Vec<u8>>(row, 0)?)?.into(),
        path: col(row, 1)?,
        created_at: time(col(row, 2)?)?,
    })
}

pub const CONVERSATION_COLUMNS: &str =
    "c.id, p.id, c.display_name, t.id, c.created_at, c.updated_at";
pub const CONVERSATION_FROM: &str = "conversations c JOIN projects p ON p.key = c.project_key \
     JOIN threads t ON t.key = c.current_thread_key";

pub fn conversation(row: &Row<'_>) -> Result<Conversation, StoreError> {
    Ok(Conversation {
        id: uuid(&col::<Vec<u8>>(row, 0)?)?.into(),
        project_id: uuid(&col::<Vec<u8>>(row, 1)?)?.into(),
        display_name: col(row, 2)?,
        current_thread_id: uuid(&col::<Vec<u8>>(row, 3)?)?.into(),
        created_at: time(col(row, 4)?)?,
        updated_at: time(col(row, 5)?)?,
    })
}

/// A conversation and the size of its current thread: the columns [`conversation`] reads, then
/// the thread's message count and token sum.
pub fn summary(row: &Row<'_>) -> Result<ConversationSummary, StoreError> {
    Ok(ConversationSummary {
        conversation: conversation(row)?,
        message_count: col::<i64>(row, 6)? as u64,
        tokens: sum_to_u64(col(row, 7)?)?,
    })
}

pub const THREAD_COLUMNS: &str = "t.id, c.id, o.id, t.origin, t.revision, t.message_count, \
     t.created_at, t.updated_at";
pub const THREAD_FROM: &str = "threads t JOIN conversations c ON c.key = t.conversation_key \
     LEFT JOIN threads o ON o.key = t.original_thread_key";

pub fn thread(row: &Row<'_>) -> Result<Thread, StoreError> {
    let origin: String = col(row, 3)?;
    Ok(Thread {
        id: uuid(&col::<Vec<u8>>(row, 0)?)?.into(),
        conversation_id: uuid(&col::<Vec<u8>>(row, 1)?)?.into(),
        original_thread_id: opt_uuid(col(row, 2)?)?.map(Into::into),
        origin: serde_json::from_str::<ThreadOrigin>(&origin)?,
        revision: col::<i64>(row, 4)? as u64,
        message_count: col::<i64>(row, 5)? as u64,
        created_at: time(col(row, 6)?)?,
        updated_at: time(col(row, 7)?)?,
    })
}

pub const MESSAGE_COLUMNS: &str = "m.id, c.id, m.squash_operation_id, m.reply_to, m.role, \
     m.content, m.instructions, m.metadata, m.created_at";
/// How many columns [`MESSAGE_COLUMNS`] names: the index of a column selected after them.
pub const MESSAGE_COLUMN_COUNT: usize = 9;

pub fn message(row: &Row<'_>) -> Result<Message, StoreError> {
    let role: String = col(row, 4)?;
    let content: String = col(row, 5)?;
    let instructions: Option<String> = col(row, 6)?;
    let metadata = unpack(row.get_ref(7).map_err(super::conn::map_err)?, "metadata")?;
    Ok(Message {
        id: uuid(&col::<Vec<u8>>(row, 0)?)?.into(),
        conversation_id: uuid(&col::<Vec<u8>>(row, 1)?)?.into(),
        squash_operation_id: opt_uuid(col(row, 2)?)?.map(Into::into),
        reply_to: opt_uuid(col(row, 3)?)?.map(Into::into),
        role: Role::parse(&role)
            .ok_or_else(|| StoreError::Corrupt(format!("unknown role {role:?}")))?,
        content: serde_json::from_str(&content)?,
        instructions: match instructions {
            Some(s) => serde_json::from_str(&s)?,
            None => Vec::new(),
        },
        metadata: metadata.map(|s| serde_json::from_str(&s)).transpose()?,
        created_at: time(col(row, 8)?)?,
    })
}

pub const OPERATION_COLUMNS: &str = "o.key, o.id, c.id, m.id, o.performed_by, bt.id, rt.id, \
     o.created_at, o.kind, o.prompt, o.model, o.provider, o.custom_instructions, \
     o.input_tokens, o.output_tokens, o.duration_ms, o.style, o.prompt_style, o.recall_ref";
pub const OPERATION_FROM: &str = "squash_operations o \
     JOIN conversations c ON c.key = o.conversation_key \
     JOIN messages m ON m.key = o.result_message_key \
     LEFT JOIN threads bt ON bt.key = o.base_thread_key \
     LEFT JOIN threads rt ON rt.key = o.result_thread_key";

/// An operation without its sources (read separately), and its key to read them by.
pub fn operation(row: &Row<'_>) -> Result<(i64, SquashOperation), StoreError> {
    let kind = KindColumns {
        kind: col(row, 8)?,
        prompt: col(row, 9)?,
        model: col(row, 10)?,
        provider: col(row, 11)?,
        custom_instructions: col(row, 12)?,
        input_tokens: col(row, 13)?,
        output_tokens: col(row, 14)?,
        duration_ms: col(row, 15)?,
        style: col(row, 16)?,
        prompt_style: col(row, 17)?,
    };
    Ok((
        col(row, 0)?,
        SquashOperation {
            id: uuid(&col::<Vec<u8>>(row, 1)?)?.into(),
            conversation_id: uuid(&col::<Vec<u8>>(row, 2)?)?.into(),
            source_message_ids: Vec::new(),
            result_message_id: uuid(&col::<Vec<u8>>(row, 3)?)?.into(),
            kind: kind.into_kind()?,
            performed_by: col(row, 4)?,
            base_thread_id: opt_uuid(col(row, 5)?)?.map(Into::into),
            result_thread_id: opt_uuid(col(row, 6)?)?.map(Into::into),
            recall_ref: recall_ref(col(row, 18)?)?,
            created_at: time(col(row, 7)?)?,
        },
    ))
}
