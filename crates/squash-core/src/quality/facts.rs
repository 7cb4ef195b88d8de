//! The part of a squash's quality report that speaks in facts: the fact ledger against the
//! applied text, and what became of the terms the model invented.

use serde::{Deserialize, Serialize};

use crate::ids::MessageId;
use crate::ledger::{Fact, FactKind, Ledger};

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
    /// Facts the model left out, even after a repair request, added as lines of the note.
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
