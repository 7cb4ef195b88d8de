//! Errors (from failed commands, failed tools and system errors) and what fixed them.
//!
//! The spec's rule for errors and corrections is "keep the final corrected state": an error
//! that a later run of the same command no longer has becomes one `Fix` fact ("X fixed by Y")
//! instead of an open error.

use serde_json::Value;

use super::commands::{CommandObs, Status};
use super::fact::{Fact, FactKind};
use super::files::PATH_KEYS;
use super::output::{anchors_of_error, error_lines, is_error_line, LINE_MAX_CHARS};
use super::tool_use::{ToolOutcome, ToolUse};
use crate::ids::MessageId;
use crate::message::{ContentItem, Message, SystemLevel};
use crate::text::one_line;

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
/// same command (or a retry of the same tool on the same target) succeeded, as a `Fix`. The
/// failures of one command that the same later run fixed are one fact, the command's history
/// on one line: "Fixed: `cargo test` failed with X → edited lib.rs → failed with Y → ok after
/// `…`".
pub(crate) fn error_facts(runs: &[(usize, &CommandObs)], tools: &[&ToolUseObs]) -> Vec<Fact> {
    let mut facts: Vec<Fact> = Vec::new();
    let mut open_fixes: Vec<OpenFix<'_>> = Vec::new();
    for (i, &(index, run)) in runs.iter().enumerate() {
        if !matches!(run.status, Status::Failed(_)) {
            continue;
        }
        let fixed_by = runs[i + 1..]
            .iter()
            .position(|(_, later)| later.status == Status::Ok && same_command(run, later))
            .map(|p| i + 1 + p);
        let Some(fix) = fixed_by else {
            facts.push(Fact {
                kind: FactKind::Error,
                text: format!("{} failed: {}", run.short(), run.error_lines.join("; ")),
                anchors: run.error_anchors.clone(),
                source: run.source,
            });
            continue;
        };
        match open_fixes.iter_mut().find(|open| open.fixed_by == fix) {
            Some(open) => {
                let edits = edits_between(tools, open.last_failure, index);
                let fact = &mut facts[open.fact];
                fact.text.push_str(&again_text(&run.error_lines, edits));
                for anchor in &run.error_anchors {
                    if !fact.anchors.contains(anchor) {
                        fact.anchors.push(anchor.clone());
                    }
                }
                open.last_failure = index;
            }
            None => {
                open_fixes.push(OpenFix {
                    fixed_by: fix,
                    fact: facts.len(),
                    last_failure: index,
                    first: run,
                });
                facts.push(Fact {
                    kind: FactKind::Fix,
                    text: format!(
                        "Fixed: {} failed with {}",
                        run.short(),
                        run.error_lines.join("; ")
                    ),
                    anchors: run.error_anchors.clone(),
                    source: run.source,
                });
            }
        }
    }
    for open in open_fixes {
        let (fixed_at, fixed) = runs[open.fixed_by];
        let edits = edits_between(tools, open.last_failure, fixed_at);
        facts[open.fact]
            .text
            .push_str(&fixed_text(open.first, fixed, edits));
    }
    facts.extend(tool_errors(tools));
    facts
}

/// Where a command's history line names the run that fixed it, another command: "… → ok after
/// `python3 fix.py && cargo test`" (the note reads it back to end the line with that run's
/// output).
pub(crate) const FIXED_BY: &str = " → ok after ";

/// A command's history line being written: the run that fixes it (an index into the runs), its
/// fact (an index into the facts), where its last failure was, and its first failed run.
struct OpenFix<'a> {
    fixed_by: usize,
    fact: usize,
    last_failure: usize,
    first: &'a CommandObs,
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

/// A further failure of a command on its history line, after the edits made since the last.
fn again_text(lines: &[String], edits: Vec<String>) -> String {
    let edited = if edits.is_empty() {
        String::new()
    } else {
        format!(" → edited {}", edits.join(", "))
    };
    format!("{edited} → failed with {}", lines.join("; "))
}

/// The end of a command's history line: the edits made since its last failure, and the run
/// that passed when it is another command (a chain, a script run before it).
fn fixed_text(failed: &CommandObs, fixed: &CommandObs, edits: Vec<String>) -> String {
    let mut out = String::new();
    if !edits.is_empty() {
        out.push_str(&format!(" → edited {}", edits.join(", ")));
    }
    if fixed.key == failed.key {
        out.push_str(" → passed");
    } else {
        out.push_str(&format!("{FIXED_BY}{}", fixed.short()));
    }
    out
}

fn edited_path(use_: &ToolUse<'_>) -> Option<String> {
    let name = use_.name.to_ascii_lowercase();
    if !(name.contains("edit") || name.contains("write") || name.contains("patch")) {
        return None;
    }
    PATH_KEYS
        .iter()
        .find_map(|k| use_.input.get(*k).and_then(Value::as_str))
        .map(str::to_owned)
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
    !reads && result.text.lines().take(6).any(is_error_line)
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
