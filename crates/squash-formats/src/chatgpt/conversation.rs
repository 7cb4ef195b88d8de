//! One conversation of the export: its nodes as messages, its branches as threads.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, SubsecRound, Utc};
use serde_json::{json, Map, Value};
use squash_core::{
    BranchKind, ConversationId, ImportThread, Message, MessageId, SourceFormat, ThreadId,
};

use super::content::{self, Author};
use super::tree::Tree;
use super::META_KEY;
use crate::anthropic_json::short;
use crate::data_export::ExportConversation;
use crate::fields::{first_prompt, imported_message, source_thread};
use crate::{ImportedConversation, Parsed, SOURCE_ID_KEY};

/// A node of the mapping.
struct Node<'a> {
    id: &'a str,
    parent: Option<&'a str>,
    /// The message, unless the node has none or it is hidden.
    visible: Option<(&'a Value, Author)>,
    raw: &'a Value,
}

/// Reads one conversation of the export into `parsed`.
pub(super) fn read(export: ExportConversation<'_>, parsed: &mut Parsed) {
    let (source_name, what, mut fields) = (export.source_name, export.what, export.fields);
    let Some(Value::Object(mapping)) = fields.remove("mapping") else {
        parsed.records.lines += 1;
        parsed.skip_record(source_name, None, format!("{what}: no `mapping` of nodes"));
        return;
    };
    parsed.records.lines += mapping.len();
    let mut nodes = Vec::with_capacity(mapping.len());
    for (key, raw) in &mapping {
        match node(key, raw) {
            Some(n) => nodes.push(n),
            None => parsed.skip_record(
                source_name,
                None,
                format!("{what}: node {key} is not a JSON object"),
            ),
        }
    }
    let reader = ConversationReader {
        source_name,
        index: export.index,
        fields: &fields,
        now: export.now,
        conversation_id: ConversationId::new(),
    };
    match reader.build(&nodes, export.hash, parsed) {
        Some(conv) => parsed.conversations.push(conv),
        None => parsed.skip(source_name, None, format!("{what}: no visible message")),
    }
}

fn node<'a>(key: &'a str, raw: &'a Value) -> Option<Node<'a>> {
    let obj = raw.as_object()?;
    let message = obj.get("message").filter(|m| m.is_object());
    let visible = message.and_then(|m| {
        let author = Author::of(m).unwrap_or(Author::System);
        (!content::is_hidden(m, author)).then_some((m, author))
    });
    Some(Node {
        id: key,
        parent: obj.get("parent").and_then(Value::as_str),
        visible,
        raw,
    })
}

struct ConversationReader<'a> {
    source_name: &'a str,
    index: usize,
    fields: &'a Map<String, Value>,
    now: DateTime<Utc>,
    conversation_id: ConversationId,
}

