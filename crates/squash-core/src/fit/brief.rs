//! The last level of a fit without a model: a lean digest cut down, depth by depth, to the
//! facts that tell most. Every file touched stays at every depth (the agent goes on with
//! them); of the other facts each depth keeps fewer, the most telling — an eighth fewer at a
//! time down to an eighth, then half as many at each depth down to none — so that the budget
//! is reached with as few facts gone as it allows, in a span of ten facts as in one of ten
//! thousand. What a brief digest leaves out stays one recall away, like everything a fit takes
//! out, so that any budget down to what stays as it is can be reached.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

use crate::ledger::{FactKind, Ledger};

/// Depths below the lean digest: seven eighths of its other facts, three quarters, …, an
/// eighth, then a sixteenth, a thirty-second, …, then none.
pub(crate) const BRIEF_DEPTHS: u8 = 16;
const EIGHTHS: u8 = 8;

/// How many of `n` facts a brief digest at `depth` keeps.
pub(crate) fn kept(n: usize, depth: u8) -> usize {
    match depth {
        d if d >= BRIEF_DEPTHS => 0,
        d if d < EIGHTHS => (n * usize::from(EIGHTHS - d)).div_ceil(usize::from(EIGHTHS)),
        d => n.div_ceil(1 << (d - EIGHTHS + 4)),
    }
}

/// What a brief digest at `depth` (1 ..= [`BRIEF_DEPTHS`]) keeps of `lean`.
pub(crate) fn brief(lean: &Ledger, depth: u8) -> Ledger {
    let ranked = Ranked::new(lean);
    ranked.keeping(kept(ranked.others(), depth))
}

/// A lean digest's facts other than the files, most telling first: what any brief digest of
/// it keeps is a prefix of them. Ranked once, so that the briefs of many sizes of one digest
/// cost a sort in all.
pub(crate) struct Ranked<'a> {
    lean: &'a Ledger,
    others: Vec<usize>,
}

impl<'a> Ranked<'a> {
    pub fn new(lean: &'a Ledger) -> Ranked<'a> {
        let others: Vec<usize> = (0..lean.facts.len())
            .filter(|&i| lean.facts[i].kind != FactKind::File)
            .collect();
        let terms: Vec<Vec<String>> = others
            .iter()
            .map(|&i| lowered(&lean.facts[i].anchors))
            .collect();
        let ranks: Vec<u8> = others.iter().map(|&i| rank(lean, i)).collect();
        let sizes: Vec<usize> = others.iter().map(|&i| lean.facts[i].text.len()).collect();
        // The files are said at every depth: what they name is stated already.
        let mut stated: HashSet<String> = lean
            .facts
            .iter()
            .filter(|f| f.kind == FactKind::File)
            .flat_map(|f| lowered(&f.anchors))
            .collect();
        let key = |j: usize, stated: &HashSet<String>| {
            let new = terms[j].iter().filter(|t| !stated.contains(*t)).count();
            order_key(ranks[j], new, sizes[j], others[j])
        };
        // Most telling first, each fact for what it adds to the ones before it: a fact's key
        // only worsens as others are taken, so a fact whose key still holds when it comes up
        // is the best left (a lazy greedy: each fact keyed a few times, not once per taken
        // fact — a digest of a long session holds a hundred thousand).
        let mut heap: BinaryHeap<Reverse<(OrderKey, usize)>> = (0..others.len())
            .map(|j| Reverse((key(j, &stated), j)))
            .collect();
        let mut order = Vec::with_capacity(others.len());
        while let Some(Reverse((was, j))) = heap.pop() {
            let now = key(j, &stated);
            if now != was {
                heap.push(Reverse((now, j)));
                continue;
            }
            stated.extend(terms[j].iter().cloned());
            order.push(others[j]);
        }
        Ranked {
            lean,
            others: order,
        }
    }

    /// How many facts other than the files the lean digest holds.
    pub fn others(&self) -> usize {
        self.others.len()
    }

    /// The brief digest that keeps every file and the `n` most telling other facts, in the
    /// lean digest's order.
    pub fn keeping(&self, n: usize) -> Ledger {
        let keep: HashSet<usize> = self.others.iter().take(n).copied().collect();
        let facts = self
            .lean
            .facts
            .iter()
            .enumerate()
            .filter(|(i, f)| f.kind == FactKind::File || keep.contains(i))
            .map(|(_, f)| {
                let mut f = f.clone();
                // The briefest says each file by its path alone, not the names its edits
                // brought in: the smallest size a fit reaches stays what the files need.
                if n == 0 {
                    f.anchors.truncate(1);
                }
                f
            })
            .collect();
        Ledger { facts }
    }
}

/// Where a fact goes in a brief digest's order, first first: of what it names, how much no
/// fact before it named.
type OrderKey = (u8, Reverse<usize>, u8, Reverse<usize>);

/// The order key of the fact at `i` of rank `rank`, `size` bytes long, that names `new` terms
/// not named before it: a folded request first (it is said nowhere else); then the facts of
/// the telling kinds (fixes, errors, decisions, commits, open items) that name something new,
/// by rank; then the other facts that name something new, those naming most for their length
/// first (a budget holds more of them so); last what names nothing new (an ssh banner each
/// run printed, a run of a command said already), by rank; between equals, the newer.
fn order_key(rank: u8, new: usize, size: usize, i: usize) -> OrderKey {
    // New terms per token, in thousandths: a token is about four bytes.
    let density = new * 1000 / (size / 4 + 1);
    let (tier, most) = match (rank, new) {
        (0, _) => (0, 0),
        (_, 0) => (3, 0),
        (1..=TELLING, _) => (1, 0),
        _ => (2, density),
    };
    (tier, Reverse(most), rank, Reverse(i))
}

/// The last rank of the telling kinds (see [`rank`]).
const TELLING: u8 = 5;

fn lowered(anchors: &[String]) -> Vec<String> {
    let mut terms: Vec<String> = anchors.iter().map(|a| a.to_lowercase()).collect();
    terms.sort_unstable();
    terms.dedup();
    terms
}

/// How telling a fact is, lowest first: what was asked (a folded request is said nowhere
/// else), what broke and what fixed it, what was decided, the commits made, what was left
/// open, the runs that failed and those that printed counts (a test tally), the answers, then
/// the values and the other runs.
fn rank(ledger: &Ledger, i: usize) -> u8 {
    let fact = &ledger.facts[i];
    let said = fact.text.split_once(" → ").map(|(_, how)| how);
    match fact.kind {
        FactKind::Request => 0,
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
        FactKind::Command | FactKind::File => 10,
    }
}

#[cfg(test)]
mod tests {
    use super::{brief, kept, BRIEF_DEPTHS};
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
        // The files stay; of the six other facts, at depth 4 three, at 6 two (rounded up), at
        // 7 one, and at 8 (a sixteenth) still one; at the last none.
        assert_eq!(
            texts(&brief(&lean, 4)),
            [
                "asked",
                "Edited src/a.rs",
                "`git commit` → ok: [main 1a2b3c4]",
                "fixed E0425",
                "Read src/b.rs"
            ]
        );
        assert_eq!(
            texts(&brief(&lean, 6)),
            ["asked", "Edited src/a.rs", "fixed E0425", "Read src/b.rs"]
        );
        assert_eq!(texts(&brief(&lean, 7)), texts(&brief(&lean, 8)));
        assert_eq!(
            texts(&brief(&lean, 7)),
            ["asked", "Edited src/a.rs", "Read src/b.rs"]
        );
        assert_eq!(
            texts(&brief(&lean, BRIEF_DEPTHS)),
            ["Edited src/a.rs", "Read src/b.rs"]
        );
    }

