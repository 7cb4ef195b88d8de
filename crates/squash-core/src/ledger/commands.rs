//! Commands run through a shell tool, and how each ended: observed one call at a time, merged
//! into one fact per command (its runs' outcomes in order) or per run of the same exploratory
//! command ("`find` ×5 … → 12 files, e.g. …").

use std::collections::HashMap;

use serde_json::Value;

use super::anchors::anchors_of;
use super::code_mode;
use super::fact::{Fact, FactKind};
use super::output::{
    commit_hash, commit_line, content_lines, counts_failures, exit_code, is_error_line, printed,
    reports_failure, run_errors, sample_lines, summary_line, LINE_MAX_CHARS,
};
use super::polls;
use super::tool_use::ToolUse;
use crate::ids::MessageId;
use crate::text::{one_line, patterns};

/// How a command ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    Ok,
    /// Failed, with the exit code when the output states it.
    Failed(Option<i64>),
    /// The selection has no result for the call.
    Unknown,
    /// It was still running when its call returned; a later poll of it tells its end.
    Running,
}

/// One command run, as the ledger keeps it: no more of its output than the facts need.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct CommandObs {
    pub source: MessageId,
    /// The command as run: its first line, whole up to [`DISPLAY_MAX_CHARS`].
    pub display: String,
    /// The first line goes on beyond `display`.
    pub cut: bool,
    /// The command without output plumbing (`2>&1`, `| tail -20`): runs of the same key are
    /// the same command.
    pub key: String,
    /// What a summary must name for the run to count as mentioned.
    pub anchor: String,
    pub status: Status,
    /// What the run printed that matters: its summary line, or its short output, or its first
    /// and last lines.
    pub found: Option<String>,
    pub found_anchors: Vec<String>,
    /// A read-only command (a listing, a search, a look at a file or the history) and what it
    /// listed: such runs in a row are one fact.
    pub listing: Option<Listing>,
    /// The error lines of a failed run and the terms they name.
    pub error_lines: Vec<String>,
    pub error_anchors: Vec<String>,
}

/// What an exploratory command listed.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Listing {
    /// Non-empty lines of output.
    pub lines: usize,
    /// The first few, shortened.
    pub sample: Vec<String>,
    /// Every sampled line is a path.
    pub paths: bool,
}

/// Characters of a command's first line shown: the quality report reads a backticked span of
/// up to 100 characters as one term.
const DISPLAY_MAX_CHARS: usize = 100;
/// Of a listing, the first paths it printed (whole), or its first line (shortened).
const SAMPLE_PATHS: usize = 2;
const SAMPLE_CHARS: usize = 40;

patterns! {
    /// The start of output plumbing at the very end of a command cut short: ` 2>&`, ` 2>`, ` |`.
    CUT_PLUMBING = r"\s+\d?(?:>&?|\|)$";
    PLUMBING = r"\s*(?:\d?>&\d|\d?>\s*/dev/null|\|\s*(?:tail|head)(?:\s+-n)?(?:\s+-?\d+)?)\s*";
}

/// Programs (and `git`/`bd` subcommands) that only look: their runs in a row are grouped.
const EXPLORATORY: &[&str] = &[
    "ls",
    "find",
    "fd",
    "grep",
    "rg",
    "ag",
    "cat",
    "head",
    "tail",
    "wc",
    "tree",
    "pwd",
    "which",
    "file",
    "stat",
    "du",
    "sed",
    "awk",
    "echo",
    "git log",
    "git status",
    "git diff",
    "git show",
    "git branch",
    "git grep",
    "bd show",
    "bd list",
    "bd ready",
];

/// Whether the call runs a shell command.
pub(crate) fn is_command(use_: &ToolUse<'_>) -> bool {
    command_of(use_.input).is_some()
}

