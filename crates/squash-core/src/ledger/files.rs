//! Files read, written or edited, from the tools' own inputs (never guessed from prose).

use serde_json::Value;

use super::{Fact, FactKind, ToolUse};

/// What was done to a file; a later, stronger action wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Action {
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

pub(crate) fn file_facts(uses: &[ToolUse<'_>]) -> Vec<Fact> {
    // (path, strongest action, source of the first touch, names an edit introduced), in
    // first-touch order.
    let mut touched: Vec<(String, Action, crate::ids::MessageId, Vec<String>)> = Vec::new();
    let mut record = |path: &str, action: Action, use_: &ToolUse<'_>| {
        let path = path.trim();
        if path.is_empty() || path.len() > 300 {
            return;
        }
        // A failed write did not write.
        let failed = use_.result.as_ref().is_some_and(|r| r.is_error);
        if failed && action != Action::Read {
            return;
        }
        let introduced = introduced_names(use_.input);
        match touched.iter_mut().find(|(p, _, _, _)| p == path) {
            Some(entry) => {
                entry.1 = entry.1.max(action);
                for name in introduced {
                    if !entry.3.contains(&name) && entry.3.len() < 3 {
                        entry.3.push(name);
                    }
                }
            }
            None => touched.push((path.to_owned(), action, use_.source, introduced)),
        }
    };
    for use_ in uses {
        if let Some(patch) = patch_text(use_) {
            for (path, action) in patch_files(patch) {
                record(&path, action, use_);
            }
            continue;
        }
        let Some(action) = Action::of_tool(use_.name) else {
            continue;
        };
        for key in PATH_KEYS {
            if let Some(path) = use_.input.get(*key).and_then(Value::as_str) {
                record(path, action, use_);
                break;
            }
        }
    }
    touched
        .into_iter()
        .map(|(path, action, source, names)| {
            let text = if names.is_empty() {
                format!("{} {path}", action.verb())
            } else {
                format!("{} {path} ({})", action.verb(), names.join(", "))
            };
            let mut anchors = vec![path];
            anchors.extend(names);
            Fact {
                kind: FactKind::File,
                text,
                anchors,
                source,
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
    for term in super::text::anchors_of(new, 8) {
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

/// The patch text of an `apply_patch` call (Codex), whatever the input's shape.
fn patch_text<'a>(use_: &'a ToolUse<'_>) -> Option<&'a str> {
    let input = use_.input;
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
