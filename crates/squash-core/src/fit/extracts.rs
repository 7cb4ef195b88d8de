//! The text a step or a run becomes: a step's one-line extract (its facts on one line), a
//! run's extract (its ledger in sections, the files it touched one line per action). Rendered
//! from the summaries' observations alone.

use std::collections::HashMap;
use std::ops::RangeInclusive;

use crate::ledger::{
    check_facts, exploration, ledger_of, sections_text, Fact, FactKind, Ledger, Observation,
};
use crate::message::{ContentItem, Role};
use crate::text::patterns;
use crate::tokens::content_tokens;

use super::brief::{brief, kept, Ranked};
use super::summary::MessageSummary;

/// A line or an extract, with its price. What it no longer states is checked only for the
/// steps a plan takes ([`lost`]): a plan prices every unit it may take, and checking each
/// against its ledger was most of pricing the digests of a long session.
pub(crate) struct Extract {
    pub text: String,
    pub cost: u64,
    pub facts: usize,
}

/// The extracts the plans of one thread have rendered, by form and positions. Each is made
/// from the summaries alone, so the plans the reach tries — layouts whose units mostly cover
/// the same messages — render each once.
#[derive(Default)]
pub(crate) struct Renders {
    extracts: HashMap<(Form, usize, usize), Extract>,
    /// What each extract taken as a step no longer states ([`lost`]): the plans the reach
    /// tries take the same units again, and checking a long span's digest against its whole
    /// ledger is dear.
    lost: HashMap<(Form, usize, usize), Vec<String>>,
}

impl Renders {
    pub fn get(&self, form: Form, positions: &RangeInclusive<usize>) -> Option<&Extract> {
        self.extracts
            .get(&(form, *positions.start(), *positions.end()))
    }

    /// [`lost`] of the extract of `positions` in `form` (rendered before, or now).
    pub fn lost(
        &mut self,
        s: &[MessageSummary],
        form: Form,
        positions: RangeInclusive<usize>,
    ) -> Vec<String> {
        let key = (form, *positions.start(), *positions.end());
        if let Some(lost) = self.lost.get(&key) {
            return lost.clone();
        }
        let text = &self.render(s, form, positions.clone()).text;
        let made = lost(s, positions, form, text);
        self.lost.insert(key, made.clone());
        made
    }

    pub fn contains(&self, form: Form, positions: &RangeInclusive<usize>) -> bool {
        self.get(form, positions).is_some()
    }

    /// The extract of `positions` in `form`: rendered before, or now.
    pub fn render(
        &mut self,
        s: &[MessageSummary],
        form: Form,
        positions: RangeInclusive<usize>,
    ) -> &Extract {
        self.extracts
            .entry((form, *positions.start(), *positions.end()))
            .or_insert_with(|| extract(s, positions, form))
    }

