//! A message as its row stores it, for readers that send messages on without looking inside
//! them (the HTTP API's pages): the ids, role and time are read, the JSON columns (content,
//! instructions, metadata) are kept as the text stored. Parsing a page of tool output into
//! [`Message`](squash_core::Message)s only to serialize it again was most of what a page
//! request cost (BENCHMARKS.md, "Pages without re-parsing").
//!
//! The columns hold what `serde_json` wrote for the message's own fields (`crate::new_row`),
//! and the domain's types read and write them without loss, so [`StoredMessage`] serializes to
//! the same bytes as the [`Message`](squash_core::Message) it stores; the pages tests compare
//! the two on both backends.

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::value::RawValue;
use squash_core::{ConversationId, MessageId, Role, SquashOperationId};
use uuid::Uuid;

use crate::tokens::row_tokens;
use crate::StoreError;

/// A stored message with its JSON columns unparsed. Serializes as
/// [`Message`](squash_core::Message) does: the same fields, in the same order, left out when
/// the message's would be.
#[derive(Clone, Debug, Serialize)]
pub struct StoredMessage {
    pub id: MessageId,
    pub conversation_id: ConversationId,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub squash_operation_id: Option<SquashOperationId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reply_to: Option<MessageId>,
    pub role: Role,
    /// `Vec<ContentItem>` as stored.
    pub content: Box<RawValue>,
    /// `Vec<Instruction>` as stored; absent when the message has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instructions: Option<Box<RawValue>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Box<RawValue>>,
    pub created_at: DateTime<Utc>,
}

/// A message row's columns as either backend reads them, with the stored token estimate; the
/// role borrowed from the row (a backend that can lend it need not copy it).
pub(crate) struct StoredColumns<'a> {
    pub key: i64,
    pub id: Uuid,
    pub conversation_id: Uuid,
    pub squash_operation_id: Option<Uuid>,
    pub reply_to: Option<Uuid>,
    pub role: &'a str,
    pub content: String,
    pub instructions: Option<String>,
    pub metadata: Option<String>,
    pub created_at: DateTime<Utc>,
    pub tokens: Option<i64>,
}

impl StoredColumns<'_> {
    /// The message and its token estimate: the stored one, or counted from the content when
    /// the row predates the column and the backfill has not reached it. A column that is not
    /// JSON is corrupt, as it is when the message is parsed.
    pub fn into_message(self) -> Result<(StoredMessage, u64), StoreError> {
        let id = self.id;
        let role = Role::parse(self.role).ok_or_else(|| {
            StoreError::Corrupt(format!("message {id} has unknown role {:?}", self.role))
        })?;
        let tokens = match self.tokens {
            Some(t) => u64::try_from(t).map_err(|_| {
                StoreError::Corrupt(format!("message {id} has negative tokens {t}"))
            })?,
            None => row_tokens(self.key, self.role, &self.content)?.unsigned_abs(),
        };
        let raw = |what: &str, text: String| {
            RawValue::from_string(text)
                .map_err(|e| StoreError::Corrupt(format!("{what} of message {id}: {e}")))
        };
        let message = StoredMessage {
            id: id.into(),
            conversation_id: self.conversation_id.into(),
            squash_operation_id: self.squash_operation_id.map(Into::into),
            reply_to: self.reply_to.map(Into::into),
            role,
            content: raw("content", self.content)?,
            // An empty list is left out, as the parsed message leaves it out.
            instructions: self
                .instructions
                .filter(|text| text.trim() != "[]")
                .map(|text| raw("instructions", text))
                .transpose()?,
            metadata: self
                .metadata
                .map(|text| raw("metadata", text))
                .transpose()?,
            created_at: self.created_at,
        };
        Ok((message, tokens))
    }
}
