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
mod merge;
mod observe;
mod prose;
pub mod render;
mod reports;
mod searches;
mod settings;
mod text;

use serde::{Deserialize, Serialize};

use crate::ids::MessageId;
use crate::message::Message;

pub use check::drop_sentences_with;
pub use check::{check_facts, invented_terms, FactCheck};
pub use commands::last_exit_code;
pub(crate) use errors::{is_error_line, may_have_errors};
pub use observe::{Observation, Observer};
pub use prose::{is_harness_note, typed_text};
pub use render::{details_section, extract_text, sections_text, DETAILS_HEADING};

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

/// Builds the ledger of `messages`, which must be in thread order.
pub fn build_ledger(messages: &[&Message]) -> Ledger {
    let observations = observe::observe_all(messages);
    let refs: Vec<&Observation> = observations.iter().collect();
    merge::merge(&refs, Excerpt::Selection)
}

/// The ledger of observations made one message at a time, in thread order (a fit keeps them
/// per message and merges those of any run of steps). The steps are cut out of their
/// conversation: prose before their first request answers a request before them.
pub fn ledger_of(observations: &[&Observation]) -> Ledger {
    merge::merge(observations, Excerpt::Steps)
}

/// What the observations of a ledger are, for which prose is an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Excerpt {
    /// Messages a person selected: an answer is the last prose after a request they hold, so
    /// that a squash is not asked to restate what its selection merely continues.
    Selection,
    /// Steps of a fit, each rendered on its own: the last prose before each request they hold
    /// and at their end answers a request, theirs or one before them.
    Steps,
}

#[cfg(test)]
mod tests;
