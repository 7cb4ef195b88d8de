//! The cases: hand-written and cut from sessions (testdata/eval/cases.json, written by
//! testdata/eval/cases.py), and generated ones whose facts are planted by the generator.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::{json, Value};
use squash_core::{ContentItem, Role};

#[derive(Clone, Debug, Deserialize)]
pub struct Case {
    pub name: String,
    pub origin: String,
    /// The messages, for cases that carry them.
    #[serde(default)]
    pub messages: Vec<CaseMessage>,
    /// A session file (relative to testdata/sessions) for cases cut from one.
    #[serde(default)]
    pub session: Option<String>,
    /// 1-based positions: `[from, to]` inclusive for sessions; a list of positions for
    /// messages; `None`: all.
    #[serde(default)]
    pub select: Option<Vec<usize>>,
    pub facts: Vec<Vec<String>>,
    #[serde(default)]
    pub forbidden: Vec<String>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct CaseMessage {
    pub role: Role,
    pub content: Vec<ContentItem>,
}

pub fn load(path: &Path) -> Result<Vec<Case>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut cases: Vec<Case> =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    cases.extend(generated());
    Ok(cases)
}

pub fn session_path(root: &Path, name: &str) -> PathBuf {
    root.join("testdata/sessions").join(name)
}

const MODULES: [&str; 8] = [
    "parser", "router", "cache", "auth", "billing", "search", "export", "metrics",
];

/// Eight tool-heavy agent runs: a failing test with a compiler error in a module, a long build
/// log, a fix, a passing run. The planted facts are the facts.
fn generated() -> Vec<Case> {
    MODULES
        .iter()
        .enumerate()
        .map(|(k, module)| {
            let file = format!("crates/{module}/src/lib.rs");
            let code = format!("E0{}", 277 + k * 11);
            let test = format!("{module}::tests::handles_empty_input");
            let passed = 10 + k * 3;
            let fn_name = format!("normalize_{module}_key");
            let log: String = (0..120)
                .map(|i| format!("   Compiling dep-{i} v0.{}.{}\n", i % 7, i % 13))
                .collect();
            let messages = vec![
                msg("user", vec![json!({"type": "user_message", "text": format!("The {module} tests fail since yesterday's merge. Fix them without touching the public API.")})]),
                msg("assistant", vec![
                    json!({"type": "assistant_message", "structured": {"full_text": "Running the tests first."}}),
                    json!({"type": "tool_call", "id": "g1", "name": "Bash", "input": {"command": format!("cargo test -p {module}")}}),
                ]),
                msg("user", vec![json!({"type": "tool_result", "tool_use_id": "g1", "tool_name": "Bash", "is_error": true,
                    "result": [{"type": "text", "text": format!("{log}error[{code}]: mismatched types in `{fn_name}`\n  --> {file}:{}:9\nerror: could not compile `{module}` due to 1 previous error\nexit code 101", 40 + k)}]})]),
                msg("assistant", vec![json!({"type": "tool_call", "id": "g2", "name": "Read", "input": {"file_path": file}})]),
                msg("user", vec![json!({"type": "tool_result", "tool_use_id": "g2", "tool_name": "Read",
                    "result": [{"type": "text", "text": (1..80).map(|i| format!("{i:4}  let v{i} = {i};\n")).collect::<String>()}]})]),
                msg("assistant", vec![
                    json!({"type": "assistant_message", "structured": {"full_text": format!("`{fn_name}` returns a &str where a String is expected; converting with .to_owned().")}}),
                    json!({"type": "tool_call", "id": "g3", "name": "Edit", "input": {"file_path": file, "old_string": "key", "new_string": "key.to_owned()"}}),
                ]),
                msg("user", vec![json!({"type": "tool_result", "tool_use_id": "g3", "tool_name": "Edit", "result": [{"type": "text", "text": format!("The file {file} has been updated.")}]})]),
                msg("assistant", vec![json!({"type": "tool_call", "id": "g4", "name": "Bash", "input": {"command": format!("cargo test -p {module}")}})]),
                msg("user", vec![json!({"type": "tool_result", "tool_use_id": "g4", "tool_name": "Bash",
                    "result": [{"type": "text", "text": format!("{log}running {passed} tests\ntest {test} ... ok\ntest result: ok. {passed} passed; 0 failed; 0 ignored")}]})]),
            ];
            Case {
                name: format!("generated-{module}"),
                origin: "generated".into(),
                messages,
                session: None,
                // The agent's run, without the request.
                select: Some((2..=9).collect()),
                facts: vec![
                    vec![file.clone(), format!("{module}/src/lib.rs")],
                    vec![code.clone()],
                    vec![fn_name.clone()],
                    vec![format!("cargo test -p {module}"), "cargo test".into()],
                    vec![format!("{passed} passed"), format!("{passed} tests")],
                    vec!["to_owned".into()],
                ],
                forbidden: vec!["still fail".into(), "python".into()],
            }
        })
        .collect()
}

fn msg(role: &str, content: Vec<Value>) -> CaseMessage {
    CaseMessage {
        role: Role::parse(role).unwrap_or(Role::User),
        content: content
            .into_iter()
            .map(|v| serde_json::from_value(v).expect("generated content is valid"))
            .collect(),
    }
}
