//! Errors (from failed commands, failed tools and system errors) and what fixed them.
//!
//! The spec's rule for errors and corrections is "keep the final corrected state": an error
//! that a later run of the same command no longer has becomes one `Fix` fact ("X fixed by Y")
//! instead of an open error.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use super::commands::{summary_line, CommandObs, Status};
use super::observe::{ToolOutcome, ToolUse};
use super::text::{anchors_of, content_words};
use super::{Fact, FactKind};
use crate::ids::MessageId;
use crate::message::{ContentItem, Message, SystemLevel};
use crate::text::one_line;

/// Error lines kept per failed run: the first ones name the cause, later ones its echoes.
const LINES_PER_RUN: usize = 3;
const LINE_MAX_CHARS: usize = 140;

/// Word boundaries are ASCII (`(?-u:\b)`): every word it looks for is ASCII, and a Unicode
/// boundary makes the regex engine leave its fast automaton for a backtracker on any line with
/// a non-ASCII character — every line of Claude Code's `Read` output (`  12→…`) has one, and
/// this regex reads every line of every output a fit trims.
static ERROR_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?:(?-u:\b)error(?:\[[A-Z]*\d+\])?(?::|\s+[A-Z]{1,3}\d{3,})|(?-u:\b)ERROR(?-u:\b)|(?-u:\b)FAIL(?:ED|URE)?(?-u:\b)|panicked at|(?-u:\b)[A-Z][A-Za-z]*(?:Error|Exception)(?-u:\b)|(?-u:\b)Error:|npm ERR!|(?-u:\b)fatal:|syntax error|(?-u:\b)CONFLICT(?-u:\b)|●|command not found|No such file or directory|Permission denied|Segmentation fault|(?-u:\b)Assertion|(?m:^)\s*\*\* \()",
    )
    .expect("static regex")
});
static CODE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?-u:\b)(?:E\d{4}|TS\d{4}|[A-Z]{1,4}\d{3,5}|E[A-Z]{3,9}|[A-Z][A-Za-z]*(?:Error|Exception))(?-u:\b)",
    )
    .expect("static regex")
});
static TEST_NAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u:\b)(?:[a-z_][a-z0-9_]*::)+[a-z_][a-z0-9_]*(?-u:\b)|(?-u:\b)test_[A-Za-z0-9_]+(?-u:\b)|(?-u:\b)[\w/.-]+\.(?:py|ts|js|rs|go)::[\w:]+")
        .expect("static regex")
});

/// A tool use that is not a shell command, as far as errors and fixes need it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ToolUseObs {
    pub index: usize,
    pub name: String,
    /// The path, URL or pattern it worked on.
    pub target: Option<String>,
    /// `None` when the selection has no result.
    pub failed: Option<bool>,
    /// Of a failure: its first error line (or last line), the result's message and anchors.
    pub error: Option<(String, MessageId, Vec<String>)>,
    /// The path it edited or wrote, when it succeeded.
    pub edited: Option<String>,
}

pub(crate) fn observe_tool(use_: &ToolUse<'_>) -> ToolUseObs {
    let failed = use_.result.as_ref().map(|r| failed(use_.name, r));
    let error = use_
        .result
        .as_ref()
        .filter(|_| failed == Some(true))
        .map(|r| {
            let first = error_lines(&r.text).into_iter().next().unwrap_or_default();
            let anchors = anchors_of_error(&first);
            (first, r.source, anchors)
        });
    ToolUseObs {
        index: use_.index,
        name: use_.name.to_owned(),
        target: target_of(use_),
        failed,
        error,
        edited: (failed != Some(true)).then(|| edited_path(use_)).flatten(),
    }
}

/// Errors of failed commands and tools, each as an open `Error` or, when a later run of the
/// same command (or a retry of the same tool on the same target) succeeded, as a `Fix` that
/// names the edits made in between.
pub(crate) fn error_facts(runs: &[(usize, &CommandObs)], tools: &[&ToolUseObs]) -> Vec<Fact> {
    let mut facts = Vec::new();
    for (i, &(index, run)) in runs.iter().enumerate() {
        if !matches!(run.status, Status::Failed(_)) {
            continue;
        }
        let fixed_by = runs[i + 1..]
            .iter()
            .find(|(_, later)| later.status == Status::Ok && same_command(run, later));
        let (kind, text) = match fixed_by {
            Some(&(fixed_at, later)) => (
                FactKind::Fix,
                fix_text(
                    &run.error_lines,
                    run,
                    later,
                    edits_between(tools, index, fixed_at),
                ),
            ),
            None => (
                FactKind::Error,
                format!("{} failed: {}", run.short(), run.error_lines.join("; ")),
            ),
        };
        facts.push(Fact {
            kind,
            text,
            anchors: run.error_anchors.clone(),
            source: run.source,
        });
    }
    facts.extend(tool_errors(tools));
    facts
}