/// The run of a shell call, or `None` for any other tool.
pub(crate) fn observe(use_: &ToolUse<'_>) -> Option<CommandObs> {
    let command = command_of(use_.input)?;
    let (display, cut) = display_of(&command);
    if display.is_empty() {
        return None;
    }
    let key = key_of(&display);
    let status = match &use_.result {
        None => Status::Unknown,
        Some(r) => match exit_code(&r.text) {
            Some(0) => Status::Ok,
            Some(code) => Status::Failed(Some(code)),
            None if r.is_error => Status::Failed(None),
            // Its end is told by a later poll of it (`polls`).
            None if polls::says_running(&r.text) => Status::Running,
            None => Status::Ok,
        },
    };
    let output = use_.result.as_ref().map(|r| printed(&r.text));
    let output = output.as_deref().unwrap_or("");
    let anchor = anchor_of(&key);
    let tally = summary_line(output);
    // A run piped into `tail` or `head` returns their status: a tally that counts failures,
    // or the toolchain's verdict, says how the run itself ended (a command that only looks,
    // `cat` of a log, ran fine).
    let status = match status {
        Status::Ok
            if !is_exploratory(&anchor)
                && (tally.as_deref().is_some_and(counts_failures) || reports_failure(output)) =>
        {
            Status::Failed(None)
        }
        status => status,
    };
    let listing = (status == Status::Ok && is_exploratory(&anchor)).then(|| listing(output));
    let found = match &listing {
        Some(l) if tally.is_none() && short_output(output).is_none() => {
            (l.lines > 0).then(|| listing_text(l.lines, &l.sample, l.paths))
        }
        _ => found_in(output, status),
    };
    // What a run found (a count, a value) is part of the fact: a summary naming the command
    // but not its result has not kept it.
    let mut found_anchors: Vec<String> = found
        .as_deref()
        .map(|s| {
            anchors_of(s, 2)
                .into_iter()
                .filter(|a| !display.contains(a.as_str()))
                .collect()
        })
        .unwrap_or_default();
    // A commit is what the rest of the work names it by: its hash, whatever else it says.
    if let Some(hash) = found.as_deref().and_then(commit_hash) {
        if !found_anchors.iter().any(|a| a == hash) {
            found_anchors.insert(0, hash.to_owned());
        }
    }
    let (error_lines, error_anchors) = match status {
        Status::Failed(_) => run_errors(output),
        _ => (Vec::new(), Vec::new()),
    };
    Some(CommandObs {
        source: use_.source,
        display,
        cut,
        key,
        anchor,
        status,
        found,
        found_anchors,
        listing,
        error_lines,
        error_anchors,
    })
}

/// A command fact that tells only a look around (see [`exploration`]).
pub(crate) struct Look<'a> {
    /// What looked: the program, the `git`/`bd` subcommand, the tool.
    pub what: String,
    /// How many times.
    pub times: usize,
    /// What it was asked: the command, a search tool's pattern or list of what it looked at.
    pub asked: &'a str,
}

/// Of a command fact that tells only a look around — runs of a program that only looks (a
/// listing, a search, a look at a file or the history) that ended well, or a search tool's —
/// what looked, how many times, and what it was asked.
pub(crate) fn exploration(fact: &Fact) -> Option<Look<'_>> {
    if fact.kind != FactKind::Command {
        return None;
    }
    let (ran, outcomes) = fact.text.split_once(" → ")?;
    let times = |after: &str| {
        after
            .strip_prefix(" ×")
            .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(1)
    };
    // "Ran `grep -rn X src/`…", "Grep `X`", "Glob ×3 (a, b, c)".
    let asked = match ran.split_once('`') {
        Some((_, rest)) => rest.rsplit_once('`').map_or(rest, |(inside, _)| inside),
        None => ran.split_once(" (").map_or("", |(_, list)| list),
    };
    if let Some(rest) = ran.strip_prefix("Ran `") {
        let (command, after) = rest.split_once('`')?;
        let anchor = anchor_of(&key_of(command));
        let group = group_of(&anchor);
        let ok = outcomes.split(", then ").all(|o| o.starts_with("ok"));
        return (ok && EXPLORATORY.contains(&group)).then(|| Look {
            what: group.to_owned(),
            times: times(after),
            asked,
        });
    }
    // A search tool's fact: "Grep `pattern` → …", "Glob ×3 (…) → …".
    let (tool, after) = ran.split_once(' ')?;
    let searched = after.starts_with('`') || after.starts_with('×');
    (searched && !ran.contains(" reported")).then(|| Look {
        what: tool.to_owned(),
        times: times(&format!(" {after}")),
        asked,
    })
}

fn is_exploratory(anchor: &str) -> bool {
    EXPLORATORY.contains(&group_of(anchor))
}

/// What runs in a row must share to be one fact: the subcommand of `git` and `bd`, the program
/// of anything else (`find .` and `find lib` are both `find`).
fn group_of(anchor: &str) -> &str {
    match anchor.split_once(' ') {
        Some((program, _)) if program != "git" && program != "bd" => program,
        _ => anchor,
    }
}

