//! The shorter ledgers the extracts of runs and spans are written from: a terse ledger (each
//! command with how it ended, the notes that state a number or a path), a digest (the terse
//! ledger with its looks around said in one line: how often, for what, the commits they
//! named) and a lean digest (only those commits).

use crate::ledger::{exploration, Fact, FactKind, Ledger, Look};
use crate::text::patterns;

/// What a terse extract keeps of `ledger` (see `Form::Terse`).
pub(super) fn terse(ledger: &Ledger) -> Ledger {
    // The answer the run ends with is what its request got: it stays, whatever it states.
    let last_answer = ledger
        .facts
        .iter()
        .rfind(|f| f.kind == FactKind::Answer)
        .map(|f| f.source);
    let facts = ledger
        .facts
        .iter()
        .filter_map(|f| {
            let mut f = f.clone();
            match f.kind {
                FactKind::Command => f.text = terse_command(&f.text),
                FactKind::Answer | FactKind::Value => {
                    let keeps = f.text.chars().any(|c| c.is_ascii_digit())
                        || f.text.contains('/')
                        || f.kind == FactKind::Answer && Some(f.source) == last_answer;
                    if !keeps {
                        return None;
                    }
                }
                _ => {}
            }
            Some(f)
        })
        .collect();
    Ledger { facts }
}

/// What a digest says of the looks around (listings, searches, reads of the history that ended
/// well): one line of what looked and how often, with the commits they named, or only those.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Looks {
    Listed,
    CommitsOnly,
}

/// What a digest keeps of `ledger` (see `Form::Digest`): the terse ledger, its looks around
/// said in one line.
pub(super) fn digest(ledger: &Ledger, looks: Looks) -> Ledger {
    let mut looked: Vec<(String, usize)> = Vec::new();
    let mut commits: Vec<&str> = Vec::new();
    let mut sought: Vec<(String, usize)> = Vec::new();
    // Where the work stood, as the last look at it said.
    let mut branch: Option<String> = None;
    let mut first = None;
    let mut facts = Vec::new();
    for f in &ledger.facts {
        let Some(Look { what, times, asked }) = exploration(f) else {
            facts.push(f.clone());
            continue;
        };
        first.get_or_insert(f.source);
        if what == "git status" {
            branch = branch_shown(&f.text).or(branch);
        }
        for term in looked_for(asked, &what) {
            match sought.iter_mut().find(|(t, _)| *t == term) {
                Some((_, n)) => *n += 1,
                None => sought.push((term, 1)),
            }
        }
        match looked.iter_mut().find(|(w, _)| *w == what) {
            Some((_, n)) => *n += times,
            None => looked.push((what, times)),
        }
        for hash in commits_named(&f.text) {
            if !commits.contains(&hash) && commits.len() < COMMITS_LISTED {
                commits.push(hash);
            }
        }
    }
    let mut out = terse(&Ledger { facts });
    let sought = most_sought(sought, &out, &commits);
    let text = match looks {
        Looks::Listed if !looked.is_empty() => {
            let list: Vec<String> = looked
                .iter()
                .map(|(w, n)| match n {
                    1 => format!("`{w}`"),
                    n => format!("`{w}` ×{n}"),
                })
                .collect();
            let mut text = format!("Looked around: {}", list.join(", "));
            let mut said = Vec::new();
            if !sought.is_empty() {
                said.push(format!("for {}", sought.join(", ")));
            }
            if let Some(branch) = &branch {
                said.push(format!("on branch {branch}"));
            }
            if !commits.is_empty() {
                said.push(format!("commits named: {}", commits.join(", ")));
            }
            if !said.is_empty() {
                text.push_str(&format!(" ({})", said.join("; ")));
            }
            Some(text)
        }
        _ if !commits.is_empty() => Some(format!("Commits named: {}", commits.join(", "))),
        _ => None,
    };
    if let (Some(text), Some(source)) = (text, first) {
        // In the commands' section: the ledger is in the order of its kinds.
        let at = out
            .facts
            .iter()
            .position(|f| f.kind > FactKind::Command)
            .unwrap_or(out.facts.len());
        let anchors = commits
            .iter()
            .map(|c| (*c).to_owned())
            .chain(
                sought
                    .into_iter()
                    .chain(branch)
                    .filter(|_| looks == Looks::Listed),
            )
            .collect();
        out.facts.insert(
            at,
            Fact {
                kind: FactKind::Command,
                text,
                anchors,
                source,
            },
        );
    }
    out
}

/// Commits a digest lists of its looks around at most.
const COMMITS_LISTED: usize = 8;

