//! Our own lossless format: one JSON document with the conversation, every thread with its
//! links, every message ever stored for it, every operation and the import records. Importing
//! it gives the same conversation back — with the same ids when they are free in the target
//! store, with fresh ids (references remapped) when they are taken.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use squash_core::{
    Conversation, ConversationId, Message, MessageId, Project, SquashOperation, SquashOperationId,
    Thread, ThreadId, ThreadOrigin,
};
use squash_core::{ImportRecord, ImportThread, SourceFormat};

use crate::{FormatError, ImportedConversation, Parsed};

/// The `format` field of the document.
pub const FORMAT: &str = "squash-conversation";
pub const VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExportedThread {
    #[serde(flatten)]
    pub thread: Thread,
    pub links: Vec<MessageId>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExportDocument {
    pub format: String,
    pub version: u32,
    pub exported_at: DateTime<Utc>,
    pub project: Project,
    pub conversation: Conversation,
    /// Oldest first; a thread comes after the thread it derives from.
    pub threads: Vec<ExportedThread>,
    /// Every message of the conversation, in creation order.
    pub messages: Vec<Message>,
    pub operations: Vec<SquashOperation>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub imports: Vec<ImportRecord>,
}

impl ExportDocument {
    pub fn new(
        project: Project,
        conversation: Conversation,
        threads: Vec<ExportedThread>,
        messages: Vec<Message>,
        operations: Vec<SquashOperation>,
        imports: Vec<ImportRecord>,
    ) -> ExportDocument {
        ExportDocument {
            format: FORMAT.to_owned(),
            version: VERSION,
            exported_at: squash_core::time::now(),
            project,
            conversation,
            threads,
            messages,
            operations,
            imports,
        }
    }
}

/// Reads an export for import. The ids are kept; [`fresh_ids`] replaces them when the target
/// store has them already.
pub fn parse(source_name: &str, doc: Value, content_hash: &str) -> Result<Parsed, FormatError> {
    let doc: ExportDocument = serde_json::from_value(doc)
        .map_err(|e| FormatError::invalid(source_name, format!("not a Squash export: {e}")))?;
    if doc.format != FORMAT || doc.version > VERSION {
        return Err(FormatError::invalid(
            source_name,
            format!(
                "format {} version {} is not one this version reads ({FORMAT} ≤ {VERSION})",
                doc.format, doc.version
            ),
        ));
    }
    let conv = doc.conversation;
    let mut threads: Vec<ImportThread> = doc
        .threads
        .into_iter()
        .map(|t| ImportThread {
            id: t.thread.id,
            original_thread_id: t.thread.original_thread_id,
            origin: t.thread.origin,
            revision: t.thread.revision,
            links: t.links,
            created_at: t.thread.created_at,
            updated_at: t.thread.updated_at,
        })
        .collect();
    parents_first(&mut threads);
    let metadata = doc.imports.iter().find_map(|r| r.source.metadata.clone());
    let mut parsed = Parsed::default();
    // A record is one stored message; threads and operations are the structure around them.
    parsed.records.lines = doc.messages.len();
    parsed.records.messages = doc.messages.len();
    parsed.conversations.push(ImportedConversation {
        source_key: format!("squash:{}", conv.id),
        format: SourceFormat::Squash,
        project_path: Some(doc.project.path),
        display_name: conv.display_name,
        conversation_id: conv.id,
        created_at: conv.created_at,
        updated_at: conv.updated_at,
        messages: doc.messages,
        deferred: None,
        threads,
        current_thread_id: conv.current_thread_id,
        operations: doc.operations,
        metadata,
        content_hash: content_hash.to_owned(),
        appendable: false,
        sidechain: false,
        backfilled_operations: 0,
        task_calls: Vec::new(),
    });
    Ok(parsed)
}

fn parents_first(threads: &mut Vec<ImportThread>) {
    let mut placed: HashSet<ThreadId> = HashSet::new();
    let mut out = Vec::with_capacity(threads.len());
    let mut rest = std::mem::take(threads);
    while !rest.is_empty() {
        let before = rest.len();
        let (ready, waiting): (Vec<_>, Vec<_>) = rest
            .into_iter()
            .partition(|t| t.original_thread_id.is_none_or(|o| placed.contains(&o)));
        placed.extend(ready.iter().map(|t| t.id));
        out.extend(ready);
        rest = waiting;
        if rest.len() == before {
            // Parents that are not in the document: those threads become roots.
            for t in &mut rest {
                t.original_thread_id = None;
            }
        }
    }
    *threads = out;
}

/// Gives the conversation and everything in it new ids, keeping every reference between them.
pub fn fresh_ids(conv: &mut ImportedConversation) {
    let conversation = ConversationId::new();
    let messages: HashMap<MessageId, MessageId> = conv
        .messages
        .iter()
        .map(|m| (m.id, MessageId::new()))
        .collect();
    let threads: HashMap<ThreadId, ThreadId> = conv
        .threads
        .iter()
        .map(|t| (t.id, ThreadId::new()))
        .collect();
    let ops: HashMap<SquashOperationId, SquashOperationId> = conv
        .operations
        .iter()
        .map(|o| (o.id, SquashOperationId::new()))
        .collect();
    let m = |id: &MessageId| messages.get(id).copied().unwrap_or(*id);
    let t = |id: &ThreadId| threads.get(id).copied().unwrap_or(*id);
    let o = |id: &SquashOperationId| ops.get(id).copied().unwrap_or(*id);
    conv.conversation_id = conversation;
    for msg in &mut conv.messages {
        msg.id = m(&msg.id);
        msg.conversation_id = conversation;
        msg.reply_to = msg.reply_to.as_ref().map(m);
        msg.squash_operation_id = msg.squash_operation_id.as_ref().map(o);
    }
    for th in &mut conv.threads {
        th.id = t(&th.id);
        th.original_thread_id = th.original_thread_id.as_ref().map(t);
        th.links = th.links.iter().map(m).collect();
        th.origin = match &th.origin {
            ThreadOrigin::Initial => ThreadOrigin::Initial,
            ThreadOrigin::SourceBranch { branch } => ThreadOrigin::SourceBranch { branch: *branch },
            ThreadOrigin::Edit { operation_id } => ThreadOrigin::Edit {
                operation_id: o(operation_id),
            },
            ThreadOrigin::Squash { operation_id } => ThreadOrigin::Squash {
                operation_id: o(operation_id),
            },
            ThreadOrigin::Delete { message_ids } => ThreadOrigin::Delete {
                message_ids: message_ids.iter().map(m).collect(),
            },
            ThreadOrigin::Fit {
                operation_ids,
                budget,
            } => ThreadOrigin::Fit {
                operation_ids: operation_ids.iter().map(o).collect(),
                budget: *budget,
            },
        };
    }
    for op in &mut conv.operations {
        op.id = o(&op.id);
        op.conversation_id = conversation;
        op.source_message_ids = op.source_message_ids.iter().map(m).collect();
        op.result_message_id = m(&op.result_message_id);
        op.base_thread_id = op.base_thread_id.as_ref().map(t);
        op.result_thread_id = op.result_thread_id.as_ref().map(t);
    }
    conv.current_thread_id = t(&conv.current_thread_id);
}