fn listing(output: &str) -> Listing {
    let lines = content_lines(output);
    let (mut sample, paths) = sample_lines(&lines, SAMPLE_PATHS, SAMPLE_CHARS);
    // A search of a log for its errors found the error, not the stack frame that comes first.
    if !paths {
        if let Some(error) = lines.iter().find(|l| is_error_line(l)) {
            sample = vec![one_line(error.trim(), LINE_MAX_CHARS)];
        }
    }
    Listing {
        lines: lines.len(),
        sample,
        paths,
    }
}

/// "12 files, e.g. a, b, c" / "40 lines, e.g. …"
fn listing_text(lines: usize, sample: &[String], paths: bool) -> String {
    let what = match (paths, lines) {
        (true, 1) => "1 file".to_owned(),
        (true, n) => format!("{n} files"),
        (false, 1) => "1 line".to_owned(),
        (false, n) => format!("{n} lines"),
    };
    if sample.is_empty() || lines == 1 && !paths {
        return match sample.first() {
            Some(one) => one.clone(),
            None => what,
        };
    }
    format!("{what}, e.g. {}", sample.join(", "))
}

/// What a run printed that a reader needs: the commit it made, its summary line, its one or
/// two lines, or (of a longer output) its first and last lines.
fn found_in(output: &str, status: Status) -> Option<String> {
    // The commit's hash is what the rest of the work names it by; its counts follow it.
    if let Some(commit) = commit_line(output).filter(|_| status == Status::Ok) {
        let lines = content_lines(output);
        let counts = lines.iter().find(|l| l.contains(" changed"));
        return Some(match counts {
            Some(counts) => format!("{} ({})", one_line(commit, 100), counts.trim()),
            None => one_line(commit, 100),
        });
    }
    if let Some(summary) = summary_line(output) {
        return Some(summary);
    }
    if status != Status::Ok {
        return None;
    }
    let lines = content_lines(output);
    if let Some(short) = short_of(&lines) {
        return Some(short);
    }
    Some(format!(
        "{} … {}",
        one_line(lines.first()?, SAMPLE_CHARS),
        one_line(lines.last()?, SAMPLE_CHARS)
    ))
}

/// One fact per distinct command, and one per run of the same exploratory command: each
/// command with its outcomes, in the order they were run.
pub(crate) fn command_facts(runs: &[&CommandObs]) -> Vec<Fact> {
    let mut entries: Vec<Entry<'_>> = Vec::new();
    // The entry of one command (one member) by its key: there is at most one, since a run of
    // a key that has one joins it. A span of a long session runs tens of thousands.
    let mut single: HashMap<&str, usize> = HashMap::new();
    for &run in runs {
        if let Some(last) = entries.last_mut() {
            if run.listing.is_some() && last.groups_with(run) {
                if last.members.len() == 1 {
                    single.remove(last.members[0].key.as_str());
                }
                last.members.push(run);
                last.outcomes.push(outcome(run));
                continue;
            }
        }
        match single.get(run.key.as_str()) {
            Some(&at) => {
                // A poll that tells how a running command ended says it in place of "still
                // running".
                let entry = &mut entries[at];
                if entry.running {
                    entry.outcomes.pop();
                }
                entry.outcomes.push(outcome(run));
                entry.running = run.status == Status::Running;
            }
            None => {
                single.insert(&run.key, entries.len());
                entries.push(Entry {
                    members: vec![run],
                    outcomes: vec![outcome(run)],
                    running: run.status == Status::Running,
                });
            }
        }
    }
    entries.iter().map(Entry::fact).collect()
}

/// The runs one fact tells: one command run (maybe several times), or exploratory runs in a row.
struct Entry<'a> {
    members: Vec<&'a CommandObs>,
    outcomes: Vec<String>,
    /// Whether the last outcome is of a run still running.
    running: bool,
}

