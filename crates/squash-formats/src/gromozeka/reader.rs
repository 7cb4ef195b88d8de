//! One conversation of a Gromozeka database: its messages, threads and operations, with legacy
//! provenance converted into operations.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};
use squash_core::operation::FlatProvenance;
use squash_core::{
    ContentItem, ConversationId, Message, MessageId, OperationKind, Role, SourceFormat,
    SquashOperation, SquashOperationId,
};

use super::columns::{
    column_time_in, naive_text, role_column, sql_bool, sql_text, SqlValue, TextZone,
};
use super::message::{id_string, parse_message_json, GromozekaMessage};
use super::schema::{feed, ConversationRow, MessageRow, OperationRow, Rows};
use super::threads::{parents_first, RawThread, ThreadTree};
use super::{DatabaseError, META_KEY};
use crate::fields::title_from;
use crate::hash::hex_digest;
use crate::{source_id, ImportedConversation, Parsed, SOURCE_ID_KEY};

pub(super) struct ConversationReader<'a> {
    pub rows: Rows<'a>,
    pub source_name: &'a str,
    pub now: DateTime<Utc>,
    /// The conversation's id in the database.
    pub gid: String,
}

/// The messages of a conversation and what they say about provenance.
struct Messages {
    list: Vec<Message>,
    /// Stored id → new id.
    ids: HashMap<String, MessageId>,
    /// Message index → the `originalIds` it lists (legacy provenance).
    legacy: Vec<(usize, Vec<String>)>,
    /// Message index → the stored operation it names.
    claimed: HashMap<usize, String>,
}

impl Messages {
    fn new_id(&self, gids: &[String]) -> Vec<MessageId> {
        gids.iter()
            .filter_map(|g| self.ids.get(g).copied())
            .collect()
    }

    fn index_of(&self) -> HashMap<MessageId, usize> {
        self.list
            .iter()
            .enumerate()
            .map(|(i, m)| (m.id, i))
            .collect()
    }
}

/// What a conversation's operations came to.
struct Operations {
    list: Vec<SquashOperation>,
    /// Stored id → new id, of the recorded operations.
    gids: HashMap<String, SquashOperationId>,
    backfilled: usize,
}

/// Conversation-level times.
#[derive(Clone, Copy)]
struct Times {
    created_at: DateTime<Utc>,
    updated_at: DateTime<Utc>,
    /// How the conversation's local-time text is read.
    zone: TextZone,
}

