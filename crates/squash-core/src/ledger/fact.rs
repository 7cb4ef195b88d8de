//! A fact, its kind, and the ledger: the facts of a selection.

use serde::{Deserialize, Serialize};

use crate::ids::MessageId;

/// What a fact is about; the order is the order of the extractive rendering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FactKind {
    /// What the user asked for, with its constraints.
    Request,
    /// What the work came to: the answer given to a request (a value, a verdict such as
    /// "fixed" or "not possible"), and the agent's conclusions along the way.
    Answer,
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
            FactKind::Answer => "answer",
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