/// Terms a digest says its looks around were for, at most.
const SOUGHT_LISTED: usize = 8;

/// What a look around (a search, a read of the history) was for: the names and hashes its
/// command or its search tool's pattern gives — what the work was after, which its count
/// ("`grep` ×5") does not say. Not the program, flags, numbers, or paths: a path is long and
/// says where, not what (the files read are listed apart); with paths the digests of 34
/// published sessions kept no more hand facts at their agents' sizes than without.
fn looked_for(asked: &str, what: &str) -> Vec<String> {
    crate::terms::in_text_order(&crate::terms::salient_terms(asked), asked)
        .into_iter()
        .filter(|t| {
            t.len() >= 4
                && t != what
                && !t.starts_with('-')
                && !t.contains('/')
                && !t.contains(' ')
                && t.chars().any(char::is_alphabetic)
        })
        .collect()
}

/// Of the terms the looks around were for, those no other fact of the digest states, the
/// most sought first (then in the order sought), at most [`SOUGHT_LISTED`].
fn most_sought(mut sought: Vec<(String, usize)>, digest: &Ledger, commits: &[&str]) -> Vec<String> {
    let stated = stated(digest.facts.iter());
    sought.retain(|(t, _)| !commits.contains(&t.as_str()) && !stated.contains(&t.to_lowercase()));
    // A stable sort: between equals, the order sought.
    sought.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
    sought
        .into_iter()
        .take(SOUGHT_LISTED)
        .map(|(t, _)| t)
        .collect()
}

/// What `facts` state, lowercase, one fact a line: what a term is looked up in.
fn stated<'a>(facts: impl Iterator<Item = &'a Fact>) -> String {
    facts
        .map(|f| f.text.to_lowercase())
        .collect::<Vec<_>>()
        .join("\n")
}

/// What a lean digest keeps of `ledger` (see `Form::Lean`, depth 0): a digest whose looks around are
/// only the commits they named, without the notes the other facts state.
pub(super) fn lean(ledger: &Ledger) -> Ledger {
    let mut lean = digest(ledger, Looks::CommitsOnly);
    // A note whose every term another fact states (a flag's value in the command that set
    // it) says nothing the digest does not.
    let stated = stated(lean.facts.iter().filter(|f| f.kind != FactKind::Value));
    lean.facts.retain(|f| {
        f.kind != FactKind::Value || !f.anchors.iter().all(|a| stated.contains(&a.to_lowercase()))
    });
    lean
}

/// "Ran `X` → ok: 56 lines, e.g. …, then failed (exit 1): 3 tests, 1 failure" →
/// "`X` → ok, then failed (exit 1): 3 tests, 1 failure"; a report keeps its first sentence.
pub(super) fn terse_command(text: &str) -> String {
    if let Some((call, said)) = text.split_once(" reported: ") {
        let first = said.split(". ").next().unwrap_or(said);
        return format!("{call} reported: {first}");
    }
    let text = text.strip_prefix("Ran ").unwrap_or(text);
    let Some((what, outcomes)) = text.split_once(" → ") else {
        return text.to_owned();
    };
    let outcomes: Vec<String> = outcomes
        .split(", then ")
        .map(|o| match o.split_once(": ") {
            Some((status, found)) => {
                let kept = what_a_run_found(found);
                if kept.is_empty() {
                    status.to_owned()
                } else {
                    format!("{status}: {}", kept.join(", "))
                }
            }
            None => o.to_owned(),
        })
        .collect();
    format!("{what} → {}", outcomes.join(", then "))
}

/// What a terse command keeps of what its run found: the commit it made, else the counts it
/// printed and the commits it named, else a short line with a number in it whole ("Updated
/// punt-tts v0.1.0 -> v0.8.1": what it printed is already small).
fn what_a_run_found(found: &str) -> Vec<&str> {
    if let Some(commit) = COMMIT.find(found) {
        return vec![commit.as_str()];
    }
    let counts = TALLY.find_iter(found).take(TALLIES_KEPT);
    let hashes = HASH
        .find_iter(found)
        .filter(|h| is_hash(h.as_str()))
        .take(HASHES_KEPT);
    let kept: Vec<&str> = counts.chain(hashes).map(|m| m.as_str()).collect();
    let short = found.chars().count() <= SHORT_FOUND_CHARS && !found.contains('…');
    if kept.is_empty() && short && found.bytes().any(|b| b.is_ascii_digit()) {
        return vec![found];
    }
    kept
}

/// What a run found that a terse command keeps whole, at most.
const SHORT_FOUND_CHARS: usize = 48;

