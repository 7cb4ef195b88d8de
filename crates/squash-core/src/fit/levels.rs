//! The levels of a fit, and the order the planner takes them in.
//!
//! From verbatim down, a message is trimmed to the lines that carry facts (level 1), a step
//! becomes its one-line extract (2), a run of steps its extract or a model's squash (3), runs
//! in a row merge into one extract (4), and a whole group of runs becomes a terse extract (5).
//! A [`FitStrategy`] names the levels it may use; the planner takes the units of each level in
//! turn, oldest first ([`degrade_order`]), until the thread fits, and gives back the newest
//! while the budget has room.

use serde::{Deserialize, Serialize};

use super::brief::BRIEF_DEPTHS;
use super::runs::digest_sizes;

/// What a fit may do to the steps it does not keep.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FitStrategy {
    /// Only trim: old tool outputs keep the lines that carry facts; no model.
    Mask,
    /// Every level, no model: trim, then one-line extracts, then runs' extracts.
    #[default]
    Extract,
    /// Runs squashed by the model (checked against the ledger), oldest first.
    Ai,
    /// Every level, with the runs' extracts of the oldest runs replaced by the model's
    /// faithful squashes.
    Hybrid,
}

crate::named_enum!(FitStrategy {
    Mask => "mask",
    Extract => "extract",
    Ai => "ai",
    Hybrid => "hybrid",
});

impl FitStrategy {
    /// The levels this strategy degrades steps through, in order.
    pub(crate) fn levels(self) -> &'static [StepAction] {
        match self {
            FitStrategy::Mask => &[StepAction::Trim],
            FitStrategy::Extract => &[
                StepAction::Trim,
                StepAction::Line,
                StepAction::Extract,
                StepAction::Digest,
            ],
            FitStrategy::Ai => &[StepAction::Ai],
            FitStrategy::Hybrid => &[
                StepAction::Trim,
                StepAction::Line,
                StepAction::Ai,
                StepAction::Digest,
            ],
        }
    }

    /// Whether carrying out a plan of this strategy may ask a model.
    pub fn needs_model(self) -> bool {
        self.levels().contains(&StepAction::Ai)
    }
}

/// What one step does to its sources: the levels a step goes through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepAction {
    /// One message trimmed to the lines that carry facts (same ids, same pairing).
    Trim,
    /// One step (a message, or a call with its result) becomes its one-line extract.
    Line,
    /// A run of steps becomes its fact ledger.
    Extract,
    /// A run of steps becomes a model's summary, checked against the ledger and repaired.
    Ai,
    /// The whole work between two kept messages (what answered one request), or its oldest
    /// part, becomes one digest: every fact once, every file by path, the commands that
    /// mattered, errors with their fixes, decisions, what was left open.
    Digest,
}

crate::named_enum!(StepAction {
    Trim => "trim",
    Line => "line",
    Extract => "extract",
    Ai => "ai",
    Digest => "digest",
});

impl StepAction {
    /// How far down the levels: a step replaces the steps of lower levels it covers.
    pub fn level(self) -> u8 {
        match self {
            StepAction::Trim => 1,
            StepAction::Line => 2,
            StepAction::Extract | StepAction::Ai | StepAction::Digest => 3,
        }
    }
}

/// One thing the planner can do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unit {
    /// Trim a message (by position).
    Trim(usize),
    /// Replace a step (by index) by its line.
    Line(usize),
    /// Replace a run of steps (by index) by its extract.
    Run(usize),
    /// Merge the first `n` (≥ 2) runs of a group (by index) into one extract.
    Merge(usize, usize),
    /// Replace a whole group by its terse extract.
    Terse(usize),
    /// Replace the first `n` groups of a span (by index) by their digest.
    Digest(usize, usize),
    /// Replace a whole span by its lean digest at a depth (0: lean; 1 ..= `BRIEF_DEPTHS`:
    /// brief).
    Lean(usize, u8),
    /// Replace a whole span by the brief digest that keeps this many of its facts other than
    /// the files: the fill of the room its depth left ([`super::extracts::fuller_brief`]).
    Brief(usize, usize),
}

impl Unit {
    pub(crate) fn level(self) -> u8 {
        match self {
            Unit::Trim(_) => 1,
            Unit::Line(_) => 2,
            Unit::Run(_) => 3,
            Unit::Merge(..) => 4,
            Unit::Terse(_) => 5,
            Unit::Digest(..) => 6,
            Unit::Lean(..) | Unit::Brief(..) => 7,
        }
    }
}

/// What the planner can take units of, oldest first: the messages a trim may touch, the steps
/// that may become their lines, how many runs there are, how many runs each group holds and
/// how many groups each span.
pub(crate) struct Degradable {
    pub trimmable: Vec<usize>,
    pub removable_steps: Vec<usize>,
    pub runs: usize,
    pub group_runs: Vec<usize>,
    pub span_groups: Vec<usize>,
    /// The deepest a span's lean digest may go (0: lean, never brief).
    pub deepest: u8,
}

/// Every unit the planner may take, in the order it takes them: level by level as `strategy`
/// lists them, the oldest first within a level; the runs' level ends with their merges and the
/// groups' terse extracts.
pub(crate) fn degrade_order(strategy: FitStrategy, d: &Degradable) -> Vec<Unit> {
    let mut units = Vec::new();
    for level in strategy.levels() {
        match level {
            StepAction::Trim => units.extend(d.trimmable.iter().copied().map(Unit::Trim)),
            StepAction::Line => units.extend(d.removable_steps.iter().copied().map(Unit::Line)),
            StepAction::Extract | StepAction::Ai => {
                units.extend((0..d.runs).map(Unit::Run));
                for (g, &runs) in d.group_runs.iter().enumerate() {
                    units.extend((2..=runs).map(|n| Unit::Merge(g, n)));
                }
                units.extend((0..d.group_runs.len()).map(Unit::Terse));
            }
            StepAction::Digest => {
                for (sp, &groups) in d.span_groups.iter().enumerate() {
                    units.extend(
                        digest_sizes(groups)
                            .into_iter()
                            .map(|n| Unit::Digest(sp, n)),
                    );
                }
                // Depth by depth, so that no span is briefer than an older one.
                for depth in 0..=d.deepest.min(BRIEF_DEPTHS) {
                    units.extend((0..d.span_groups.len()).map(|sp| Unit::Lean(sp, depth)));
                }
            }
        }
    }
    units
}