    #[test]
    fn only_the_briefest_says_a_file_by_its_path_alone() {
        let edited = Fact {
            anchors: vec!["src/a.rs".to_owned(), "parse_line".to_owned()],
            ..fact(FactKind::File, "Edited src/a.rs (parse_line)")
        };
        let lean = Ledger {
            facts: vec![edited, fact(FactKind::Fix, "fixed E0425")],
        };
        assert_eq!(brief(&lean, 1).facts[0].anchors, ["src/a.rs", "parse_line"]);
        assert_eq!(brief(&lean, BRIEF_DEPTHS).facts[0].anchors, ["src/a.rs"]);
    }

    #[test]
    fn depths_go_by_eighths_then_by_halves_down_to_none() {
        let counts: Vec<usize> = (1..=BRIEF_DEPTHS).map(|d| kept(10_000, d)).collect();
        assert_eq!(
            counts,
            [8750, 7500, 6250, 5000, 3750, 2500, 1250, 625, 313, 157, 79, 40, 20, 10, 5, 0]
        );
    }

    #[test]
    fn a_fact_that_names_nothing_new_goes_after_one_that_does() {
        let run = |text: &str, anchors: &[&str]| Fact {
            anchors: anchors.iter().map(|a| (*a).to_owned()).collect(),
            ..fact(FactKind::Command, text)
        };
        let lean = Ledger {
            facts: vec![
                run(
                    "`ssh a 'redis-cli ping'` → ok: Ubuntu 24.04",
                    &["ssh", "24.04"],
                ),
                run("`ssh a 'ss -ltn'` → ok: Ubuntu 24.04", &["ssh", "24.04"]),
                Fact {
                    anchors: vec!["0.0.0.0:6379".to_owned()],
                    ..fact(FactKind::Value, "Redis listens on 0.0.0.0:6379")
                },
            ],
        };
        // Two of three: the second run's banner says nothing the first did not.
        assert_eq!(
            texts(&brief(&lean, 3)),
            [
                "`ssh a 'ss -ltn'` → ok: Ubuntu 24.04",
                "Redis listens on 0.0.0.0:6379"
            ]
        );
    }

    #[test]
    fn between_facts_of_one_rank_the_newer_stays_and_of_two_sizes_the_shorter() {
        let lean = Ledger {
            facts: vec![
                fact(FactKind::Command, "`make lint` → ok"),
                fact(FactKind::Command, "`make test` → ok"),
            ],
        };
        assert_eq!(texts(&brief(&lean, 4)), ["`make test` → ok"]);
        // Each names one new term: the shorter names more for its length.
        let lean = Ledger {
            facts: vec![
                fact(FactKind::Command, "`make` → ok"),
                fact(
                    FactKind::Command,
                    "`make test --all-features --workspace` → ok",
                ),
            ],
        };
        assert_eq!(texts(&brief(&lean, 4)), ["`make` → ok"]);
    }
}
