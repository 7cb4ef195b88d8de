//! SQL rows as the queries return them, and their conversion to domain types. Keys never leave
//! this module's callers; ids come back already joined in.

use chrono::{DateTime, Utc};
use sqlx::postgres::types::Oid;
use sqlx::postgres::{PgArgumentBuffer, PgHasArrayType, PgTypeInfo};
use sqlx::Postgres;
use squash_core::{
    ContentItem, Conversation, Instruction, Message, Project, Role, SquashOperation, Thread,
    ThreadOrigin,
};
use uuid::Uuid;

use crate::new_row::NewRow;
use crate::provenance::KindColumns;
pub(super) use crate::provenance::{to_i64, to_u64};
use crate::{StoreError, ThreadSnapshot};

#[derive(sqlx::FromRow)]
pub(super) struct ProjectRow {
    pub id: Uuid,
    pub path: String,
    pub created_at: DateTime<Utc>,
}

impl TryFrom<ProjectRow> for Project {
    type Error = StoreError;

    fn try_from(row: ProjectRow) -> Result<Self, StoreError> {
        Ok(Project {
            id: row.id.into(),
            path: row.path,
            created_at: row.created_at,
        })
    }
}

#[derive(sqlx::FromRow)]
pub(super) struct ConversationRow {
    pub id: Uuid,
    pub project_id: Uuid,
    pub display_name: String,
    pub current_thread_id: Option<Uuid>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl TryFrom<ConversationRow> for Conversation {
    type Error = StoreError;

    fn try_from(row: ConversationRow) -> Result<Self, StoreError> {
        let current = row.current_thread_id.ok_or_else(|| {
            StoreError::Corrupt(format!("conversation {} has no current thread", row.id))
        })?;
        Ok(Conversation {
            id: row.id.into(),
            project_id: row.project_id.into(),
            display_name: row.display_name,
            current_thread_id: current.into(),
            created_at: row.created_at,
            updated_at: row.updated_at,
        })
    }
}

#[derive(sqlx::FromRow)]
pub(super) struct ThreadRow {
    pub id: Uuid,
    pub conversation_id: Uuid,
    pub original_thread_id: Option<Uuid>,
    pub origin: String,
    pub revision: i64,
    pub message_count: i64,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl TryFrom<ThreadRow> for Thread {
    type Error = StoreError;

    fn try_from(row: ThreadRow) -> Result<Self, StoreError> {
        let origin: ThreadOrigin = parse_json("thread origin", row.id, &row.origin)?;
        Ok(Thread {
            id: row.id.into(),
            conversation_id: row.conversation_id.into(),
            original_thread_id: row.original_thread_id.map(Into::into),
            origin,
            revision: to_u64("thread revision", row.revision)?,
            message_count: to_u64("thread message count", row.message_count)?,
            created_at: row.created_at,
            updated_at: row.updated_at,
        })
    }
}

/// A thread row with its links, read in one statement so that the two agree.
#[derive(sqlx::FromRow)]
pub(super) struct SnapshotRow {
    #[sqlx(flatten)]
    pub thread: ThreadRow,
    pub links: Vec<Uuid>,
}

impl TryFrom<SnapshotRow> for ThreadSnapshot {
    type Error = StoreError;

    fn try_from(row: SnapshotRow) -> Result<Self, StoreError> {
        let links = row.links.into_iter().map(Into::into).collect();
        Ok(ThreadSnapshot {
            thread: row.thread.try_into()?,
            links,
        })
    }
}

#[derive(sqlx::FromRow)]
pub(super) struct MessageRow {
    pub id: Uuid,
    pub conversation_id: Uuid,
    pub squash_operation_id: Option<Uuid>,
    pub reply_to: Option<Uuid>,
    pub role: String,
    pub content: String,
    pub instructions: Option<String>,
    pub metadata: Option<String>,
    pub created_at: DateTime<Utc>,
}

impl TryFrom<MessageRow> for Message {
    type Error = StoreError;

    fn try_from(row: MessageRow) -> Result<Self, StoreError> {
        let role = Role::parse(&row.role).ok_or_else(|| {
            StoreError::Corrupt(format!(
                "message {} has unknown role {:?}",
                row.id, row.role
            ))
        })?;
        let content: Vec<ContentItem> = parse_json("message content", row.id, &row.content)?;
        let instructions: Vec<Instruction> = match &row.instructions {
            Some(text) => parse_json("message instructions", row.id, text)?,
            None => Vec::new(),
        };
        let metadata = match &row.metadata {
            Some(text) => Some(parse_json("message metadata", row.id, text)?),
            None => None,
        };
        Ok(Message {
            id: row.id.into(),
            conversation_id: row.conversation_id.into(),
            squash_operation_id: row.squash_operation_id.map(Into::into),
            reply_to: row.reply_to.map(Into::into),
            role,
            content,
            instructions,
            metadata,
            created_at: row.created_at,
        })
    }
}

/// The columns a message insert binds, serialized once so that append and commit agree.
pub(super) struct NewMessageRow {
    pub id: Uuid,
    pub squash_operation_id: Option<Uuid>,
    pub reply_to: Option<Uuid>,
    pub role: &'static str,
    pub content: String,
    pub instructions: Option<String>,
    pub metadata: Option<String>,
    pub created_at: DateTime<Utc>,
    pub tool_ids: Vec<String>,
    pub tool_is_result: Vec<bool>,
    pub tokens: i64,
    pub search_text: String,
    /// `search_text`'s terms as a binary `tsvector` (`crate::search::tsvector_binary`).
    pub search_terms: TsVector,
}

impl NewMessageRow {
    pub fn of(message: &Message) -> Result<Self, StoreError> {
        Ok(NewMessageRow::with(message, NewRow::of(message)?))
    }

