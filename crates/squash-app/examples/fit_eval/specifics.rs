//! The specifics a history holds, read from the raw session lines by rules of the scorer's own
//! (nothing of the product's ledger, trimming or report): the files the agent touched, the
//! commands it ran, the paths and numbers its own words and tool inputs name, the numbers its
//! tools' outputs summed up ("12 tests", "1 failure"), and the error lines its commands printed
//! (and the first line of every failed tool call); a file's content read back is not an error. A specific survives
//! when its exact string (whitespace collapsed; a number as a whole word) is in the text a model
//! would read of the fitted thread; the lenient score also takes a path relative to the
//! session's working directory (the agent's own summary writes them so). Outputs are read as a
//! terminal shows them, without their colour escapes, on both sides.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;
use serde::Serialize;
use serde_json::Value;
use squash_core::{ContentItem, Message, ToolResultData};

/// Characters of a command's first line, or of an error line, that stand for it.
const COMMAND_CHARS: usize = 100;
const ERROR_CHARS: usize = 80;

static PATH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:/|\b[\w.-]+/)(?:[\w.-]+/)*[\w-]+\.[A-Za-z]{1,6}\b").expect("static regex")
});
static NUMBER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b\d{2,}(?:\.\d+)?\b").expect("static regex"));
static TALLY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(\d+) (?:tests?|passed|failed|failures?|errors?|warnings?|doctests?|skipped)\b",
    )
    .expect("static regex")
});
/// An error line in the output of a command that failed.
static ERROR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:error|exception|failed|failure|fatal|panicked|traceback|cannot|undefined)\b|^\*\* \(")
        .expect("static regex")
});
/// An error a command reported even though it did not fail: a log line's `[error]`, a
/// compiler's `error:`, an Elixir `** (`, a test's `FAILED` (warnings are not errors).
static REPORTED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\*\* \(|\[error\]|\b(?:error|fatal|panic|exception)\b:|\bFAILED\b|^traceback|\bcannot access\b|\bno such file\b")
        .expect("static regex")
});
const FILE_TOOLS: &[&str] = &["Read", "Edit", "MultiEdit", "Write", "NotebookEdit"];

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    File,
    Command,
    Path,
    Number,
    ErrorLine,
}

impl Kind {
    pub const ALL: [Kind; 5] = [
        Kind::File,
        Kind::Command,
        Kind::Path,
        Kind::Number,
        Kind::ErrorLine,
    ];
}

/// One specific and the strings that count for it: the exact string first; for a path, its
/// spelling relative to the working directory second (counted only by the lenient score).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Specific {
    pub kind: Kind,
    pub shown: String,
    pub spellings: Vec<String>,
}

/// Specifics of a history: the lines of a Claude Code session along its chain, in order.
pub fn of_history(chain: &[Value], cwd: &str) -> Vec<Specific> {
    let mut out: BTreeSet<Specific> = BTreeSet::new();
    let mut files: BTreeSet<String> = BTreeSet::new();
    // Which tool each call id ran: the error lines of a command's output count, a file read's
    // do not.
    let mut tools: std::collections::HashMap<String, String> = Default::default();
    for line in chain {
        let Some(blocks) = line.pointer("/message/content").and_then(Value::as_array) else {
            if let Some(text) = line.pointer("/message/content").and_then(Value::as_str) {
                if line["type"] == "assistant" {
                    prose(text, cwd, &files, &mut out);
                }
            }
            continue;
        };
        for block in blocks {
            match block["type"].as_str() {
                Some("text") if line["type"] == "assistant" => {
                    prose(block["text"].as_str().unwrap_or(""), cwd, &files, &mut out)
                }
                Some("tool_use") => {
                    tools.insert(
                        block["id"].as_str().unwrap_or("").to_owned(),
                        block["name"].as_str().unwrap_or("").to_owned(),
                    );
                    tool_use(block, cwd, &mut files, &mut out)
                }
                Some("tool_result") => {
                    let tool = block["tool_use_id"]
                        .as_str()
                        .and_then(|id| tools.get(id))
                        .map_or("", String::as_str);
                    let failed = block["is_error"] == true;
                    output(
                        &strip_ansi_escapes::strip_str(squash_testkit::content_text(
                            &block["content"],
                            "\n",
                        )),
                        tool,
                        failed,
                        &mut out,
                    )
                }
                _ => {}
            }
        }
    }
    // A path that is a file touched (or its spelling relative to the working directory)
    // counts once, as the file.
    let under = |p: &str| format!("{}/{p}", cwd.trim_end_matches('/'));
    out.retain(|s| {
        s.kind != Kind::Path || !(files.contains(&s.shown) || files.contains(&under(&s.shown)))
    });
    out.into_iter().collect()
}

