//! Where a session's first compaction is, what the agent's summary said, and the history
//! before it as Claude Code lines for the scorer ([`super::specifics`]).

use std::collections::HashMap;

use serde_json::{json, Value};

/// A session cut at its first compaction.
pub struct Cut {
    /// Index of the first line that is not history.
    pub boundary: usize,
    pub chain: Vec<Value>,
    pub cwd: String,
    /// What the agent hands the model in place of the history.
    pub summary: String,
}

/// Claude Code: the history ends at the `compact_boundary` line; its chain runs from the
/// boundary's logical parent back to the root — or, where that pointer names a line the file
/// does not hold (Claude Code ≥ 2.1.20 writes such), from the last message line before it.
pub fn claude(parsed: &[Value]) -> Result<Cut, String> {
    let boundary = parsed
        .iter()
        .position(|v| v["subtype"] == "compact_boundary")
        .ok_or("no compaction in it")?;
    let summary = parsed[boundary..]
        .iter()
        .find(|v| v["isCompactSummary"] == true)
        .and_then(|v| v.pointer("/message/content"))
        .map(|c| squash_testkit::content_text(c, "\n"))
        .ok_or("no compaction summary")?;
    let by_uuid: HashMap<&str, &Value> = parsed[..boundary]
        .iter()
        .filter_map(|v| Some((v["uuid"].as_str()?, v)))
        .collect();
    let logical = parsed[boundary]["logicalParentUuid"]
        .as_str()
        .filter(|u| by_uuid.contains_key(u));
    let last_message = || {
        parsed[..boundary]
            .iter()
            .rev()
            .find(|v| matches!(v["type"].as_str(), Some("user" | "assistant")))
            .and_then(|v| v["uuid"].as_str())
    };
    let mut chain = Vec::new();
    let mut at = logical.or_else(last_message);
    while let Some(uuid) = at {
        let Some(line) = by_uuid.get(uuid) else {
            return Err(format!("the chain breaks at {uuid}"));
        };
        chain.push((*line).clone());
        at = line["parentUuid"].as_str();
    }
    chain.reverse();
    let cwd = chain
        .iter()
        .find_map(|v| v["cwd"].as_str())
        .unwrap_or("")
        .to_owned();
    Ok(Cut {
        boundary,
        chain,
        cwd,
        summary,
    })
}

/// Codex: the history ends at the first `compacted` line, whose replacement history (the
/// user's messages, the instructions, and the summary where the rollout keeps one) is what
/// the model reads afterwards.
pub fn codex(parsed: &[Value]) -> Result<Cut, String> {
    let boundary = parsed
        .iter()
        .position(|v| v["type"] == "compacted")
        .ok_or("no compaction in it")?;
    let payload = &parsed[boundary]["payload"];
    let mut parts: Vec<String> = payload["replacement_history"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|item| squash_testkit::content_text(&item["content"], "\n"))
        .collect();
    parts.extend(payload["message"].as_str().map(str::to_owned));
    let summary = parts
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .collect::<Vec<_>>()
        .join("\n\n");
    let cwd = parsed[..boundary]
        .iter()
        .find_map(|v| v.pointer("/payload/cwd").and_then(Value::as_str))
        .unwrap_or("")
        .to_owned();
    let chain = parsed[..boundary]
        .iter()
        .filter(|v| v["type"] == "response_item")
        .filter_map(|v| claude_line(&v["payload"]))
        .collect();
    Ok(Cut {
        boundary,
        chain,
        cwd,
        summary,
    })
}