impl Entry<'_> {
    fn groups_with(&self, run: &CommandObs) -> bool {
        self.outcomes.len() == self.members.len()
            && self.members.iter().all(|m| m.listing.is_some())
            && group_of(&self.members[0].anchor) == group_of(&run.anchor)
    }

    fn fact(&self) -> Fact {
        let first = self.members[0];
        if self.members.len() == 1 {
            let mut anchors = chain_anchors(&first.key);
            anchors.extend(first.found_anchors.iter().cloned());
            return Fact {
                kind: FactKind::Command,
                text: format!("Ran {} → {}", first.code(), self.outcomes.join(", then ")),
                anchors,
                source: first.source,
            };
        }
        let lines: usize = self
            .members
            .iter()
            .filter_map(|m| m.listing.as_ref().map(|l| l.lines))
            .sum();
        let paths = self
            .members
            .iter()
            .all(|m| m.listing.as_ref().is_some_and(|l| l.paths || l.lines == 0));
        let sample: Vec<String> = self
            .members
            .iter()
            .filter_map(|m| m.listing.as_ref())
            .flat_map(|l| l.sample.iter().cloned())
            .take(if paths { SAMPLE_PATHS } else { 1 })
            .collect();
        let commands: Vec<String> = self.members.iter().map(|m| m.code()).collect();
        let found = if lines == 0 {
            "no output".to_owned()
        } else {
            listing_text(lines, &sample, paths)
        };
        let group = group_of(&first.anchor);
        let mut anchors = vec![group.to_owned()];
        anchors.extend(sample.iter().flat_map(|s| anchors_of(s, 1)).take(2));
        Fact {
            kind: FactKind::Command,
            text: format!(
                "Ran `{group}` ×{} ({}) → ok: {found}",
                self.members.len(),
                commands.join("; ")
            ),
            anchors,
            source: first.source,
        }
    }
}

/// The one run a command fact tells, when it ended well: the command as run (in backticks) and
/// what it printed ("test result: ok. 4 passed; …"); `None` for a fact of several runs, a
/// failed run, or a run that printed nothing worth a line.
pub(crate) fn sole_ok_run(fact: &Fact) -> Option<(&str, &str)> {
    if fact.kind != FactKind::Command {
        return None;
    }
    let (ran, outcomes) = fact.text.split_once(" → ")?;
    let code = ran.strip_prefix("Ran ")?;
    let found = outcomes.strip_prefix("ok: ")?;
    (code.starts_with('`') && !found.contains(", then ")).then_some((code, found))
}

fn outcome(run: &CommandObs) -> String {
    let status = match run.status {
        Status::Ok => "ok".to_owned(),
        Status::Failed(Some(code)) => format!("failed (exit {code})"),
        Status::Failed(None) => "failed".to_owned(),
        Status::Unknown => "no result in the selection".to_owned(),
        Status::Running => "still running".to_owned(),
    };
    match &run.found {
        Some(found) => format!("{status}: {found}"),
        None => status,
    }
}

/// An output that is one or two lines long ("344", "Imported 1,842 rows"): what the run
/// found, in full (of two lines, the second).
fn short_output(output: &str) -> Option<String> {
    short_of(&content_lines(output))
}

/// [`short_output`] of an output's [`content_lines`].
fn short_of(lines: &[&str]) -> Option<String> {
    match lines {
        [one] => Some(one_line(one, 100)),
        [_, two] => Some(one_line(two, 100)),
        _ => None,
    }
}

/// The command string of a shell call: `command` as a string or an argv array (Codex's
/// `["bash", "-lc", "…"]` is the script), or `cmd`; of a code-mode script, the literal
/// commands it runs, one a line. A patch is not a command.
fn command_of(input: &Value) -> Option<String> {
    if code_mode::is_script(input) {
        let commands: Vec<String> = code_mode::nested_calls(input.as_str()?)
            .into_iter()
            .filter(|call| call.name == "exec_command")
            .filter_map(|call| command_of(&call.input))
            .collect();
        return (!commands.is_empty()).then(|| commands.join("\n"));
    }
    let raw = input.get("command").or_else(|| input.get("cmd"))?;
    let command = match raw {
        Value::String(s) => s.clone(),
        Value::Array(parts) => {
            let parts: Vec<&str> = parts.iter().filter_map(Value::as_str).collect();
            match parts.as_slice() {
                [shell, flag, script]
                    if shell.ends_with("sh") && flag.starts_with('-') && flag.contains('c') =>
                {
                    (*script).to_owned()
                }
                _ => parts.join(" "),
            }
        }
        _ => return None,
    };
    (!command.contains("*** Begin Patch")).then_some(command)
}

