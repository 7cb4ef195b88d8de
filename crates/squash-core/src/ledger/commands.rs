//! Commands run through a shell tool, and how each ended.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use super::text::one_line;
use super::{Fact, FactKind, ToolUse};
use crate::ids::MessageId;

/// How a command ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    Ok,
    /// Failed, with the exit code when the output states it.
    Failed(Option<i64>),
    /// The selection has no result for the call.
    Unknown,
}

/// One command run.
pub(crate) struct CommandRun {
    /// Position of the call's message in the selection.
    pub index: usize,
    pub source: MessageId,
    /// The command as shown: first line, output plumbing (`2>&1`, `| tail -20`) removed.
    pub display: String,
    /// What a summary must name for the run to count as mentioned.
    pub anchor: String,
    pub status: Status,
    pub output: String,
}

static EXIT_CODE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:exited with (?:code|status)|exit (?:code|status)|exit_code)\W{0,3}(-?\d+)")
        .expect("static regex")
});
static PLUMBING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\s*(?:\d?>&\d|\|\s*(?:tail|head)(?:\s+-n)?(?:\s+-?\d+)?)\s*")
        .expect("static regex")
});
static SUMMARY_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^\s*(?:test result:.*|.*\b\d+ (?:passed|failed|failing|passing|errors?)\b.*|(?:build|compilation) (?:succeeded|failed|finished).*)$",
    )
    .expect("static regex")
});

