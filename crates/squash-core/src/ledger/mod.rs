//! The fact ledger: what a squash must not lose, computed from the selected messages alone.
//!
//! A model's summary is checked against the ledger ([`check`]); facts it dropped are asked for
//! again or appended, terms it invented are removed. The ledger is also a squash style of its
//! own ([`render::extract_text`]): exact, instant and offline.
//!
//! Facts come from structure first (tool inputs name the files and commands, tool results give
//! exit statuses and error lines) and from prose only where nothing else says it (requests,
//! decisions, open items, the numbers a conclusion states). Every fact keeps the message it
//! came from, so a reader can check it.

pub mod check;
mod commands;
mod errors;
mod files;
mod prose;
pub mod render;
mod report;
mod text;

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::ids::MessageId;
use crate::message::{ContentItem, Message, ToolResultData};

pub use check::drop_sentences_with;
pub use check::{check_facts, invented_terms, FactCheck};
pub use commands::last_exit_code;
pub(crate) use errors::matching_error_lines;
pub use render::{details_section, extract_text, DETAILS_HEADING};
pub use report::{FactEntry, FactReport, Fallback, InventedOutcome, InventedTerm};

/// What a fact is about; the order is the order of the extractive rendering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FactKind {
    /// What the user asked for, with its constraints.
    Request,
    /// A file read, written or edited (from a tool's input).
    File,
    /// A command that was run, with how it ended.
    Command,
    /// An error that was not fixed within the selection.
    Error,
    /// An error and what fixed it.
    Fix,
    /// A decision taken.
    Decision,
    /// Something still open: a question, a next step.
    OpenItem,
    /// An identifier, number or URL that a message's conclusion states.
    Value,
}

impl FactKind {
    pub fn as_str(self) -> &'static str {
        match self {
            FactKind::Request => "request",
            FactKind::File => "file",
            FactKind::Command => "command",
            FactKind::Error => "error",
            FactKind::Fix => "fix",
            FactKind::Decision => "decision",
            FactKind::OpenItem => "open_item",
            FactKind::Value => "value",
        }
    }
}

/// One thing a squash result must still say.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fact {
    pub kind: FactKind,
    /// The fact as one line for a person (and for the appended details).
    pub text: String,
    /// The terms a text must contain to count as stating this fact (all of them, compared
    /// case-insensitively; a path also counts by its shorter unique forms).
    pub anchors: Vec<String>,
    /// The message the fact came from (for a fix: the message with the error).
    pub source: MessageId,
}

/// The facts of a selection, in the order of [`FactKind`] then of the conversation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ledger {
    pub facts: Vec<Fact>,
}

impl Ledger {
    pub fn len(&self) -> usize {
        self.facts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.facts.is_empty()
    }

    /// The facts at `indexes`, in ledger order.
    pub fn subset(&self, indexes: &[usize]) -> Vec<&Fact> {
        indexes.iter().filter_map(|&i| self.facts.get(i)).collect()
    }

    /// Every anchor of every fact: what the summary may mention without inventing it.
    pub fn anchors(&self) -> impl Iterator<Item = &str> {
        self.facts
            .iter()
            .flat_map(|f| f.anchors.iter().map(String::as_str))
    }
}

/// A tool call and, when the selection has it, its result.
pub(crate) struct ToolUse<'a> {
    /// Position of the call's message in the selection.
    pub index: usize,
    pub source: MessageId,
    pub name: &'a str,
    pub input: &'a serde_json::Value,
    pub result: Option<ToolOutcome>,
}

/// A tool result's text and error flag.
pub(crate) struct ToolOutcome {
    pub source: MessageId,
    pub text: String,
    pub is_error: bool,
}

/// Builds the ledger of `messages`, which must be in thread order.
pub fn build_ledger(messages: &[&Message]) -> Ledger {
    let uses = tool_uses(messages);
    let mut facts = Vec::new();
    facts.extend(prose::requests(messages));
    facts.extend(files::file_facts(&uses));
    let runs = commands::command_runs(&uses);
    facts.extend(commands::command_facts(&runs));
    facts.extend(commands::search_facts(&uses));
    facts.extend(errors::error_facts(messages, &uses, &runs));
    let mut prose_facts = prose::statements(messages);
    // A value already named by a structural fact needs no fact of its own.
    let known: Vec<String> = facts
        .iter()
        .flat_map(|f| f.anchors.iter().map(|a| a.to_lowercase()))
        .collect();
    for fact in &mut prose_facts {
        if fact.kind == FactKind::Value {
            fact.anchors
                .retain(|a| !known.iter().any(|k| k.contains(&a.to_lowercase())));
        }
    }
    prose_facts.retain(|f| !f.anchors.is_empty());
    facts.extend(prose_facts);
    facts.sort_by_key(|f| f.kind);
    dedupe(&mut facts);
    Ledger { facts }
}

/// Drops facts whose text repeats an earlier one (the same command run twice with the same
/// outcome, the same request twice).
fn dedupe(facts: &mut Vec<Fact>) {
    let mut seen = std::collections::HashSet::new();
    facts.retain(|f| seen.insert((f.kind, f.text.to_lowercase())));
}

fn tool_uses<'a>(messages: &[&'a Message]) -> Vec<ToolUse<'a>> {
    let mut outcomes: HashMap<&str, ToolOutcome> = HashMap::new();
    for message in messages {
        for item in &message.content {
            if let ContentItem::ToolResult {
                tool_use_id,
                result,
                is_error,
                ..
            } = item
            {
                outcomes.insert(
                    tool_use_id.as_str(),
                    ToolOutcome {
                        source: message.id,
                        text: result_text(result),
                        is_error: *is_error,
                    },
                );
            }
        }
    }
    let mut uses = Vec::new();
    for (index, message) in messages.iter().enumerate() {
        for item in &message.content {
            if let ContentItem::ToolCall { id, name, input } = item {
                uses.push(ToolUse {
                    index,
                    source: message.id,
                    name,
                    input,
                    result: outcomes.remove(id.as_str()),
                });
            }
        }
    }
    uses
}

fn result_text(result: &[ToolResultData]) -> String {
    result
        .iter()
        .filter_map(|d| match d {
            ToolResultData::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests;