fn tool_use(block: &Value, cwd: &str, files: &mut BTreeSet<String>, out: &mut BTreeSet<Specific>) {
    let name = block["name"].as_str().unwrap_or("");
    let input = &block["input"];
    if FILE_TOOLS.contains(&name) {
        if let Some(path) = ["file_path", "notebook_path", "path"]
            .iter()
            .find_map(|k| input[k].as_str())
        {
            files.insert(path.to_owned());
            out.insert(path_specific(Kind::File, path, cwd));
        }
    }
    if let Some(command) = input["command"].as_str() {
        let first = collapse(command.lines().find(|l| !l.trim().is_empty()).unwrap_or(""));
        let shown: String = first.chars().take(COMMAND_CHARS).collect();
        if !shown.is_empty() {
            out.insert(Specific {
                kind: Kind::Command,
                spellings: vec![shown.clone()],
                shown,
            });
        }
    }
    // Paths named in the other inputs (a search's path, a pattern), not the bodies an edit
    // writes.
    if let Value::Object(map) = input {
        for (key, value) in map {
            if matches!(
                key.as_str(),
                "content" | "old_string" | "new_string" | "command" | "prompt" | "plan"
            ) {
                continue;
            }
            if let Some(s) = value.as_str() {
                for m in PATH.find_iter(s) {
                    out.insert(path_specific(Kind::Path, m.as_str(), cwd));
                }
            }
        }
    }
}

fn prose(text: &str, cwd: &str, files: &BTreeSet<String>, out: &mut BTreeSet<Specific>) {
    let mut rest = text.to_owned();
    for m in PATH.find_iter(text) {
        if !files.contains(m.as_str()) {
            out.insert(path_specific(Kind::Path, m.as_str(), cwd));
        }
        rest = rest.replace(m.as_str(), " ");
    }
    for m in NUMBER.find_iter(&rest) {
        out.insert(number(m.as_str()));
    }
}

fn output(text: &str, tool: &str, failed: bool, out: &mut BTreeSet<Specific>) {
    for caps in TALLY.captures_iter(text) {
        if caps[1].len() >= 2 {
            out.insert(number(&caps[1]));
        }
    }
    let mut error = |line: &str| {
        let shown: String = collapse(line.trim()).chars().take(ERROR_CHARS).collect();
        if shown.len() >= 12 {
            out.insert(Specific {
                kind: Kind::ErrorLine,
                spellings: vec![shown.clone()],
                shown,
            });
        }
    };
    if failed {
        if let Some(first) = text.lines().find(|l| !l.trim().is_empty()) {
            error(first);
        }
    }
    if tool == "Bash" {
        let rule: &Regex = if failed { &ERROR } else { &REPORTED };
        for line in text.lines().filter(|l| rule.is_match(l.trim())) {
            error(line);
        }
    }
}

fn number(n: &str) -> Specific {
    Specific {
        kind: Kind::Number,
        shown: n.to_owned(),
        spellings: vec![n.to_owned()],
    }
}

fn path_specific(kind: Kind, path: &str, cwd: &str) -> Specific {
    let mut spellings = vec![path.to_owned()];
    let prefix = format!("{}/", cwd.trim_end_matches('/'));
    if let Some(relative) = path.strip_prefix(&prefix) {
        spellings.push(relative.to_owned());
    }
    Specific {
        kind,
        shown: path.to_owned(),
        spellings,
    }
}

/// The facts (each a list of its spellings) of which `lower`, a lower-case text, holds no
/// spelling.
pub fn not_held<'a>(
    facts: &'a [Vec<String>],
    lower: &'a str,
) -> impl Iterator<Item = &'a Vec<String>> {
    facts
        .iter()
        .filter(|spellings| !spellings.iter().any(|s| lower.contains(&s.to_lowercase())))
}

/// Whitespace runs as one space.
pub fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What a model reads of a thread, in the scorer's own rendering: prose, tool inputs' string
/// values, tool outputs' text; not reasoning (the APIs drop earlier turns' thinking).
pub fn visible_text(messages: &[Message]) -> String {
    let mut out = String::new();
    for m in messages {
        for item in &m.content {
            match item {
                ContentItem::UserMessage { text } => out.push_str(text),
                ContentItem::AssistantMessage { structured } => out.push_str(&structured.full_text),
                ContentItem::ToolCall { name, input, .. } => {
                    out.push_str(name);
                    strings(input, &mut out);
                }
                ContentItem::ToolResult { result, .. } => {
                    for r in result {
                        if let ToolResultData::Text { text } = r {
                            out.push_str(&strip_ansi_escapes::strip_str(text));
                            out.push('\n');
                        }
                    }
                }
                ContentItem::System { content, .. } => out.push_str(content),
                _ => {}
            }
            out.push('\n');
        }
    }
    out
}