    /// The row of `message` whose computed columns are made already.
    pub fn with(message: &Message, row: NewRow) -> Self {
        let refs = message.tool_refs();
        let tool_is_result = std::iter::repeat_n(false, refs.calls.len())
            .chain(std::iter::repeat_n(true, refs.results.len()))
            .collect();
        let tool_ids = refs.calls.into_iter().chain(refs.results).collect();
        NewMessageRow {
            id: *message.id.as_uuid(),
            squash_operation_id: message.squash_operation_id.map(|id| *id.as_uuid()),
            reply_to: message.reply_to.map(|id| *id.as_uuid()),
            role: message.role.as_str(),
            content: row.content,
            instructions: row.instructions,
            metadata: row.metadata,
            created_at: message.created_at,
            tool_ids,
            tool_is_result,
            tokens: row.tokens,
            search_terms: TsVector(crate::search::tsvector_binary(&row.terms)),
            search_text: row.search_text,
        }
    }
}

#[derive(sqlx::FromRow)]
pub(super) struct OperationRow {
    pub id: Uuid,
    pub conversation_id: Uuid,
    pub source_message_ids: Vec<Uuid>,
    pub result_message_id: Uuid,
    pub performed_by: Option<String>,
    pub base_thread_id: Option<Uuid>,
    pub result_thread_id: Option<Uuid>,
    pub created_at: DateTime<Utc>,
    pub recall_ref: Option<i64>,
    #[sqlx(flatten)]
    pub kind: KindColumns,
}

impl TryFrom<OperationRow> for SquashOperation {
    type Error = StoreError;

    fn try_from(row: OperationRow) -> Result<Self, StoreError> {
        Ok(SquashOperation {
            id: row.id.into(),
            conversation_id: row.conversation_id.into(),
            source_message_ids: row.source_message_ids.into_iter().map(Into::into).collect(),
            result_message_id: row.result_message_id.into(),
            kind: row.kind.into_kind()?,
            performed_by: row.performed_by,
            base_thread_id: row.base_thread_id.map(Into::into),
            result_thread_id: row.result_thread_id.map(Into::into),
            recall_ref: crate::provenance::recall_ref(row.recall_ref)?,
            created_at: row.created_at,
        })
    }
}

pub(super) fn to_json<T: serde::Serialize + ?Sized>(value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|e| StoreError::Invalid(format!("cannot serialize: {e}")))
}

fn parse_json<T: serde::de::DeserializeOwned>(
    what: &str,
    id: Uuid,
    text: &str,
) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt(format!("{what} of {id}: {e}")))
}

/// A `tsvector` in PostgreSQL's binary form ([`crate::search::tsvector_binary`]), bound as
/// it is: the server reads it without parsing a literal.
#[derive(Debug, Clone)]
pub(super) struct TsVector(pub Vec<u8>);

impl TsVector {
    /// The empty `tsvector`: no lexemes.
    pub fn empty() -> TsVector {
        TsVector(0u32.to_be_bytes().to_vec())
    }
}

/// `tsvector`'s type oid, fixed in every PostgreSQL (`pg_type`).
const TSVECTOR_OID: Oid = Oid(3614);
/// `tsvector[]`'s.
const TSVECTOR_ARRAY_OID: Oid = Oid(3643);

impl sqlx::Type<Postgres> for TsVector {
    fn type_info() -> PgTypeInfo {
        PgTypeInfo::with_oid(TSVECTOR_OID)
    }
}

impl PgHasArrayType for TsVector {
    fn array_type_info() -> PgTypeInfo {
        PgTypeInfo::with_oid(TSVECTOR_ARRAY_OID)
    }
}

impl sqlx::Encode<'_, Postgres> for TsVector {
    fn encode_by_ref(
        &self,
        buf: &mut PgArgumentBuffer,
    ) -> Result<sqlx::encode::IsNull, sqlx::error::BoxDynError> {
        buf.extend_from_slice(&self.0);
        Ok(sqlx::encode::IsNull::No)
    }
}
