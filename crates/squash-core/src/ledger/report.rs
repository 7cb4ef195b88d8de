//! The part of a squash's quality report that speaks in facts.

use serde::{Deserialize, Serialize};

use super::{Fact, FactKind, Ledger};
use crate::ids::MessageId;
use crate::prompt::SquashStyle;

/// One fact as reported: what it is, what it says, where it came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FactEntry {
    pub kind: FactKind,
    pub text: String,
    pub source: MessageId,
}

impl From<&Fact> for FactEntry {
    fn from(f: &Fact) -> Self {
        FactEntry {
            kind: f.kind,
            text: f.text.clone(),
            source: f.source,
        }
    }
}

/// What happened to a term the model invented. It is never left in the applied text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InventedOutcome {
    /// The repair request's answer no longer has it.
    RemovedByRepair,
    /// The sentences holding it were cut from the answer.
    SentenceDropped,
    /// The whole answer was replaced by the extractive squash.
    AnswerReplaced,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InventedTerm {
    pub term: String,
    pub outcome: InventedOutcome,
}

/// The ledger against the result.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FactReport {
    /// Facts in the ledger.
    pub total: usize,
    /// Facts the model's own text states.
    pub kept: Vec<FactEntry>,
    /// Facts the model left out, even after a repair request, appended under "Details:".
    pub restored: Vec<FactEntry>,
    /// Facts the applied text does not state at all (empty unless the text was edited by hand).
    pub missing: Vec<FactEntry>,
    /// Terms the model introduced that the messages never had, and what was done about them.
    pub invented: Vec<InventedTerm>,
}

impl FactReport {
    /// Splits `ledger` by the indexes the model kept and the ones restored; the rest missing.
    pub fn new(
        ledger: &Ledger,
        kept: &[usize],
        restored: &[usize],
        invented: Vec<InventedTerm>,
    ) -> FactReport {
        let mut report = FactReport {
            total: ledger.len(),
            invented,
            ..FactReport::default()
        };
        for (i, fact) in ledger.facts.iter().enumerate() {
            let entry = FactEntry::from(fact);
            if kept.contains(&i) {
                report.kept.push(entry);
            } else if restored.contains(&i) {
                report.restored.push(entry);
            } else {
                report.missing.push(entry);
            }
        }
        report
    }

    /// Facts the applied text states, in the model's words or restored.
    pub fn stated(&self) -> usize {
        self.kept.len() + self.restored.len()
    }
}

/// The result is not what was asked for: another style had to stand in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fallback {
    /// The style applied instead.
    pub style: SquashStyle,
    /// Why, in words.
    pub reason: String,
    /// Why, as a kind (records from before it was kept read as [`FallbackCause::Unusable`]).
    #[serde(default)]
    pub cause: FallbackCause,
}

/// Why another style stood in for the one asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FallbackCause {
    /// The model gave no usable answer (after a repair request), or one that invented terms.
    #[default]
    Unusable,
    /// The answer was over the size limit and the facts alone are shorter.
    TooLong,
}

/// The size limit of a squash ([`size_limit`]) and what the applied text came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SizeLimit {
    /// Estimated tokens of the selection.
    pub selection_tokens: u64,
    /// The most the applied text may have.
    pub limit_tokens: u64,
    /// Estimated tokens of the applied text.
    pub applied_tokens: u64,
}

impl SizeLimit {
    /// The limit of a `selection_tokens` selection against an applied text of
    /// `applied_tokens`; `None` below [`SIZE_LIMIT_FROM_TOKENS`].
    pub fn of(selection_tokens: u64, applied_tokens: u64) -> Option<SizeLimit> {
        size_limit(selection_tokens).map(|limit_tokens| SizeLimit {
            selection_tokens,
            limit_tokens,
            applied_tokens,
        })
    }

    /// The applied text is over the limit: its facts alone need more.
    pub fn exceeded(&self) -> bool {
        self.applied_tokens > self.limit_tokens
    }
}

/// Selections smaller than this have no size limit: a few lines need no squash to be short.
pub const SIZE_LIMIT_FROM_TOKENS: u64 = 200;
/// A squash of a larger selection is at most this share of it, in percent.
pub const SIZE_LIMIT_PERCENT: u64 = 40;

/// The most tokens the squash of a `selection_tokens` selection may have; `None` below
/// [`SIZE_LIMIT_FROM_TOKENS`].
pub fn size_limit(selection_tokens: u64) -> Option<u64> {
    (selection_tokens >= SIZE_LIMIT_FROM_TOKENS)
        .then(|| selection_tokens * SIZE_LIMIT_PERCENT / 100)
}