impl ConversationReader<'_> {
    pub(super) fn read(
        &self,
        row: &ConversationRow,
        projects: &HashMap<String, String>,
        parsed: &mut Parsed,
    ) -> Result<ImportedConversation, DatabaseError> {
        let mut hash = Sha256::new();
        feed(&mut hash, &row.values());
        let conversation_id = ConversationId::new();
        let rows = self.rows.messages(&self.gid)?;
        let docs: Vec<GromozekaMessage> = rows.iter().map(|r| self.document(r, parsed)).collect();
        // The messages' documents carry instants; their rows' local-time text says in which
        // zone the database's text was written.
        let zone = TextZone::infer(
            rows.iter()
                .zip(&docs)
                .filter_map(|(r, doc)| Some((naive_text(&r.created_at)?, doc.created_at?))),
        );
        let created_at = column_time_in(&row.created_at, zone).unwrap_or(self.now);
        let times = Times {
            created_at,
            updated_at: column_time_in(&row.updated_at, zone)
                .unwrap_or(created_at)
                .max(created_at),
            zone,
        };
        let mut messages = self.messages(conversation_id, times, &rows, docs, &mut hash);
        let tree = ThreadTree::new(self.threads(&messages, times, &mut hash, parsed)?);
        let mut operations = self.recorded_operations(
            conversation_id,
            times,
            &tree,
            &mut messages,
            &mut hash,
            parsed,
        )?;
        self.claim_operations(&mut messages, &operations, parsed);
        self.backfill(
            conversation_id,
            &tree,
            &mut messages,
            &mut operations,
            parsed,
        );
        let current_thread_id = self.current_thread(row, &tree, parsed);
        let metadata = self.metadata(row, &tree, &operations);
        let display_name = self.display_name(row, &messages.list);
        Ok(ImportedConversation {
            source_key: format!("gromozeka:{}", self.gid),
            format: SourceFormat::Gromozeka,
            project_path: sql_text(&row.project_id).and_then(|p| projects.get(&p).cloned()),
            display_name,
            conversation_id,
            created_at: times.created_at,
            updated_at: times.updated_at,
            messages: messages.list,
            deferred: None,
            threads: tree.into_import(&operations.list),
            current_thread_id,
            operations: operations.list,
            metadata: Some(metadata),
            content_hash: hex_digest(hash.finalize().as_slice()),
            appendable: false,
            sidechain: false,
            backfilled_operations: operations.backfilled,
            task_calls: Vec::new(),
        })
    }

    fn warn(&self, parsed: &mut Parsed, what: String) {
        parsed.warnings.push(format!(
            "{}: conversation {}: {what}",
            self.source_name, self.gid
        ));
    }

    /// The messages, in the order they were stored.
    fn messages(
        &self,
        conversation_id: ConversationId,
        times: Times,
        rows: &[MessageRow],
        docs: Vec<GromozekaMessage>,
        hash: &mut Sha256,
    ) -> Messages {
        let mut messages = Messages {
            list: Vec::with_capacity(rows.len()),
            ids: HashMap::new(),
            legacy: Vec::new(),
            claimed: HashMap::new(),
        };
        for (r, doc) in rows.iter().zip(docs) {
            feed(hash, &r.values());
            let gid = sql_text(&r.id).unwrap_or_default();
            let original_ids = if doc.original_ids.is_empty() {
                id_list(&r.original_ids_json)
            } else {
                doc.original_ids
            };
            let index = messages.list.len();
            if !original_ids.is_empty() {
                messages.legacy.push((index, original_ids));
            }
            if let Some(op) = doc.squash_operation_id {
                messages.claimed.insert(index, op);
            }
            let id = MessageId::new();
            messages.list.push(Message {
                id,
                conversation_id,
                squash_operation_id: None,
                reply_to: None,
                role: doc
                    .role
                    .or_else(|| role_column(&r.role))
                    .unwrap_or(Role::User),
                content: doc.content,
                instructions: doc.instructions,
                metadata: Some(json!({SOURCE_ID_KEY: gid, META_KEY: {"json": doc.rest}})),
                created_at: doc
                    .created_at
                    .or_else(|| column_time_in(&r.created_at, times.zone))
                    .unwrap_or(times.created_at),
            });
            messages.ids.insert(gid, id);
        }
        resolve_replies(&mut messages);
        messages
    }

    /// The row's `message_json`; one that does not parse is kept as unknown content.
    fn document(&self, r: &MessageRow, parsed: &mut Parsed) -> GromozekaMessage {
        let gid = sql_text(&r.id).unwrap_or_default();
        let json_text = sql_text(&r.message_json).unwrap_or_default();
        parse_message_json(&json_text).unwrap_or_else(|e| {
            self.warn(
                parsed,
                format!("message {gid}: {e}; kept as unknown content"),
            );
            let raw = serde_json::from_str(&json_text).unwrap_or(Value::String(json_text));
            GromozekaMessage {
                id: None,
                role: None,
                content: vec![ContentItem::UnknownJson { json: raw }],
                instructions: Vec::new(),
                original_ids: Vec::new(),
                squash_operation_id: None,
                reply_to: None,
                created_at: None,
                rest: Value::Null,
            }
        })
    }

    /// The stored threads, parents first; a conversation without any gets one thread of every
    /// message.
    fn threads(
        &self,
        messages: &Messages,
        times: Times,
        hash: &mut Sha256,
        parsed: &mut Parsed,
    ) -> Result<Vec<RawThread>, DatabaseError> {
        let mut threads = Vec::new();
        for r in self.rows.threads(&self.gid)? {
            feed(hash, &r.values());
            let gid = sql_text(&r.id).unwrap_or_default();
            let links = self.links(&gid, messages, hash, parsed)?;
            let created_at = column_time_in(&r.created_at, times.zone).unwrap_or(self.now);
            threads.push(RawThread {
                gid,
                original: sql_text(&r.original_thread_id).filter(|o| !o.is_empty()),
                created_at,
                updated_at: column_time_in(&r.updated_at, times.zone).unwrap_or(created_at),
                links,
            });
        }
        if threads.is_empty() {
            threads.push(RawThread {
                gid: String::new(),
                original: None,
                created_at: times.created_at,
                updated_at: times.updated_at,
                links: messages.list.iter().map(|m| m.id).collect(),
            });
        }
        Ok(parents_first(threads))
    }

    /// A thread's links to stored messages, each once.
    fn links(
        &self,
        thread: &str,
        messages: &Messages,
        hash: &mut Sha256,
        parsed: &mut Parsed,
    ) -> Result<Vec<MessageId>, DatabaseError> {
        let rows = self.rows.links(thread)?;
        let mut links = Vec::with_capacity(rows.len());
        let mut seen = HashSet::new();
        for r in rows {
            feed(hash, &r.values());
            let mid = sql_text(&r.message_id).unwrap_or_default();
            match messages.ids.get(&mid) {
                Some(id) if seen.insert(*id) => links.push(*id),
                Some(_) => parsed.warnings.push(format!(
                    "{}: thread {thread} links message {mid} twice; kept once",
                    self.source_name
                )),
                None => parsed.warnings.push(format!(
                    "{}: thread {thread} links message {mid}, which is not stored; link dropped",
                    self.source_name
                )),
            }
        }
        Ok(links)
    }

    /// The current thread; the newest one when the stored one is missing.
    fn current_thread(
        &self,
        row: &ConversationRow,
        tree: &ThreadTree,
        parsed: &mut Parsed,
    ) -> squash_core::ThreadId {
        if let Some(id) = sql_text(&row.current_thread_id).and_then(|g| tree.id_of(&g)) {
            return id;
        }
        if row.current_thread_id != SqlValue::Null {
            self.warn(
                parsed,
                "its current thread is not stored; the newest thread is current".into(),
            );
        }
        tree.newest()
    }

    fn display_name(&self, row: &ConversationRow, messages: &[Message]) -> String {
        sql_text(&row.display_name)
            .filter(|n| !n.trim().is_empty())
            .or_else(|| {
                messages.iter().find_map(|m| match m.content.first() {
                    Some(ContentItem::UserMessage { text }) => title_from(text, 60),
                    _ => None,
                })
            })
            .unwrap_or_else(|| {
                format!(
                    "Gromozeka conversation {}",
                    self.gid.get(..8).unwrap_or(&self.gid)
                )
            })
    }

    /// What an export needs to name the conversation's rows as Gromozeka stored them.
    fn metadata(&self, row: &ConversationRow, tree: &ThreadTree, operations: &Operations) -> Value {
        let thread_map: Map<String, Value> = tree
            .gids()
            .map(|(gid, id)| (id.to_string(), Value::String(gid.to_owned())))
            .collect();
        let op_map: Map<String, Value> = operations
            .gids
            .iter()
            .map(|(g, id)| (id.to_string(), Value::String(g.clone())))
            .collect();
        json!({META_KEY: {
            "conversation_id": self.gid,
            "project_id": sql_text(&row.project_id),
            "ai_provider": sql_text(&row.ai_provider),
            "model_name": sql_text(&row.model_name),
            "thread_ids": thread_map,
            "operation_ids": op_map,
        }})
    }

    /// The recorded operations whose messages are all stored.
    fn recorded_operations(
        &self,
        conversation_id: ConversationId,
        times: Times,
        tree: &ThreadTree,
        messages: &mut Messages,
        hash: &mut Sha256,
        parsed: &mut Parsed,
    ) -> Result<Operations, DatabaseError> {
        let mut operations = Operations {
            list: Vec::new(),
            gids: HashMap::new(),
            backfilled: 0,
        };
        let index_of = messages.index_of();
        for r in self.rows.operations(&self.gid)? {
            feed(hash, &r.values());
            let gid = sql_text(&r.id).unwrap_or_default();
            let Some((result, sources)) = recorded_messages(&r, messages) else {
                self.warn(
                    parsed,
                    format!(
                        "squash operation {gid} names messages that are not stored; not imported"
                    ),
                );
                continue;
            };
            let created_at = column_time_in(&r.created_at, times.zone).unwrap_or(times.created_at);
            // Gromozeka keeps a flag, a prompt and a model: what older Squash records held.
            let kind = OperationKind::from_legacy(
                sql_bool(&r.performed_by_agent),
                sources.len(),
                FlatProvenance {
                    prompt: sql_text(&r.prompt),
                    model: sql_text(&r.model),
                    ..FlatProvenance::default()
                },
            );
            let op = operation(
                conversation_id,
                tree,
                (result, sources),
                (kind, created_at),
                &index_of,
            );
            operations.gids.insert(gid, op.id);
            if let Some(&i) = index_of.get(&result) {
                messages.list[i].squash_operation_id = Some(op.id);
            }
            operations.list.push(op);
        }
        Ok(operations)
    }

    /// Messages that name a recorded operation are its result.
    fn claim_operations(
        &self,
        messages: &mut Messages,
        operations: &Operations,
        parsed: &mut Parsed,
    ) {
        for (i, gid) in &messages.claimed {
            match operations.gids.get(gid) {
                Some(op) => messages.list[*i].squash_operation_id = Some(*op),
                None if messages.legacy.iter().any(|(j, _)| j == i) => {}
                None => self.warn(
                    parsed,
                    format!(
                        "message {} names squash operation {gid}, which is not stored",
                        source_of(&messages.list[*i])
                    ),
                ),
            }
        }
    }

    /// Legacy provenance becomes operations (spec phase 5): a message whose `originalIds` lists
    /// two or more sources is the result of a manual squash, one source an edit — unless a
    /// recorded operation already produced it.
    fn backfill(
        &self,
        conversation_id: ConversationId,
        tree: &ThreadTree,
        messages: &mut Messages,
        operations: &mut Operations,
        parsed: &mut Parsed,
    ) {
        let index_of = messages.index_of();
        for (i, originals) in &messages.legacy {
            let message = &messages.list[*i];
            if message.squash_operation_id.is_some() {
                continue;
            }
            let mapped = messages.new_id(originals);
            if mapped.len() != originals.len() {
                self.warn(
                    parsed,
                    format!(
                        "message {} lists originalIds that are not stored; {} of {} kept",
                        source_of(message),
                        mapped.len(),
                        originals.len()
                    ),
                );
            }
            if mapped.is_empty() {
                continue;
            }
            let kind = OperationKind::from_legacy(false, mapped.len(), FlatProvenance::default());
            let made = (message.id, mapped);
            let op = operation(
                conversation_id,
                tree,
                made,
                (kind, message.created_at),
                &index_of,
            );
            messages.list[*i].squash_operation_id = Some(op.id);
            operations.list.push(op);
            operations.backfilled += 1;
        }
    }
}

