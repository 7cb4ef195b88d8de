//! Numbers that configure the work: a sample size, a limit, a threshold, a timeout set in the
//! code an edit writes or in a command's flags. They rarely come with a path, and a summary
//! that drops them changes what was done ("ran the simulation" is not "with 10,000 samples").

use serde_json::Value;

use super::fact::{Fact, FactKind};
use super::tool_use::ToolUse;
use crate::text::{one_line, patterns};

/// Settings kept per tool use: the first ones an edit or a command sets.
const PER_USE: usize = 3;

patterns! {
    /// A number as a flag's value: `10000`, `0.5`, `10_000`.
    NUMBER = r"^\d[\d_]*(?:\.\d+)?$";
    /// `N_SAMPLES = 10_000`, `max_retries: 5,`, `@timeout 5000`, `let limit = 20;`.
    ASSIGNMENT = r"(?m)^\s*(?:@|(?:pub\s+)?(?:const|let|var|static|final|val)\s+(?:mut\s+)?)?([A-Za-z_][A-Za-z0-9_]*)\s*(?::\s*[A-Za-z0-9_<>\[\]]+\s*)?(?:=|:|\s)\s*(-?\d[\d_]*(?:\.\d+)?(?:[eE]-?\d+)?)\s*[,;)]?\s*(?:#.*|//.*)?$";
    /// Names that say a number configures something (or a constant's capitals).
    CONFIG_NAME = r"(?i)(?:size|limit|max|min|threshold|timeout|retr(?:y|ies)|samples?|count|^num|^n$|^n_|_n$|port|ttl|interval|batch|depth|capacity|budget|window|delay|rate|seed|epochs?|iterations?|steps|workers|threads|tolerance|^k$|top_?k|^lr$|learning_rate|percent|ratio|level)";
}

/// The settings `use_` makes: flags of a shell command, assignments its edit or code adds.
pub(crate) fn settings(use_: &ToolUse<'_>) -> Vec<Fact> {
    let source = use_.source;
    let mut out: Vec<Fact> = Vec::new();
    let mut push = |text: String, anchors: Vec<String>| {
        if out.len() < PER_USE && !out.iter().any(|f| f.text == text) {
            out.push(Fact {
                kind: FactKind::Value,
                text,
                anchors,
                source,
            });
        }
    };
    let str_of = |key: &str| use_.input.get(key).and_then(Value::as_str);
    if let Some(command) = str_of("command").or_else(|| str_of("cmd")) {
        let first = command.lines().next().unwrap_or("");
        let words: Vec<&str> = first.split_whitespace().collect();
        for (i, word) in words.iter().enumerate() {
            // `--samples 10000` or `--samples=10000`; `--oneline -20` and `2>&1` are not values.
            let (flag, value) = match word.split_once('=') {
                Some((flag, value)) => (flag, value),
                None => (*word, words.get(i + 1).copied().unwrap_or("")),
            };
            if flag.len() > 2 && flag.starts_with("--") && NUMBER.is_match(value) {
                push(
                    format!("Set `{flag} {value}` in `{}`", one_line(first, 80)),
                    vec![flag.to_owned(), value.to_owned()],
                );
            }
        }
        return out;
    }
    let path = ["file_path", "filePath", "path"]
        .iter()
        .find_map(|k| str_of(k))
        .map(|p| format!(" in {p}"))
        .unwrap_or_default();
    let old = str_of("old_string").unwrap_or("");
    for key in ["new_string", "content", "code"] {
        let Some(code) = str_of(key) else { continue };
        for caps in ASSIGNMENT.captures_iter(code) {
            let (name, value) = (&caps[1], &caps[2]);
            let constant = name.len() > 1
                && name
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit());
            if !(constant || CONFIG_NAME.is_match(name)) || old.contains(&caps[0].trim().to_owned())
            {
                continue;
            }
            push(
                format!("Set `{name} = {value}`{path}"),
                vec![name.to_owned(), value.to_owned()],
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::MessageId;
    use serde_json::json;

    fn of(name: &str, input: Value) -> Vec<String> {
        let use_ = ToolUse {
            index: 0,
            source: MessageId::new(),
            name,
            input: &input,
            result: None,
        };
        settings(&use_).into_iter().map(|f| f.text).collect()
    }

    #[test]
    fn flags_and_assignments_that_configure_the_work() {
        assert_eq!(
            of(
                "Bash",
                json!({"command": "python sim.py --samples 10000 --seed=7 2>&1"})
            ),
            vec![
                "Set `--samples 10000` in `python sim.py --samples 10000 --seed=7 2>&1`",
                "Set `--seed 7` in `python sim.py --samples 10000 --seed=7 2>&1`"
            ]
        );
        assert_eq!(
            of(
                "python",
                json!({"code": "import random\nN_SAMPLES = 10_000\nx = 3\ntotal = 0\nbatch_size: int = 64"})
            ),
            vec!["Set `N_SAMPLES = 10_000`", "Set `batch_size = 64`"]
        );
        // What the edit had before is not a new setting.
        assert_eq!(
            of(
                "Edit",
                json!({"file_path": "lib/a.ex", "old_string": "@timeout 5000\n", "new_string": "@timeout 5000\n@max_retries 3\n"})
            ),
            vec!["Set `max_retries = 3` in lib/a.ex"]
        );
        assert!(of("Bash", json!({"command": "tail -30 log.txt"})).is_empty());
        assert!(of("Bash", json!({"command": "git log --oneline -20"})).is_empty());
        assert!(of("Bash", json!({"command": "mix ash.codegen x --yes 2>&1"})).is_empty());
    }
}