/// A Codex response item as the Claude Code line the scorer reads: the assistant's words, a
/// shell call as `Bash`, a patch as one `Edit` per file it names, an output as a tool result.
fn claude_line(item: &Value) -> Option<Value> {
    let assistant =
        |blocks: Vec<Value>| json!({"type": "assistant", "message": {"content": blocks}});
    match item["type"].as_str()? {
        "message" if item["role"] == "assistant" => {
            let text = squash_testkit::content_text(&item["content"], "\n");
            Some(assistant(vec![json!({"type": "text", "text": text})]))
        }
        "function_call" if item["name"] == "exec_command" || item["name"] == "shell" => {
            let args: Value = serde_json::from_str(item["arguments"].as_str()?).ok()?;
            let command = match &args["cmd"] {
                Value::String(s) => s.clone(),
                _ => args["command"].as_array()?.last()?.as_str()?.to_owned(),
            };
            let id = item["call_id"].as_str()?;
            Some(assistant(vec![
                json!({"type": "tool_use", "id": id, "name": "Bash",
                "input": {"command": command}}),
            ]))
        }
        "custom_tool_call" if item["name"] == "apply_patch" => {
            let id = item["call_id"].as_str()?;
            let blocks: Vec<Value> = item["input"]
                .as_str()?
                .lines()
                .filter_map(|l| {
                    ["*** Update File: ", "*** Add File: ", "*** Delete File: "]
                        .iter()
                        .find_map(|p| l.strip_prefix(p))
                })
                .map(|path| {
                    json!({"type": "tool_use", "id": id, "name": "Edit",
                    "input": {"file_path": path}})
                })
                .collect();
            Some(assistant(blocks))
        }
        "function_call_output" | "custom_tool_call_output" => {
            let output = match &item["output"] {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let id = item["call_id"].as_str()?;
            let failed = output
                .lines()
                .take(4)
                .any(|l| l.starts_with("Process exited with code ") && !l.ends_with(" 0"));
            // `exec_command` heads what the command printed with its own lines (chunk id, wall
            // time, exit code, token count): not the command's output.
            let output = match output.split_once("\nOutput:\n") {
                Some((head, rest)) if head.starts_with("Chunk ID: ") => rest.to_owned(),
                _ => output,
            };
            Some(
                json!({"type": "user", "message": {"content": [{"type": "tool_result",
                "tool_use_id": id, "content": output, "is_error": failed}]}}),
            )
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::{claude, codex};

    fn user(uuid: &str, parent: Option<&str>, text: &str) -> Value {
        json!({"type": "user", "uuid": uuid, "parentUuid": parent, "cwd": "/w",
            "message": {"role": "user", "content": text}})
    }

    #[test]
    fn a_boundary_pointing_at_a_missing_line_cuts_at_the_last_message_before_it() {
        let lines = vec![
            user("a", None, "fix it"),
            user("b", Some("a"), "and the tests"),
            json!({"type": "system", "subtype": "compact_boundary", "uuid": "c",
                "parentUuid": null, "logicalParentUuid": "gone"}),
            json!({"type": "user", "uuid": "d", "parentUuid": "c", "isCompactSummary": true,
                "message": {"role": "user", "content": "Summary: fixed"}}),
        ];
        let cut = claude(&lines).expect("a cut");
        assert_eq!(cut.boundary, 2);
        assert_eq!(cut.summary, "Summary: fixed");
        let uuids: Vec<&str> = cut
            .chain
            .iter()
            .filter_map(|v| v["uuid"].as_str())
            .collect();
        assert_eq!(uuids, ["a", "b"]);
        assert_eq!(cut.cwd, "/w");
    }

    #[test]
    fn a_codex_rollout_cuts_at_its_first_compacted_item() {
        let item = |payload: Value| json!({"type": "response_item", "payload": payload});
        let lines = vec![
            json!({"type": "session_meta", "payload": {"cwd": "/w"}}),
            item(json!({"type": "message", "role": "user",
                "content": [{"type": "input_text", "text": "fix it"}]})),
            item(
                json!({"type": "function_call", "name": "exec_command", "call_id": "c1",
                "arguments": "{\"cmd\":\"cargo test\"}"}),
            ),
            item(json!({"type": "function_call_output", "call_id": "c1",
                "output": "Chunk ID: 1a\nWall time: 1 s\nProcess exited with code 101\nOutput:\nerror[E0425]"})),
            item(
                json!({"type": "custom_tool_call", "name": "apply_patch", "call_id": "c2",
                "input": "*** Begin Patch\n*** Update File: /w/src/a.rs\n+x\n*** End Patch"}),
            ),
            json!({"type": "compacted", "payload": {"message": "",
                "replacement_history": [{"type": "message", "role": "user",
                    "content": [{"type": "input_text", "text": "fix it"}]}]}}),
        ];
        let cut = codex(&lines).expect("a cut");
        assert_eq!(cut.boundary, 5);
        assert_eq!(cut.summary, "fix it");
        assert_eq!(cut.cwd, "/w");
        let blocks: Vec<&Value> = cut
            .chain
            .iter()
            .filter_map(|v| v.pointer("/message/content/0"))
            .collect();
        // The user's words are the scorer's to skip; calls, outputs and patches are read.
        assert_eq!(blocks.len(), 3);
        assert_eq!(blocks[0]["input"]["command"], "cargo test");
        assert_eq!(
            blocks[1]["content"], "error[E0425]",
            "the exec header is not output"
        );
        assert_eq!(blocks[1]["is_error"], true);
        assert_eq!(blocks[2]["name"], "Edit");
        assert_eq!(blocks[2]["input"]["file_path"], "/w/src/a.rs");
    }
}