impl ConversationReader<'_> {
    fn build(
        &self,
        nodes: &[Node],
        hash: String,
        parsed: &mut Parsed,
    ) -> Option<ImportedConversation> {
        let tree = Tree::new(&nodes.iter().map(|n| (n.id, n.parent)).collect::<Vec<_>>());
        let by_id: HashMap<&str, &Node> = nodes.iter().map(|n| (n.id, n)).collect();
        let mut messages = Vec::new();
        let mut ids: HashMap<&str, MessageId> = HashMap::new();
        let mut hidden = Vec::new();
        for n in nodes {
            match n.visible {
                Some((message, author)) => {
                    let call = call_above(&tree, &by_id, n.id);
                    let m = self.message(n, message, author, call);
                    ids.insert(n.id, m.id);
                    messages.push((tree.depth(n.id), m));
                    parsed.record_message();
                }
                None => {
                    hidden.push((tree.depth(n.id), json!({"id": n.id, "node": n.raw})));
                    parsed.record_metadata();
                }
            }
        }
        if messages.is_empty() {
            return None;
        }
        // Node ids are random: the tree's order is the readable one.
        hidden.sort_by_key(|(depth, _)| *depth);
        let hidden = hidden.into_iter().map(|(_, h)| h).collect();
        messages.sort_by_key(|(depth, m)| (m.created_at, *depth));
        let messages: Vec<Message> = messages.into_iter().map(|(_, m)| m).collect();
        let (threads, warning) = self.threads(&tree, &ids, &messages);
        if let Some(w) = warning {
            parsed.warnings.push(w);
        }
        Some(self.conversation(messages, threads, hidden, hash))
    }

    fn message(
        &self,
        n: &Node,
        message: &Value,
        author: Author,
        call: Option<(&str, &str)>,
    ) -> Message {
        let (role, content) = content::items(message, author, call);
        let metadata = json!({
            SOURCE_ID_KEY: format!("node:{}", n.id),
            META_KEY: {"node": n.id, "parent": n.parent, "message": message},
        });
        let created_at = time_of(message.get("create_time"))
            .or_else(|| self.created())
            .unwrap_or(self.now);
        imported_message(self.conversation_id, role, content, metadata, created_at)
    }

    fn created(&self) -> Option<DateTime<Utc>> {
        time_of(self.fields.get("create_time"))
    }

    /// The current branch's thread first, then one thread per other branch that shows
    /// something the threads before it do not.
    fn threads(
        &self,
        tree: &Tree,
        ids: &HashMap<&str, MessageId>,
        messages: &[Message],
    ) -> (Vec<ImportThread>, Option<String>) {
        let links = |path: Vec<&str>| -> Vec<MessageId> {
            path.iter().filter_map(|id| ids.get(id).copied()).collect()
        };
        let leaves = tree.leaves();
        let named = self
            .fields
            .get("current_node")
            .and_then(Value::as_str)
            .filter(|c| ids.contains_key(c) || leaves.contains(c));
        let mut warning = None;
        let current = match named {
            Some(c) => c,
            None => {
                warning = Some(format!(
                    "{}: {}: no usable current_node; the last branch is current",
                    self.source_name,
                    self.title().unwrap_or_default()
                ));
                leaves.last().copied().unwrap_or_default()
            }
        };
        let current_path = tree.path_to(current);
        let mut lists = vec![links(current_path.clone())];
        for leaf in leaves {
            if current_path.contains(&leaf) {
                continue;
            }
            let l = links(tree.path_to(leaf));
            if !l.is_empty() && !lists.contains(&l) {
                lists.push(l);
            }
        }
        lists.retain(|l| !l.is_empty());
        // A node no leaf reaches (its parents form a cycle) still gets a thread: the branch down
        // to it, cut where the cycle closes.
        let mut covered: HashSet<MessageId> = lists.iter().flatten().copied().collect();
        let node_of: HashMap<MessageId, &str> = ids.iter().map(|(n, id)| (*id, *n)).collect();
        let mut cut = 0usize;
        for m in messages {
            if covered.contains(&m.id) {
                continue;
            }
            let Some(&node) = node_of.get(&m.id) else {
                continue;
            };
            let l = links(tree.path_to(node));
            covered.extend(l.iter().copied());
            cut += 1;
            lists.push(l);
        }
        if cut > 0 {
            let note = format!(
                "{}: {}: {cut} node(s) sit on a cycle of parents; each is kept on a thread of its own",
                self.source_name,
                self.title().unwrap_or_default()
            );
            warning = Some(match warning {
                Some(w) => format!("{w}; {note}"),
                None => note,
            });
        }
        (thread_list(lists, messages, self.now), warning)
    }

    fn title(&self) -> Option<String> {
        self.fields
            .get("title")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
    }

    fn conversation(
        &self,
        messages: Vec<Message>,
        threads: Vec<ImportThread>,
        hidden: Vec<Value>,
        hash: String,
    ) -> ImportedConversation {
        let key_id = ["conversation_id", "id"]
            .iter()
            .find_map(|k| self.fields.get(*k).and_then(Value::as_str));
        let source_key = match key_id {
            Some(id) => format!("chatgpt:{id}"),
            None => format!("chatgpt:{}#{}", short(self.source_name), self.index + 1),
        };
        let name = self
            .title()
            .or_else(|| first_prompt(&messages, |_| true))
            .unwrap_or_else(|| "ChatGPT conversation".to_owned());
        let mut conv = ImportedConversation::linear(
            SourceFormat::ChatGpt,
            source_key,
            self.conversation_id,
            name,
            messages,
            self.now,
        );
        if let Some(t) = self.created() {
            conv.created_at = t;
        }
        if let Some(t) = time_of(self.fields.get("update_time")) {
            conv.updated_at = t.max(conv.created_at);
        }
        conv.current_thread_id = threads[0].id;
        conv.threads = threads;
        conv.appendable = false;
        conv.content_hash = hash;
        conv.metadata = Some(json!({META_KEY: {
            "source": short(self.source_name),
            "fields": self.fields,
            "hidden_nodes": hidden,
        }}));
        conv
    }
}

/// The tool call a tool message answers: the nearest assistant message above it that calls a
/// tool, as (message id, tool).
fn call_above<'a>(
    tree: &Tree<'a>,
    by_id: &HashMap<&str, &Node<'a>>,
    node: &'a str,
) -> Option<(&'a str, &'a str)> {
    let (_, author) = by_id.get(node)?.visible?;
    if author != Author::Tool {
        return None;
    }
    tree.path_to(node).iter().rev().skip(1).find_map(|id| {
        let (message, author) = by_id.get(id)?.visible?;
        if author != Author::Assistant {
            return None;
        }
        let tool = content::called_tool(message)?;
        let call_id = message
            .get("id")
            .and_then(Value::as_str)
            .unwrap_or_default();
        Some((call_id, tool))
    })
}

/// Threads from link lists, the first current; the others derive from it.
pub(crate) fn thread_list(
    lists: Vec<Vec<MessageId>>,
    messages: &[Message],
    now: DateTime<Utc>,
) -> Vec<ImportThread> {
    let time: HashMap<MessageId, DateTime<Utc>> =
        messages.iter().map(|m| (m.id, m.created_at)).collect();
    let current_id = ThreadId::new();
    let current: HashSet<MessageId> = lists.first().into_iter().flatten().copied().collect();
    let fork_time = |links: &Vec<MessageId>| {
        links
            .iter()
            .find(|l| !current.contains(l))
            .and_then(|l| time.get(l))
            .copied()
    };
    // The other branches in the order they were written.
    let mut lists = lists;
    if lists.len() > 2 {
        lists[1..].sort_by_key(fork_time);
    }
    lists
        .iter()
        .enumerate()
        .map(|(i, links)| {
            let own = links.iter().find(|l| i == 0 || !current.contains(l));
            let created_at = own.and_then(|l| time.get(l)).copied().unwrap_or(now);
            let updated_at = links
                .last()
                .and_then(|l| time.get(l))
                .copied()
                .unwrap_or(now);
            let (id, parent) = if i == 0 {
                (current_id, None)
            } else {
                (ThreadId::new(), Some((current_id, BranchKind::Alternative)))
            };
            source_thread(id, parent, links.clone(), created_at, updated_at)
        })
        .collect()
}

/// A time given as seconds since the epoch (with a fraction), at microsecond precision.
fn time_of(value: Option<&Value>) -> Option<DateTime<Utc>> {
    let secs = value?.as_f64()?;
    if !secs.is_finite() {
        return None;
    }
    DateTime::from_timestamp_micros((secs * 1e6).round() as i64).map(|t| t.trunc_subsecs(6))
}