/// A later run fixes an earlier one when it runs the same command (or a chain containing it).
fn same_command(failed: &CommandObs, later: &CommandObs) -> bool {
    later.key.contains(&failed.key) || later.anchor == failed.anchor
}

/// The paths edited successfully after `from` and up to `to` (call positions), each once.
fn edits_between(tools: &[&ToolUseObs], from: usize, to: usize) -> Vec<String> {
    tools
        .iter()
        .filter(|t| t.index > from && t.index <= to)
        .filter_map(|t| t.edited.clone())
        .fold(Vec::new(), |mut acc, p| {
            if !acc.contains(&p) {
                acc.push(p);
            }
            acc
        })
}

fn fix_text(
    lines: &[String],
    failed: &CommandObs,
    fixed: &CommandObs,
    edits: Vec<String>,
) -> String {
    let how = if !edits.is_empty() {
        format!(" by editing {}", edits.join(", "))
    } else if fixed.key != failed.key {
        format!(" (ok after {})", fixed.short())
    } else {
        String::new()
    };
    format!(
        "Fixed{how}: {} failed with {}",
        failed.short(),
        lines.join("; ")
    )
}

/// The error lines of a failed run that add something (a line naming only what an earlier
/// line named is an echo of it), and the anchors they name together.
pub(crate) fn run_errors(output: &str) -> (Vec<String>, Vec<String>) {
    let mut lines = Vec::new();
    let mut anchors: Vec<String> = Vec::new();
    for line in error_lines(output) {
        let own = anchors_of_error(&line);
        if !lines.is_empty() && own.iter().all(|a| anchors.contains(a)) {
            continue;
        }
        for a in own {
            if !anchors.contains(&a) && anchors.len() < 3 {
                anchors.push(a);
            }
        }
        lines.push(line);
    }
    (lines, anchors)
}

fn edited_path(use_: &ToolUse<'_>) -> Option<String> {
    let name = use_.name.to_ascii_lowercase();
    if !(name.contains("edit") || name.contains("write") || name.contains("patch")) {
        return None;
    }
    super::files::PATH_KEYS
        .iter()
        .find_map(|k| use_.input.get(*k).and_then(Value::as_str))
        .map(str::to_owned)
}

/// The lines of an output that say what went wrong, at most [`LINES_PER_RUN`]; when none
/// does, the line that sums the run up, else the last line.
fn error_lines(output: &str) -> Vec<String> {
    let mut lines = matching_error_lines(output, LINES_PER_RUN);
    if lines.is_empty() {
        let fallback = summary_line(output).or_else(|| {
            output
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .map(|l| one_line(l.trim(), LINE_MAX_CHARS))
        });
        lines.extend(fallback);
    }
    lines
}

/// The first `max` distinct lines of an output that read as errors (benign mentions such as
/// "0 failed" aside), each cut to one short line.
pub(crate) fn matching_error_lines(output: &str, max: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    // Most outputs have no error at all: one pass over the whole text says so.
    if !ERROR_LINE.is_match(output) {
        return lines;
    }
    for line in output.lines() {
        if lines.len() == max {
            break;
        }
        let trimmed = line.trim();
        if ERROR_LINE.is_match(trimmed) && !is_benign(trimmed) {
            let shown = one_line(trimmed, LINE_MAX_CHARS);
            if !lines.contains(&shown) {
                lines.push(shown);
            }
        }
    }
    lines
}

/// Whether any line of `text` may read as an error: one pass that most outputs end at.
pub(crate) fn may_have_errors(text: &str) -> bool {
    ERROR_LINE.is_match(text)
}

/// Whether `line` reads as an error (benign mentions such as "0 failed" aside).
pub(crate) fn is_error_line(line: &str) -> bool {
    let trimmed = line.trim();
    ERROR_LINE.is_match(trimmed) && !is_benign(trimmed)
}

/// Lines that mention errors without being one ("0 errors", "error handling").
fn is_benign(line: &str) -> bool {
    let lower = line.to_lowercase();
    lower.contains(" 0 failed") && !lower.contains("failed;") && lower.contains("ok")
        || lower.starts_with("test result: ok")
}

fn anchors_of_error(line: &str) -> Vec<String> {
    let mut anchors: Vec<String> = CODE
        .find_iter(line)
        .chain(TEST_NAME.find_iter(line))
        .map(|m| m.as_str().to_owned())
        .fold(Vec::new(), |mut acc, a| {
            if !acc.contains(&a) {
                acc.push(a);
            }
            acc
        });
    anchors.truncate(3);
    if anchors.is_empty() {
        anchors = anchors_of(line, 2);
    }
    if anchors.is_empty() {
        anchors = content_words(line, 2);
    }
    anchors
}