/// The result and sources of a recorded operation, if every one of them is stored.
fn recorded_messages(r: &OperationRow, messages: &Messages) -> Option<(MessageId, Vec<MessageId>)> {
    let sources = id_list(&r.source_message_ids);
    let mapped = messages.new_id(&sources);
    let result = sql_text(&r.result_message_id).and_then(|g| messages.ids.get(&g).copied())?;
    (mapped.len() == sources.len() && !mapped.is_empty()).then_some((result, mapped))
}

/// An operation of `kind` producing `result` from `sources`, placed in the thread that
/// introduced `result`.
fn operation(
    conversation_id: ConversationId,
    tree: &ThreadTree,
    (result, sources): (MessageId, Vec<MessageId>),
    (kind, created_at): (OperationKind, DateTime<Utc>),
    index_of: &HashMap<MessageId, usize>,
) -> SquashOperation {
    let thread = tree.introduced_in(result);
    let (base_thread_id, result_thread_id) = tree.base_and_result(thread);
    let sources = tree.order_in(tree.parent(thread), sources, index_of);
    let made = SquashOperation::new(
        SquashOperationId::new(),
        conversation_id,
        sources,
        result,
        kind,
        None,
    );
    SquashOperation {
        base_thread_id,
        result_thread_id,
        created_at,
        ..made
    }
}

/// A JSON list of ids in a text column.
fn id_list(value: &SqlValue) -> Vec<String> {
    sql_text(value)
        .and_then(|t| serde_json::from_str::<Vec<Value>>(&t).ok())
        .map(|l| l.iter().filter_map(|v| id_string(Some(v))).collect())
        .unwrap_or_default()
}

/// `replyTo` can point forward; it is resolved once every id is known.
fn resolve_replies(messages: &mut Messages) {
    for msg in &mut messages.list {
        let reply = msg
            .metadata
            .as_ref()
            .and_then(|m| m[META_KEY]["json"].get("replyTo"))
            .and_then(|v| id_string(Some(v)));
        msg.reply_to = reply.and_then(|g| messages.ids.get(&g).copied());
    }
}

fn source_of(message: &Message) -> &str {
    source_id(message).unwrap_or("?")
}
