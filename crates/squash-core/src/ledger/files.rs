//! Files read, written or edited, from the tools' own inputs (never guessed from prose).

use std::borrow::Cow;

use serde_json::Value;

use super::code_mode;
use super::fact::{Fact, FactKind};
use super::tool_use::ToolUse;
use crate::ids::MessageId;

/// What was done to a file; a later, stronger action wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Action {
    Read,
    Edited,
    Wrote,
    Deleted,
}

impl Action {
    fn verb(self) -> &'static str {
        match self {
            Action::Read => "Read",
            Action::Edited => "Edited",
            Action::Wrote => "Wrote",
            Action::Deleted => "Deleted",
        }
    }

    /// The action a tool name implies for the path in its input, if it touches a file at all.
    fn of_tool(name: &str) -> Option<Action> {
        let n = name.to_ascii_lowercase();
        if n.contains("read") || n == "view" || n == "open" || n == "cat" {
            Some(Action::Read)
        } else if n.contains("edit") || n.contains("replace") || n.contains("patch") {
            Some(Action::Edited)
        } else if n.contains("write") || n.contains("create") {
            Some(Action::Wrote)
        } else if n.contains("delete") || n.contains("remove") {
            Some(Action::Deleted)
        } else {
            None
        }
    }
}

pub(super) const PATH_KEYS: &[&str] =
    &["file_path", "filePath", "path", "notebook_path", "filename"];

/// One file one tool use touched.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FileTouch {
    pub path: String,
    pub action: Action,
    /// Names the edit brought in.
    pub names: Vec<String>,
    pub source: MessageId,
}

/// The files a tool use touched (a patch may touch several); a failed write touched nothing.
pub(crate) fn touches(use_: &ToolUse<'_>) -> Vec<FileTouch> {
    let failed = use_.result.as_ref().is_some_and(|r| r.is_error);
    let touch = |path: &str, action: Action| -> Option<FileTouch> {
        let path = path.trim();
        if path.is_empty() || path.len() > 300 || failed && action != Action::Read {
            return None;
        }
        Some(FileTouch {
            path: path.to_owned(),
            action,
            names: introduced_names(use_.input),
            source: use_.source,
        })
    };
    if let Some(patch) = patch_text(use_) {
        return patch_files(&patch)
            .into_iter()
            .filter_map(|(path, action)| touch(&path, action))
            .collect();
    }
    let Some(action) = Action::of_tool(use_.name) else {
        return Vec::new();
    };
    PATH_KEYS
        .iter()
        .find_map(|k| use_.input.get(*k).and_then(Value::as_str))
        .and_then(|path| touch(path, action))
        .into_iter()
        .collect()
}

/// One fact per file, in first-touch order, with the strongest action and the names edits
/// brought in (at most three).
pub(crate) fn file_facts(touches: &[&FileTouch]) -> Vec<Fact> {
    let mut merged: Vec<FileTouch> = Vec::new();
    for touch in touches {
        match merged.iter_mut().find(|t| t.path == touch.path) {
            Some(entry) => {
                entry.action = entry.action.max(touch.action);
                for name in &touch.names {
                    if !entry.names.contains(name) && entry.names.len() < 3 {
                        entry.names.push(name.clone());
                    }
                }
            }
            None => merged.push((*touch).clone()),
        }
    }
    merged
        .into_iter()
        .map(|t| {
            let text = if t.names.is_empty() {
                format!("{} {}", t.action.verb(), t.path)
            } else {
                format!("{} {} ({})", t.action.verb(), t.path, t.names.join(", "))
            };
            let mut anchors = vec![t.path];
            anchors.extend(t.names);
            Fact {
                kind: FactKind::File,
                text,
                anchors,
                source: t.source,
            }
        })
        .collect()
}

/// Identifiers an edit brings in (in its new text and not in its old one): what changed, in
/// names. At most two.
fn introduced_names(input: &Value) -> Vec<String> {
    let (Some(old), Some(new)) = (
        input.get("old_string").and_then(Value::as_str),
        input.get("new_string").and_then(Value::as_str),
    ) else {
        return Vec::new();
    };
    let mut names: Vec<String> = Vec::new();
    for term in super::anchors::anchors_of(new, 8) {
        let term = term.trim_end_matches("()").to_owned();
        let fits = !old.contains(term.as_str())
            && term.chars().any(|c| c.is_alphabetic())
            && term.len() <= 40
            && !term.contains(char::is_whitespace);
        if fits && !names.contains(&term) && names.len() < 2 {
            names.push(term);
        }
    }
    names
}

/// The patch text of an `apply_patch` call (Codex), whatever the input's shape; of a
/// code-mode script, the patches it applies.
fn patch_text<'a>(use_: &ToolUse<'a>) -> Option<Cow<'a, str>> {
    let input = use_.input;
    if code_mode::is_script(input) {
        let patches: Vec<String> = code_mode::nested_calls(input.as_str()?)
            .into_iter()
            .filter(|call| call.name == "apply_patch")
            .filter_map(|call| match call.input {
                Value::String(patch) => Some(patch),
                other => other
                    .get("patch")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            })
            .filter(|t| t.contains("*** Begin Patch"))
            .collect();
        return (!patches.is_empty()).then(|| Cow::Owned(patches.join("\n")));
    }
    let candidates = [
        input.get("patch").and_then(Value::as_str),
        input.get("input").and_then(Value::as_str),
        input.as_str(),
        input
            .get("command")
            .and_then(Value::as_array)
            .and_then(|a| a.last())
            .and_then(Value::as_str),
        input.get("command").and_then(Value::as_str),
    ];
    candidates
        .into_iter()
        .flatten()
        .find(|t| t.contains("*** Begin Patch"))
        .map(Cow::Borrowed)
}

fn patch_files(patch: &str) -> Vec<(String, Action)> {
    patch
        .lines()
        .filter_map(|line| {
            let line = line.trim();
            let (rest, action) = if let Some(r) = line.strip_prefix("*** Update File:") {
                (r, Action::Edited)
            } else if let Some(r) = line.strip_prefix("*** Add File:") {
                (r, Action::Wrote)
            } else if let Some(r) = line.strip_prefix("*** Delete File:") {
                (r, Action::Deleted)
            } else {
                return None;
            };
            Some((rest.trim().to_owned(), action))
        })
        .collect()
}