fn strings(value: &Value, out: &mut String) {
    match value {
        Value::String(s) => {
            out.push('\n');
            out.push_str(s);
        }
        Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
        Value::Object(map) => map.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

/// Kept and total per kind (exact strings), the specifics missing, and how many are kept when
/// a path also counts by its spelling relative to the working directory.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Tally {
    pub kept: Vec<(Kind, usize, usize)>,
    pub missing: Vec<String>,
    pub lenient: usize,
}

impl Tally {
    pub fn of(&self, kind: Kind) -> (usize, usize) {
        self.kept
            .iter()
            .find(|(k, _, _)| *k == kind)
            .map_or((0, 0), |(_, a, b)| (*a, *b))
    }

    pub fn all(&self) -> (usize, usize) {
        self.kept
            .iter()
            .fold((0, 0), |(a, b), (_, k, t)| (a + k, b + t))
    }
}

/// Which of `specifics` `text` still holds.
pub fn kept(specifics: &[Specific], text: &str) -> Tally {
    let text = collapse(text);
    let mut tally = Tally::default();
    for kind in Kind::ALL {
        let of: Vec<&Specific> = specifics.iter().filter(|s| s.kind == kind).collect();
        let mut k = 0;
        for s in &of {
            let holds = |sp: &String| match kind {
                Kind::Number => has_word(&text, sp),
                _ => text.contains(&collapse(sp)),
            };
            if holds(&s.spellings[0]) {
                k += 1;
                tally.lenient += 1;
            } else {
                tally.lenient += usize::from(s.spellings[1..].iter().any(holds));
                tally.missing.push(format!("{kind:?}: {}", s.shown));
            }
        }
        tally.kept.push((kind, k, of.len()));
    }
    tally
}

/// `word` in `text` with no digit, letter or decimal point joined to it.
fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        let joined = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        let decimal = text[at + word.len()..].starts_with('.')
            && text[at + word.len() + 1..].starts_with(|c: char| c.is_ascii_digit());
        !joined(before) && !joined(after) && !decimal
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn specifics_of_a_small_history() {
        let chain = vec![
            json!({"type": "assistant", "message": {"content": [
                {"type": "text", "text": "Reading lib/app.ex; 43 tests expected."},
                {"type": "tool_use", "id": "r", "name": "Read", "input": {"file_path": "/w/p/lib/app.ex"}},
                {"type": "tool_use", "id": "b", "name": "Bash", "input": {"command": "mix test  2>&1 | tail -5\nsecond"}}
            ]}}),
            json!({"type": "user", "message": {"content": [
                {"type": "tool_result", "tool_use_id": "r", "content": "  3→{:error, reason} -> raise ArgumentError"},
                {"type": "tool_result", "tool_use_id": "b", "content": "** (CompileError) lib/app.ex:3: undefined function foo/0\n12 tests, 1 failure"}
            ]}}),
        ];
        let s = of_history(&chain, "/w/p");
        let shown: Vec<(Kind, &str)> = s.iter().map(|s| (s.kind, s.shown.as_str())).collect();
        assert!(shown.contains(&(Kind::File, "/w/p/lib/app.ex")));
        assert!(shown.contains(&(Kind::Command, "mix test 2>&1 | tail -5")));
        assert!(shown.contains(&(Kind::Number, "43")));
        assert!(shown.contains(&(Kind::Number, "12")));
        assert!(shown
            .iter()
            .any(|(k, t)| *k == Kind::ErrorLine && t.starts_with("** (CompileError)")));
        assert!(
            !shown.iter().any(|(_, t)| t.contains("ArgumentError")),
            "a read is not an error"
        );
        assert!(!shown.contains(&(Kind::Path, "lib/app.ex")), "{shown:?}");
        let t = kept(
            &s,
            "Read lib/app.ex and ran `mix test 2>&1 | tail -5`: 12 tests; 430 later",
        );
        assert_eq!(t.of(Kind::File), (0, 1), "the exact path is not there");
        assert_eq!(t.lenient, 3, "the relative one is");
        assert_eq!(t.of(Kind::Command), (1, 1));
        assert_eq!(t.of(Kind::Number), (1, 2), "43 is not in 430");
    }
}