/// Every shell command among `uses`, in call order.
pub(crate) fn command_runs(uses: &[ToolUse<'_>]) -> Vec<CommandRun> {
    uses.iter()
        .filter_map(|use_| {
            let command = command_of(use_.input)?;
            let display = display_of(&command);
            if display.is_empty() {
                return None;
            }
            let status = match &use_.result {
                None => Status::Unknown,
                Some(r) => match last_exit_code(&r.text) {
                    Some(0) => Status::Ok,
                    Some(code) => Status::Failed(Some(code)),
                    None if r.is_error => Status::Failed(None),
                    None => Status::Ok,
                },
            };
            Some(CommandRun {
                index: use_.index,
                source: use_.source,
                anchor: anchor_of(&display),
                display,
                status,
                output: use_
                    .result
                    .as_ref()
                    .map(|r| r.text.clone())
                    .unwrap_or_default(),
            })
        })
        .collect()
}

/// One fact per distinct command: runs of the same command are one line with each outcome.
pub(crate) fn command_facts(runs: &[CommandRun]) -> Vec<Fact> {
    // (display, outcomes, first run, anchors the outcomes add)
    let mut facts: Vec<(String, Vec<String>, &CommandRun, Vec<String>)> = Vec::new();
    for run in runs {
        let outcome = match run.status {
            Status::Ok => "ok".to_owned(),
            Status::Failed(Some(code)) => format!("failed (exit {code})"),
            Status::Failed(None) => "failed".to_owned(),
            Status::Unknown => "no result in the selection".to_owned(),
        };
        let summary = summary_line(&run.output).or_else(|| short_output(run));
        // What a run found (a count, a value) is part of the fact: a summary naming the
        // command but not its result has not kept it.
        let found: Vec<String> = summary
            .as_deref()
            .map(|s| {
                super::text::anchors_of(s, 2)
                    .into_iter()
                    .filter(|a| !run.display.contains(a.as_str()))
                    .collect()
            })
            .unwrap_or_default();
        let outcome = match summary {
            Some(s) => format!("{outcome}: {s}"),
            None => outcome,
        };
        match facts.iter_mut().find(|(d, _, _, _)| *d == run.display) {
            Some((_, outcomes, _, anchors)) => {
                outcomes.push(outcome);
                // The last run's result is the one that stands.
                *anchors = found;
            }
            None => facts.push((run.display.clone(), vec![outcome], run, found)),
        }
    }
    facts
        .into_iter()
        .map(|(display, outcomes, first, found)| {
            let mut anchors = chain_anchors(&display);
            anchors.extend(found);
            Fact {
                kind: FactKind::Command,
                text: format!("Ran `{display}` → {}", outcomes.join(", then ")),
                anchors,
                source: first.source,
            }
        })
        .collect()
}

/// Searches (Grep, Glob, a find tool) and what they found: the first line of their output.
pub(crate) fn search_facts(uses: &[ToolUse<'_>]) -> Vec<Fact> {
    uses.iter()
        .filter(|u| {
            let n = u.name.to_ascii_lowercase();
            (n.contains("grep") || n.contains("glob") || n.contains("search") || n.contains("find"))
                && command_of(u.input).is_none()
        })
        .filter_map(|u| {
            let result = u.result.as_ref()?;
            let first = result.text.lines().map(str::trim).find(|l| !l.is_empty())?;
            let what = ["pattern", "query", "file_name", "name", "path"]
                .iter()
                .find_map(|k| u.input.get(*k).and_then(Value::as_str))
                .unwrap_or("");
            let mut anchors = super::text::anchors_of(first, 2);
            if anchors.is_empty() {
                anchors = super::text::content_words(first, 2);
            }
            if anchors.is_empty() {
                return None;
            }
            Some(Fact {
                kind: FactKind::Command,
                text: format!(
                    "{} `{}` → {}",
                    u.name,
                    one_line(what, 60),
                    one_line(first, 100)
                ),
                anchors,
                source: result.source,
            })
        })
        .collect()
}

/// The output of a successful run that is one or two lines long ("344", "Imported 1,842
/// rows"): what the run found, in full.
fn short_output(run: &CommandRun) -> Option<String> {
    if run.status != Status::Ok {
        return None;
    }
    let lines: Vec<&str> = run
        .output
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !EXIT_CODE.is_match(l))
        .collect();
    match lines.as_slice() {
        [one] => Some(one_line(one, 100)),
        [_, two] => Some(one_line(two, 100)),
        _ => None,
    }
}

/// The command string of a shell call: `command` as a string or an argv array (Codex's
/// `["bash", "-lc", "…"]` is the script), or `cmd`. A patch is not a command.
fn command_of(input: &Value) -> Option<String> {
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

fn display_of(command: &str) -> String {
    let first = command.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let plain = PLUMBING.replace_all(first, " ");
    one_line(plain.trim(), 120)
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

/// The exit status an output reports last ("Process exited with code 1", "Exit code: 2"):
/// the ledger and the web UI's tool cards read it the same way.
pub fn last_exit_code(output: &str) -> Option<i64> {
    EXIT_CODE
        .captures_iter(output)
        .last()
        .and_then(|c| c.get(1))
        .and_then(|m| m.as_str().parse().ok())
}

/// The last line of an output that sums a run up ("test result: ok. 4 passed; 0 failed").
pub(crate) fn summary_line(output: &str) -> Option<String> {
    output
        .lines()
        .rev()
        .find(|l| SUMMARY_LINE.is_match(l))
        .map(|l| one_line(l.trim(), 100))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_name_program_and_subcommand() {
        assert_eq!(anchor_of("cargo test -p config"), "cargo test");
        assert_eq!(anchor_of("cd crates/x && npm run build"), "npm run");
        assert_eq!(
            anchor_of("python3 scripts/move_fn.py a b"),
            "scripts/move_fn.py"
        );
        assert_eq!(anchor_of("RUST_LOG=debug cargo run"), "cargo run");
        assert_eq!(anchor_of("ls -la"), "ls");
    }

    #[test]
    fn plumbing_is_not_part_of_the_command() {
        assert_eq!(
            display_of("cargo test -p config 2>&1 | tail -20"),
            "cargo test -p config"
        );
        assert_eq!(display_of("make 2>&1 | head -n 5\nsecond line"), "make");
    }

    #[test]
    fn exit_codes_are_read_from_outputs() {
        assert_eq!(last_exit_code("Process exited with code 1\nfoo"), Some(1));
        assert_eq!(last_exit_code("Exit code: 0"), Some(0));
        assert_eq!(last_exit_code("exit status 2"), Some(2));
        assert_eq!(last_exit_code("all good"), None);
    }
}
