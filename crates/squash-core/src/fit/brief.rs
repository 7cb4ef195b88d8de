//! The last level of a fit without a model: a lean digest cut down, depth by depth, to the
//! facts that tell most. Every file touched stays at every depth (the agent goes on with them),
//! every request at every depth but the last (a folded request is said nowhere else, so it goes
//! only when nothing else is left to give the budget); of the other facts each depth keeps an eighth fewer, the most telling, the last
//! depth none: fine steps, so that the budget is reached with as few facts gone as it allows. What a brief digest leaves out stays one recall away, like everything a fit
//! takes out — so that any budget down to what stays as it is can be reached.

use std::cmp::Reverse;
use std::collections::HashSet;

use crate::ledger::{FactKind, Ledger};

/// Depths below the lean digest: seven eighths of its other facts, three quarters, …, none.
pub(crate) const BRIEF_DEPTHS: u8 = 8;

/// What a brief digest at `depth` (1 ..= [`BRIEF_DEPTHS`]) keeps of `lean`.
pub(crate) fn brief(lean: &Ledger, depth: u8) -> Ledger {
    let mut others: Vec<usize> = (0..lean.facts.len())
        .filter(|&i| !always_kept(lean.facts[i].kind, depth))
        .collect();
    let left = usize::from(BRIEF_DEPTHS.saturating_sub(depth));
    let kept = (others.len() * left).div_ceil(usize::from(BRIEF_DEPTHS));
    // Most telling first; between facts of one rank, the newer (the ledger keeps the
    // conversation's order within a kind).
    others.sort_by_key(|&i| (rank(lean, i), Reverse(i)));
    let keep: HashSet<usize> = others.into_iter().take(kept).collect();
    let facts = lean
        .facts
        .iter()
        .enumerate()
        .filter(|(i, f)| always_kept(f.kind, depth) || keep.contains(i))
        .map(|(_, f)| f.clone())
        .collect();
    Ledger { facts }
}

fn always_kept(kind: FactKind, depth: u8) -> bool {
    kind == FactKind::File || kind == FactKind::Request && depth < BRIEF_DEPTHS
}

/// How telling a fact is, lowest first: what broke and what fixed it, what
/// was decided, the commits made, what was left open, the runs that failed and those that
/// printed counts (a test tally), the answers, then the values and the other runs.
fn rank(ledger: &Ledger, i: usize) -> u8 {
    let fact = &ledger.facts[i];
    let said = fact.text.split_once(" → ").map(|(_, how)| how);
    match fact.kind {
        FactKind::Fix => 1,
        FactKind::Error => 2,
        FactKind::Decision => 3,
        FactKind::Command if said.is_some_and(|how| how.contains(": [")) => 4,
        FactKind::OpenItem => 5,
        FactKind::Command if said.is_some_and(|how| how.contains("failed")) => 6,
        FactKind::Command if said.is_some_and(|how| how.contains(|c: char| c.is_ascii_digit())) => {
            7
        }
        FactKind::Answer => 8,
        FactKind::Value => 9,
        FactKind::Command | FactKind::File | FactKind::Request => 10,
    }
}

#[cfg(test)]
mod tests {
    use super::{brief, BRIEF_DEPTHS};
    use crate::ids::MessageId;
    use crate::ledger::{Fact, FactKind, Ledger};

    fn fact(kind: FactKind, text: &str) -> Fact {
        Fact {
            kind,
            text: text.to_owned(),
            anchors: vec![text.to_owned()],
            source: MessageId::new(),
        }
    }

    fn texts(l: &Ledger) -> Vec<&str> {
        l.facts.iter().map(|f| f.text.as_str()).collect()
    }

    #[test]
    fn each_depth_keeps_every_file_and_request_and_the_most_telling_of_the_rest_the_last_only_files(
    ) {
        let lean = Ledger {
            facts: vec![
                fact(FactKind::Request, "asked"),
                fact(FactKind::File, "Edited src/a.rs"),
                fact(FactKind::Command, "`ls` → ok"),
                fact(FactKind::Command, "`git commit` → ok: [main 1a2b3c4]"),
                fact(FactKind::Fix, "fixed E0425"),
                fact(FactKind::Value, "42"),
                fact(FactKind::File, "Read src/b.rs"),
                fact(FactKind::Answer, "it works"),
            ],
        };
        // The files stay, and the request but at the last depth; of the five other facts, at
        // depth 4 of 8 three (rounded up), at 6 two, at 7 one, at 8 none.
        assert_eq!(
            texts(&brief(&lean, 4)),
            [
                "asked",
                "Edited src/a.rs",
                "`git commit` → ok: [main 1a2b3c4]",
                "fixed E0425",
                "Read src/b.rs",
                "it works"
            ]
        );
        assert_eq!(
            texts(&brief(&lean, 6)),
            [
                "asked",
                "Edited src/a.rs",
                "`git commit` → ok: [main 1a2b3c4]",
                "fixed E0425",
                "Read src/b.rs"
            ]
        );
        assert_eq!(
            texts(&brief(&lean, 7)),
            ["asked", "Edited src/a.rs", "fixed E0425", "Read src/b.rs"]
        );
        assert_eq!(
            texts(&brief(&lean, BRIEF_DEPTHS)),
            ["Edited src/a.rs", "Read src/b.rs"]
        );
    }

    #[test]
    fn between_facts_of_one_rank_the_newer_stays() {
        let lean = Ledger {
            facts: vec![
                fact(FactKind::Command, "`make` → ok"),
                fact(FactKind::Command, "`make test` → ok"),
            ],
        };
        assert_eq!(texts(&brief(&lean, 4)), ["`make test` → ok"]);
    }
}