/// The command's first line — with the lines after it while it leaves its command open (`ssh
/// host 'bash -c "` says nothing of what ran) — whitespace collapsed, cut by characters (not at
/// a word: what was run is shown as far as it goes, a word it cuts finished when it ends soon
/// after), and whether it was cut.
fn display_of(command: &str) -> (String, bool) {
    let mut lines = command.lines().map(str::trim).filter(|l| !l.is_empty());
    let mut shown = lines.next().unwrap_or("").to_owned();
    for next in lines {
        // A here-document's lines are the file it writes, not the command.
        if !leaves_open(&shown) || shown.contains("<<") || shown.len() >= DISPLAY_MAX_CHARS {
            break;
        }
        shown.push(' ');
        shown.push_str(next);
    }
    let flat = crate::text::single_spaced(&shown);
    let Some((at, _)) = flat.char_indices().nth(DISPLAY_MAX_CHARS) else {
        return (flat, false);
    };
    // A cut inside a word would leave half of an id, a path, a flag or of plumbing such as
    // `2>&1`: the word is finished when it ends soon after; else a word that names nothing
    // goes whole rather than half.
    let word_start = flat[..at].rfind(char::is_whitespace).map_or(0, |i| i + 1);
    let word_end = flat[at..]
        .char_indices()
        .take(TOKEN_TAIL_MAX_CHARS + 1)
        .find(|(_, c)| c.is_whitespace())
        .map(|(i, _)| at + i)
        .or_else(|| (flat[at..].chars().count() <= TOKEN_TAIL_MAX_CHARS).then_some(flat.len()));
    let names = flat[word_start..at].chars().any(char::is_alphabetic);
    let end = match word_end {
        Some(end) => end,
        None if word_start > 0 && !names => word_start,
        None => at,
    };
    let cut = flat[end..].trim_start();
    (flat[..end].trim_end().to_owned(), !cut.is_empty())
}

/// How far past [`DISPLAY_MAX_CHARS`] a command's shown text goes to finish the word it cuts.
const TOKEN_TAIL_MAX_CHARS: usize = 40;

/// Whether a command's text so far goes on in its next line: a quote left open, or a line
/// ending in a continuation, an operator or an opened group.
fn leaves_open(text: &str) -> bool {
    const OPENERS: &[&str] = &["\\", "&&", "||", "|", "(", "{", ";", " do", " then"];
    let open_quote = |q: char| text.chars().filter(|&c| c == q).count() % 2 == 1;
    open_quote('"') || open_quote('\'') || OPENERS.iter().any(|o| text.ends_with(o))
}

impl CommandObs {
    /// The command as a fact shows it: in backticks, the ellipsis of a cut outside them (what
    /// is inside was run as written).
    pub(crate) fn code(&self) -> String {
        format!("`{}`{}", self.display, if self.cut { "…" } else { "" })
    }

    /// The command without its plumbing, as an error names it.
    pub(crate) fn short(&self) -> String {
        format!("`{}`{}", self.key, if self.cut { "…" } else { "" })
    }
}

/// The command without the plumbing that only shapes its output.
pub(crate) fn key_of(display: &str) -> String {
    let plain = PLUMBING.replace_all(display, " ");
    // Plumbing the cut of a long command left half of (`… && cargo test 2>&`).
    let plain = CUT_PLUMBING.replace(plain.trim(), "");
    one_line(plain.trim(), DISPLAY_MAX_CHARS)
}

/// One anchor per command of a `&&` / `;` chain (at most three): a summary must name each.
fn chain_anchors(display: &str) -> Vec<String> {
    let mut anchors: Vec<String> = Vec::new();
    for part in display.split("&&").flat_map(|p| p.split(';')) {
        let part = part.trim();
        if part.is_empty() || part.starts_with("cd ") {
            continue;
        }
        let anchor = anchor_of(part);
        if !anchors.contains(&anchor) && anchors.len() < 3 {
            anchors.push(anchor);
        }
    }
    if anchors.is_empty() {
        anchors.push(anchor_of(display));
    }
    anchors
}

/// The program and, when it has one, its subcommand (`cargo test`, `npm run`), or the script
/// an interpreter runs (`python3 scripts/x.py` → `scripts/x.py`). Leading `cd … &&` and
/// environment assignments are skipped.
pub(crate) fn anchor_of(display: &str) -> String {
    let last_cd = display
        .split("&&")
        .map(str::trim)
        .find(|part| !part.starts_with("cd ") && !part.is_empty())
        .unwrap_or(display);
    let words: Vec<&str> = last_cd
        .split_whitespace()
        .skip_while(|w| w.contains('=') && !w.starts_with('-') || *w == "sudo" || *w == "env")
        .collect();
    let Some(program) = words.first() else {
        return display.to_owned();
    };
    const INTERPRETERS: &[&str] = &["python", "python3", "node", "bash", "sh", "ruby", "deno"];
    let second = words
        .get(1)
        .filter(|w| !w.starts_with('-') && w.len() <= 40 && !w.contains(['|', ';', '>']));
    match second {
        Some(arg) if INTERPRETERS.contains(program) => (*arg).to_owned(),
        Some(arg) => format!("{program} {arg}"),
        None => (*program).to_owned(),
    }
}

#[cfg(test)]
#[path = "commands_tests.rs"]
mod tests;
