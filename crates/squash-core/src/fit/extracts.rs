//! The text a step or a run becomes: a step's one-line extract (its facts on one line), a
//! run's extract (its ledger in sections, the files it touched one line per action). Rendered
//! from the summaries' observations alone.

use std::collections::HashMap;
use std::ops::RangeInclusive;

use crate::ledger::{check_facts, ledger_of, sections_text, FactKind, Ledger, Observation};
use crate::message::{ContentItem, Role};
use crate::tokens::content_tokens;

use super::brief::{brief, kept, Ranked};
use super::digest::{digest, lean, terse, Looks};
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
    use super::{extract, Form};
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
    fn a_digest_says_the_branch_its_last_look_at_the_state_showed() {
        let thread = runs(&[
            (
                "git status",
                "On branch feat/old\nChanges not staged for commit:\n\tmodified:   src/a.rs\n\tmodified:   src/b.rs",
            ),
            ("git log --oneline -1", "81ecfd88 fix: keep"),
            (
                "git status --short --branch",
                "## main...origin/main [behind 2]\n M src/a.rs\n M src/b.rs\n?? notes.md",
            ),
            ("cargo test", "test result: ok. 12 passed; 0 failed"),
        ]);
        let refs: Vec<&Message> = thread.iter().collect();
        let s = summarize(&refs);
        let digest = extract(&s, 0..=thread.len() - 1, Form::Digest).text;
        assert!(digest.contains("on branch main (behind 2)"), "{digest}");
        assert!(!digest.contains("feat/old"), "{digest}");
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
}