/// A tool other than a shell that failed (an edit whose text was not found, a missing file),
/// fixed when a later call of the same tool on the same target succeeded.
fn tool_errors(tools: &[&ToolUseObs]) -> Vec<Fact> {
    let mut facts = Vec::new();
    for (i, tool) in tools.iter().enumerate() {
        let Some((first, source, error_anchors)) = &tool.error else {
            continue;
        };
        let retried = tools[i + 1..].iter().any(|later| {
            later.name == tool.name && later.target == tool.target && later.failed == Some(false)
        });
        let what = match &tool.target {
            Some(t) => format!("{} on {t}", tool.name),
            None => tool.name.clone(),
        };
        let text = if retried {
            format!("{what} failed ({first}), then succeeded on retry")
        } else {
            format!("{what} failed: {first}")
        };
        let mut anchors = error_anchors.clone();
        if let Some(t) = &tool.target {
            anchors.insert(0, t.clone());
            anchors.truncate(2);
        }
        facts.push(Fact {
            kind: if retried {
                FactKind::Fix
            } else {
                FactKind::Error
            },
            text,
            anchors,
            source: *source,
        });
    }
    facts
}

/// A tool result that failed: flagged as an error, or (for a tool that changes something) one
/// whose first lines say so without the flag (SWE-agent's editor, some MCP tools).
fn failed(tool: &str, result: &ToolOutcome) -> bool {
    if result.is_error {
        return true;
    }
    let name = tool.to_ascii_lowercase();
    let reads = [
        "read", "open", "view", "cat", "search", "find", "grep", "glob", "list", "ls",
    ]
    .iter()
    .any(|r| name.contains(r));
    !reads
        && result
            .text
            .lines()
            .take(6)
            .any(|l| ERROR_LINE.is_match(l.trim()) && !is_benign(l.trim()))
}

fn target_of(use_: &ToolUse<'_>) -> Option<String> {
    ["file_path", "filePath", "path", "url", "pattern"]
        .iter()
        .find_map(|k| use_.input.get(*k).and_then(Value::as_str))
        .map(str::to_owned)
}

/// The errors a message's system notes report.
pub(crate) fn system_errors(message: &Message) -> Vec<Fact> {
    let mut facts = Vec::new();
    for item in &message.content {
        if let ContentItem::System {
            level: SystemLevel::Error,
            content,
            ..
        } = item
        {
            let line = one_line(content, LINE_MAX_CHARS);
            if line.is_empty() {
                continue;
            }
            facts.push(Fact {
                kind: FactKind::Error,
                text: format!("System error: {line}"),
                anchors: anchors_of_error(&line),
                source: message.id,
            });
        }
    }
    facts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_lines_skip_success_summaries() {
        let out = "running 4 tests\ntest a ... ok\ntest tests::parses ... FAILED\n\
                   thread 'tests::parses' panicked at src/lib.rs:3:5\n\
                   test result: FAILED. 3 passed; 1 failed";
        assert_eq!(
            error_lines(out),
            vec![
                "test tests::parses ... FAILED".to_owned(),
                "thread 'tests::parses' panicked at src/lib.rs:3:5".to_owned(),
                "test result: FAILED. 3 passed; 1 failed".to_owned()
            ]
        );
        assert_eq!(
            error_lines("test result: ok. 4 passed; 0 failed"),
            vec!["test result: ok. 4 passed; 0 failed".to_owned()]
        );
    }

    #[test]
    fn error_anchors_prefer_codes_and_test_names() {
        assert_eq!(
            anchors_of_error("error[E0425]: cannot find function `x` in this scope"),
            vec!["E0425".to_owned()]
        );
        assert_eq!(
            anchors_of_error("test tests::parses_minimal_file ... FAILED"),
            vec!["tests::parses_minimal_file".to_owned()]
        );
        assert_eq!(
            anchors_of_error("FileNotFoundError: config.yaml"),
            vec!["FileNotFoundError".to_owned()]
        );
    }

    #[test]
    fn error_lines_are_found_among_non_ascii_lines() {
        // Claude Code's Read output: every line has a `→`; the error words are still words.
        let read = "     1→use std::fmt;\n     2→// ERROR: keep this in sync\n     3→let é = 1;\n\
                    \u{20}    4→panic!(\"FAILED — überall\");\n     5→let xFAILED = 0;";
        assert_eq!(
            matching_error_lines(read, 5),
            vec![
                "2→// ERROR: keep this in sync".to_owned(),
                "4→panic!(\"FAILED — überall\");".to_owned()
            ]
        );
        assert!(matching_error_lines("Ошибка → all fine, 0 problems\n", 5).is_empty());
        assert!(matching_error_lines("", 5).is_empty());
    }
}