/// Counts and commit hashes a terse command keeps of one run at most.
const TALLIES_KEPT: usize = 3;
const HASHES_KEPT: usize = 3;

/// Whether a run of hex digits is a commit's hash rather than a number or a word: it has both.
fn is_hash(hex: &str) -> bool {
    hex.bytes().any(|b| b.is_ascii_digit()) && hex.bytes().any(|b| b.is_ascii_alphabetic())
}

/// The branch a look at the work's state showed, with how far it is from its upstream:
/// `git status`'s "On branch feat/x", `--short --branch`'s "## main...origin/main [behind 2]".
fn branch_shown(text: &str) -> Option<String> {
    let caps = BRANCH.captures(text)?;
    let name = caps.get(1).or_else(|| caps.get(2))?.as_str();
    Some(match caps.get(3) {
        Some(state) => format!("{name} ({})", state.as_str()),
        None => name.to_owned(),
    })
}

/// The commits a fact names: the one a run made, or the hashes it printed.
fn commits_named(text: &str) -> Vec<&str> {
    let made = COMMIT.find_iter(text).map(|m| m.as_str());
    let printed = HASH
        .find_iter(text)
        .map(|m| m.as_str())
        .filter(|h| is_hash(h));
    made.chain(printed).collect()
}

patterns! {
    /// A branch `git status` shows: its long form's first line, its short form's header.
    BRANCH = r"On branch ([\w./-]+)|## ([\w./-]+?)(?:\.\.\.[\w./-]+)?(?: \[((?:ahead|behind) \d+(?:, behind \d+)?)\])?(?:[\s;]|$)";

    /// Counts a run printed: "43 tests, 0 failures", "4 passed; 1 failed", "0 issues",
    /// "53 deletions".
    TALLY = r"(?i)\d+ (?:tests?|passed|failed|failures?|errors?|doctests?|files?|lines?|issues?|warnings?|insertions?|deletions?)(?:[,;] \d+ (?:tests?|passed|failed|failures?|errors?|ignored|skipped))*";

    /// A short commit hash as `git log --oneline` prints it.
    HASH = r"(?-u:\b)[0-9a-f]{7,12}(?-u:\b)";

    /// A commit a run made: `[branch 1a2b3c4]` or `1a2b3c4..5d6e7f8`.
    COMMIT = r"\[[\w./-]+ [0-9a-f]{7,40}\]|(?-u:\b)[0-9a-f]{7,40}\.\.[0-9a-f]{7,40}(?-u:\b)";
}

#[cfg(test)]
mod tests {
    use super::terse_command;

    #[test]
    fn a_terse_command_keeps_how_it_ended_and_its_counts() {
        assert_eq!(
            terse_command("Ran `bd show x` → ok: 56 lines, e.g. ○ x [EPIC] · Single…"),
            "`bd show x` → ok: 56 lines"
        );
        assert_eq!(
            terse_command("Ran `mix test` → failed (exit 2): 13 tests, 1 failure, then ok: 13 tests, 0 failures"),
            "`mix test` → failed (exit 2): 13 tests, 1 failure, then ok: 13 tests, 0 failures"
        );
        assert_eq!(
            terse_command("Ran `git push` → ok: remote: … branch set up to track"),
            "`git push` → ok"
        );
        assert_eq!(
            terse_command("Ran `git commit -m x` → ok: [spotter-gqc 99b497c] feat: add … 8 files"),
            "`git commit -m x` → ok: [spotter-gqc 99b497c]"
        );
        assert_eq!(
            terse_command("Task `Explore` reported: Found it. The rest follows."),
            "Task `Explore` reported: Found it"
        );
        assert_eq!(
            terse_command(
                "Ran `git log --oneline -3` → ok: 3 lines, e.g. 81ecfd88 fix: keep 1234567"
            ),
            "`git log --oneline -3` → ok: 3 lines, 81ecfd88"
        );
        assert_eq!(
            terse_command(
                "Ran `git commit -am x` → ok: 2 files changed, 10 insertions(+), 53 deletions(-)"
            ),
            "`git commit -am x` → ok: 2 files, 10 insertions, 53 deletions"
        );
        assert_eq!(
            terse_command("Ran `golangci-lint run` → ok: 0 issues."),
            "`golangci-lint run` → ok: 0 issues"
        );
        assert_eq!(
            terse_command(
                "Ran `uv lock --upgrade-package punt-tts` → ok: Updated punt-tts v0.1.0 -> v0.8.1"
            ),
            "`uv lock --upgrade-package punt-tts` → ok: Updated punt-tts v0.1.0 -> v0.8.1"
        );
    }
}