    pub fn insert(&mut self, form: Form, positions: &RangeInclusive<usize>, extract: Extract) {
        self.extracts
            .insert((form, *positions.start(), *positions.end()), extract);
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Form {
    /// One line: the step's facts, or its first sentence.
    Line,
    /// The ledger in sections.
    Run,
    /// The ledger in sections, only what a budget at its end still needs: each command with
    /// how it ended (and the counts it printed), every file with the names its edits brought
    /// in (what changed, which a hand-written account names), error and fix, decision and open
    /// item, the answer the run ends with, and the conclusions and notes that state a number
    /// or a path.
    Terse,
    /// The terse ledger of a span (the work between two kept messages, or its oldest part),
    /// each fact once: a file read or edited again, a command run again is said once.
    Digest,
    /// A digest without the looks around that ended well, for budgets below what the digests
    /// reach; below it (depth 1 ..= [`super::brief::BRIEF_DEPTHS`]), the same cut down to the
    /// facts that tell most ([`brief`]).
    Lean(u8),
    /// A brief digest that keeps every file and `others` of the other facts, the most telling:
    /// the room a depth leaves under the budget, filled ([`fuller_brief`]).
    Brief { others: usize },
}

/// The ledger of the messages at `positions`, from their summaries.
fn full_ledger(s: &[MessageSummary], positions: RangeInclusive<usize>) -> Ledger {
    let obs: Vec<&Observation> = positions.flat_map(|i| s[i].observations.iter()).collect();
    ledger_of(&obs)
}

/// What the extract of the messages at `positions` in `form`, `text`, no longer states: the
/// facts of the ledger it is written from at the places the check of their whole ledger found
/// missing.
fn lost(
    s: &[MessageSummary],
    positions: RangeInclusive<usize>,
    form: Form,
    text: &str,
) -> Vec<String> {
    let full = full_ledger(s, positions);
    let check = check_facts(&full, text);
    let shortened = shortened(&full, form);
    shortened
        .as_ref()
        .unwrap_or(&full)
        .subset(&check.missing)
        .into_iter()
        .map(|f| f.text.clone())
        .collect()
}

/// The ledger an extract in `form` is written from, when it is not the whole one.
fn shortened(full: &Ledger, form: Form) -> Option<Ledger> {
    match form {
        Form::Line | Form::Run => None,
        Form::Terse => Some(terse(full)),
        Form::Digest => Some(digest(full, Looks::Listed)),
        Form::Lean(0) => Some(lean(full)),
        Form::Lean(depth) => Some(brief(&lean(full), depth)),
        Form::Brief { others } => Some(Ranked::new(&lean(full)).keeping(others)),
    }
}

/// The line of a step, or the extract of a run, from the summaries of `positions`.
pub(crate) fn extract(
    s: &[MessageSummary],
    positions: RangeInclusive<usize>,
    form: Form,
) -> Extract {
    let mut one = extracts(s, positions, &[form]);
    one.swap_remove(0)
}

/// The extracts of the messages at `positions` in each of `forms`, their ledger merged once
/// (and made lean once for every depth): the units of a long span, its digest and its lean
/// digests at every depth, cover the same messages.
pub(crate) fn extracts(
    s: &[MessageSummary],
    positions: RangeInclusive<usize>,
    forms: &[Form],
) -> Vec<Extract> {
    let full = full_ledger(s, positions.clone());
    let leads: Vec<&str> = positions.filter_map(|i| s[i].lead.as_deref()).collect();
    let mut lean_of_full: Option<Ledger> = None;
    let mut out = Vec::with_capacity(forms.len());
    for &form in forms {
        if matches!(form, Form::Lean(_) | Form::Brief { .. }) && lean_of_full.is_none() {
            lean_of_full = Some(lean(&full));
        }
        let other = match form {
            Form::Lean(0) => None,
            Form::Lean(depth) => lean_of_full.as_ref().map(|l| brief(l, depth)),
            Form::Brief { others } => lean_of_full
                .as_ref()
                .map(|l| Ranked::new(l).keeping(others)),
            form => shortened(&full, form),
        };
        let ledger = match (form, &other, &lean_of_full) {
            (_, Some(other), _) => other,
            (Form::Lean(_), None, Some(lean)) => lean,
            _ => &full,
        };
        out.push(priced(extract_text(ledger, form, &leads), full.len()));
    }
    out
}

/// An extract of `text`, written from a ledger of `facts`, with its price.
fn priced(text: String, facts: usize) -> Extract {
    Extract {
        // The reference the applied text ends with is priced in, so that the plan holds.
        cost: content_tokens(
            Role::Assistant,
            &[ContentItem::text_for(Role::Assistant, text.as_str())],
        ) + crate::recall::mark_tokens(),
        facts,
        text,
    }
}

/// The brief digest of the messages at `positions` that keeps the most of its facts other than
/// the files — more than `depth` keeps, fewer than the depth above it — within `cost` tokens,
/// with how many it keeps; `None` when none of those sizes is within it. A depth keeps an
/// eighth fewer facts than the one above, or half as many, so the step that reached the budget
/// may leave much of it unused: this is what fills it.
pub(crate) fn fuller_brief(
    s: &[MessageSummary],
    positions: RangeInclusive<usize>,
    depth: u8,
    cost: u64,
) -> Option<(usize, Extract)> {
    let full = full_ledger(s, positions.clone());
    let leads: Vec<&str> = positions.filter_map(|i| s[i].lead.as_deref()).collect();
    let lean = lean(&full);
    let ranked = Ranked::new(&lean);
    let n = ranked.others();
    let render = |others: usize| {
        let form = Form::Brief { others };
        priced(
            extract_text(&ranked.keeping(others), form, &leads),
            full.len(),
        )
    };
    // More facts never cost fewer tokens: the most that fit are found by halving.
    let (mut lo, mut hi) = (kept(n, depth), kept(n, depth.saturating_sub(1)));
    let mut found = None;
    while lo + 1 < hi {
        let mid = lo + (hi - lo) / 2;
        let extract = render(mid);
        if extract.cost <= cost {
            lo = mid;
            found = Some((mid, extract));
        } else {
            hi = mid;
        }
    }
    found
}

/// The text of an extract in `form` written from `ledger`, of messages whose first sentences
/// are `leads`.
fn extract_text(ledger: &Ledger, form: Form, leads: &[&str]) -> String {
    if ledger.is_empty() {
        return match (form, leads) {
            (_, []) => "(reasoning, no facts)".to_owned(),
            (Form::Line, _) => leads.join(" "),
            // A terse extract of nothing but narration says only that much.
            (Form::Terse | Form::Digest | Form::Lean(_) | Form::Brief { .. }, _) => {
                format!("({} messages without facts)", leads.len())
            }
            (Form::Run, _) => leads
                .iter()
                .map(|l| format!("- {l}"))
                .collect::<Vec<_>>()
                .join("\n"),
        };
    }
    match form {
        Form::Line => line_text(ledger),
        Form::Run | Form::Terse | Form::Digest | Form::Lean(_) | Form::Brief { .. } => {
            run_text(ledger)
        }
    }
}

/// A step's facts on one line, each command once: the error a failed run printed follows its
/// run ("Ran `make` → failed (exit 2): missing separator"), where it named the command again.
fn line_text(ledger: &Ledger) -> String {
    let mut parts: Vec<String> = Vec::new();
    for f in &ledger.facts {
        let joined = f.kind == FactKind::Error
            && f.text.split_once(" failed: ").is_some_and(|(what, said)| {
                let Some(run) = parts.iter_mut().find(|p| is_failed_run_of(p, what)) else {
                    return false;
                };
                // "Exit code 124" says no more than the run's "(exit 124)".
                if !said.starts_with("Exit code") {
                    run.push_str(": ");
                    run.push_str(said);
                }
                true
            });
        if !joined {
            parts.push(f.text.clone());
        }
    }
    parts.join("; ")
}

/// Whether the run fact `part` ("Ran `cargo test 2>&1`… → failed") is of the command an error
/// names as `what` (`` `cargo test`… ``, its plumbing left out).
fn is_failed_run_of(part: &str, what: &str) -> bool {
    let Some(rest) = part.strip_prefix("Ran `") else {
        return false;
    };
    let Some((display, _)) = rest.split_once('`') else {
        return false;
    };
    let key = crate::ledger::command_key(display);
    what.trim_end_matches('…').trim_matches('`') == key && part.contains("failed")
}

/// What a terse extract keeps of `ledger` (see [`Form::Terse`]).
fn terse(ledger: &Ledger) -> Ledger {
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
enum Looks {
    Listed,
    CommitsOnly,
}

/// What a digest keeps of `ledger` (see [`Form::Digest`]): the terse ledger, its looks around
/// said in one line.
fn digest(ledger: &Ledger, looks: Looks) -> Ledger {
    let mut looked: Vec<(String, usize)> = Vec::new();
    let mut commits: Vec<&str> = Vec::new();
    let mut sought: Vec<(String, usize)> = Vec::new();
    let mut first = None;
    let mut facts = Vec::new();
    for f in &ledger.facts {
        let Some((what, times)) = exploration(f) else {
            facts.push(f.clone());
            continue;
        };
        first.get_or_insert(f.source);
        for term in looked_for(f, &what) {
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
            .chain(sought.into_iter().filter(|_| looks == Looks::Listed))
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
fn looked_for(fact: &Fact, what: &str) -> Vec<String> {
    let Some((ran, _)) = fact.text.split_once(" → ") else {
        return Vec::new();
    };
    // "Ran `grep -rn X src/`…", "Grep `X`", "Glob ×3 (a, b, c)".
    let asked = match ran.split_once('`') {
        Some((_, rest)) => rest.rsplit_once('`').map_or(rest, |(inside, _)| inside),
        None => ran.split_once(" (").map_or("", |(_, list)| list),
    };
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
    let stated = digest
        .facts
        .iter()
        .map(|f| f.text.to_lowercase())
        .collect::<Vec<_>>()
        .join("\n");
    sought.retain(|(t, _)| !commits.contains(&t.as_str()) && !stated.contains(&t.to_lowercase()));
    // A stable sort: between equals, the order sought.
    sought.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
    sought
        .into_iter()
        .take(SOUGHT_LISTED)
        .map(|(t, _)| t)
        .collect()
}

/// What a lean digest keeps of `ledger` (see [`Form::Lean`], depth 0): a digest whose looks around are
/// only the commits they named, without the notes the other facts state.
fn lean(ledger: &Ledger) -> Ledger {
    let mut lean = digest(ledger, Looks::CommitsOnly);
    // A note whose every term another fact states (a flag's value in the command that set
    // it) says nothing the digest does not.
    let stated: String = lean
        .facts
        .iter()
        .filter(|f| f.kind != FactKind::Value)
        .map(|f| f.text.to_lowercase())
        .collect::<Vec<_>>()
        .join("\n");
    lean.facts.retain(|f| {
        f.kind != FactKind::Value || !f.anchors.iter().all(|a| stated.contains(&a.to_lowercase()))
    });
    lean
}

/// "Ran `X` → ok: 56 lines, e.g. …, then failed (exit 1): 3 tests, 1 failure" →
/// "`X` → ok, then failed (exit 1): 3 tests, 1 failure"; a report keeps its first sentence.
fn terse_command(text: &str) -> String {
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
    /// Counts a run printed: "43 tests, 0 failures", "4 passed; 1 failed", "0 issues",
    /// "53 deletions".
    TALLY = r"(?i)\d+ (?:tests?|passed|failed|failures?|errors?|doctests?|files?|lines?|issues?|warnings?|insertions?|deletions?)(?:[,;] \d+ (?:tests?|passed|failed|failures?|errors?|ignored|skipped))*";

    /// A short commit hash as `git log --oneline` prints it.
    HASH = r"(?-u:\b)[0-9a-f]{7,12}(?-u:\b)";

    /// A commit a run made: `[branch 1a2b3c4]` or `1a2b3c4..5d6e7f8`.
    COMMIT = r"\[[\w./-]+ [0-9a-f]{7,40}\]|(?-u:\b)[0-9a-f]{7,40}\.\.[0-9a-f]{7,40}(?-u:\b)";
}

/// The ledger in sections, the files first as one line per action; paths stay whole, as the
/// agent goes on with them.
fn run_text(ledger: &Ledger) -> String {
    let (files, rest): (Vec<_>, Vec<_>) = ledger
        .facts
        .iter()
        .cloned()
        .partition(|f| f.kind == FactKind::File);
    let others = sections_text(&Ledger { facts: rest });
    if files.is_empty() {
        return others;
    }
    let mut out = "Files:".to_owned();
    for verb in ["Read", "Edited", "Wrote", "Deleted"] {
        let of: Vec<String> = files
            .iter()
            .filter(|f| f.text.starts_with(verb))
            .filter_map(|f| {
                let path = f.anchors.first()?;
                Some(match &f.anchors[1..] {
                    [] => path.clone(),
                    names => format!("{path} ({})", names.join(", ")),
                })
            })
            .collect();
        if !of.is_empty() {
            out.push_str(&format!("\n- {verb}: {}", of.join(", ")));
        }
    }
    if !others.is_empty() {
        out.push_str("\n\n");
        out.push_str(&others);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{extract, terse_command, Form};
    use crate::fit::summary::summarize;
    use crate::ids::ConversationId;
    use crate::message::{ContentItem, Message, Role};

    /// Calls of `commands` with their outputs, in order.
    fn runs(commands: &[(&str, &str)]) -> Vec<Message> {
        let conv = ConversationId::new();
        let mut out = Vec::new();
        for (k, (command, output)) in commands.iter().enumerate() {
            let id = format!("toolu_{k}");
            let call = ContentItem::tool_call(
                id.clone(),
                "Bash",
                serde_json::json!({ "command": command }),
            );
            out.push(Message::new_unchecked(conv, Role::Assistant, vec![call]));
            let result = ContentItem::tool_result(id, "Bash", *output, false);
            out.push(Message::new_unchecked(conv, Role::User, vec![result]));
        }
        out
    }

    #[test]
    fn a_failed_step_s_line_names_its_command_once_with_what_it_printed() {
        let thread = runs(&[(
            "cargo build 2>&1",
            "error[E0425]: cannot find value `x` in this scope\nProcess exited with code 101",
        )]);
        let refs: Vec<&Message> = thread.iter().collect();
        let s = summarize(&refs);
        let line = extract(&s, 0..=1, Form::Line).text;
        assert_eq!(line.matches("cargo build").count(), 1, "{line}");
        assert!(line.contains("E0425"), "{line}");
        assert!(line.contains("failed"), "{line}");
    }

    #[test]
    fn a_digest_says_its_looks_around_in_one_line_and_a_lean_one_only_their_commits() {
        let thread = runs(&[
            ("ls src", "a.rs\nb.rs"),
            (
                "git log --oneline -2",
                "81ecfd88 fix: keep\n47c3efb0 feat: add",
            ),
            ("ls tests", "it.rs"),
            ("cargo test", "test result: ok. 12 passed; 0 failed"),
        ]);
        let refs: Vec<&Message> = thread.iter().collect();
        let s = summarize(&refs);
        let all = 0..=thread.len() - 1;
        let digest = extract(&s, all.clone(), Form::Digest).text;
        // The ledger keeps a short output's last line: the commit it names is what is said.
        assert!(
            digest.contains("Looked around: `ls` ×2, `git log` (commits named: 47c3efb0)"),
            "{digest}"
        );
        assert!(digest.contains("`cargo test` → ok: 12 passed"), "{digest}");
        assert!(!digest.contains("ls src"), "{digest}");
        let lean = extract(&s, all, Form::Lean(0)).text;
        assert!(lean.contains("Commits named: 47c3efb0"), "{lean}");
        assert!(!lean.contains("Looked around"), "{lean}");
    }

    #[test]
    fn a_digest_says_what_its_searches_were_for_not_where() {
        let thread = runs(&[
            (
                "grep -rn \"CondensedTranscriptLines\" cmd/cli/ | head -20",
                "cmd/cli/state.go:12: CondensedTranscriptLines int",
            ),
            (
                "grep -rn FileModificationTools cmd/cli/",
                "cmd/cli/transcript.go:357: for _, t := range FileModificationTools",
            ),
            ("grep -n CondensedTranscriptLines cmd/cli/hooks.go", "40: x"),
            ("cargo test", "test result: ok. 12 passed; 0 failed"),
        ]);
        let refs: Vec<&Message> = thread.iter().collect();
        let s = summarize(&refs);
        let digest = extract(&s, 0..=thread.len() - 1, Form::Digest);
        // The most sought first; no path, flag or count of lines.
        assert!(
            digest.text.contains(
                "Looked around: `grep` ×3 (for CondensedTranscriptLines, FileModificationTools)"
            ),
            "{}",
            digest.text
        );
        assert!(!digest.text.contains("cmd/cli/"), "{}", digest.text);
    }

    #[test]
    fn a_digest_names_what_an_edit_brought_in_beside_its_file() {
        let mut thread = runs(&[("go test ./...", "ok  \tcli\t0.4s")]);
        let conv = thread[0].conversation_id;
        let call = ContentItem::tool_call(
            "toolu_edit",
            "Edit",
            serde_json::json!({
                "file_path": "/w/cli/explain.go",
                "old_string": "return lines",
                "new_string": "return scopeTranscriptForCheckpoint(lines, cp)",
            }),
        );
        thread.push(Message::new_unchecked(conv, Role::Assistant, vec![call]));
        let result = ContentItem::tool_result("toolu_edit", "Edit", "updated", false);
        thread.push(Message::new_unchecked(conv, Role::User, vec![result]));
        let refs: Vec<&Message> = thread.iter().collect();
        let s = summarize(&refs);
        let digest = extract(&s, 0..=thread.len() - 1, Form::Digest).text;
        assert!(
            digest.contains("- Edited: /w/cli/explain.go (scopeTranscriptForCheckpoint)"),
            "{digest}"
        );
    }

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
