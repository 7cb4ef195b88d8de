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
    /// Whether the summary itself is sealed (Codex's server-side compaction hands back an
    /// encrypted item): `summary` is then only the readable rest of what replaces the history.
    pub sealed: bool,
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
        sealed: false,
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
    let sealed = payload["replacement_history"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|item| item["type"] == "compaction");
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
        sealed,
    })
}

/// opencode (an `opencode export` document): the history is the messages before the first
/// one holding a `compaction` part; the summary is the text of the assistant message after it
/// that opencode marks as the summary. `boundary` counts messages, not lines: the history is
/// the document with its messages cut there ([`opencode_history`]).
pub fn opencode(document: &Value) -> Result<Cut, String> {
    let messages = document["messages"]
        .as_array()
        .ok_or("no messages in the export")?;
    let has_part = |m: &Value, kind: &str| {
        m["parts"]
            .as_array()
            .is_some_and(|parts| parts.iter().any(|p| p["type"] == kind))
    };
    let boundary = messages
        .iter()
        .position(|m| has_part(m, "compaction"))
        .ok_or("no compaction in it")?;
    let summary = messages[boundary..]
        .iter()
        .find(|m| m["info"]["summary"] == true)
        .map(|m| opencode_text(m, "\n"))
        .ok_or("no compaction summary")?;
    let cwd = document["info"]["directory"]
        .as_str()
        .unwrap_or("")
        .to_owned();
    let chain = messages[..boundary]
        .iter()
        .flat_map(opencode_lines)
        .collect();
    Ok(Cut {
        boundary,
        chain,
        cwd,
        summary,
        sealed: false,
    })
}

/// The export with only its first `boundary` messages: what the agent had before compacting.
pub fn opencode_history(document: &Value, boundary: usize) -> Value {
    let mut history = document.clone();
    if let Some(messages) = history["messages"].as_array_mut() {
        messages.truncate(boundary);
    }
    history
}

fn opencode_text(message: &Value, separator: &str) -> String {
    message["parts"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| p["type"] == "text" && p["synthetic"] != true)
        .filter_map(|p| p["text"].as_str())
        .collect::<Vec<_>>()
        .join(separator)
}

/// An opencode message as the Claude Code lines the scorer reads: the assistant's words, each
/// tool part as a call (`bash` as `Bash`, `edit` and `write` as `Edit` and `Write` of their
/// file) and its output as a tool result.
fn opencode_lines(message: &Value) -> Vec<Value> {
    let assistant =
        |blocks: Vec<Value>| json!({"type": "assistant", "message": {"content": blocks}});
    if message["info"]["role"] != "assistant" {
        return Vec::new();
    }
    let mut lines = vec![assistant(vec![
        json!({"type": "text", "text": opencode_text(message, "\n")}),
    ])];
    for part in message["parts"].as_array().into_iter().flatten() {
        if part["type"] != "tool" {
            continue;
        }
        let id = part["callID"]
            .as_str()
            .or(part["id"].as_str())
            .unwrap_or("");
        let state = &part["state"];
        let input = &state["input"];
        let call = match part["tool"].as_str() {
            Some("bash") => json!({"name": "Bash", "input": {"command": input["command"]}}),
            Some("edit") => json!({"name": "Edit", "input": {"file_path": input["filePath"]}}),
            Some("write") => json!({"name": "Write", "input": {"file_path": input["filePath"]}}),
            Some("read") => json!({"name": "Read", "input": {"file_path": input["filePath"]}}),
            Some(other) => json!({"name": other, "input": input}),
            None => continue,
        };
        let mut block = json!({"type": "tool_use", "id": id});
        if let (Some(block), Some(call)) = (block.as_object_mut(), call.as_object()) {
            block.extend(call.clone());
        }
        lines.push(assistant(vec![block]));
        let failed = state["status"] == "error";
        let output = state["output"]
            .as_str()
            .or(state["error"].as_str())
            .unwrap_or("");
        lines.push(
            json!({"type": "user", "message": {"content": [{"type": "tool_result",
            "tool_use_id": id, "content": output, "is_error": failed}]}}),
        );
    }
    lines
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

    use super::{claude, codex, opencode, opencode_history, Cut};

    /// The first content block of each line of a cut's chain, for short asserts.
    fn first_blocks(cut: &Cut) -> Vec<&Value> {
        cut.chain
            .iter()
            .filter_map(|v| v.pointer("/message/content/0"))
            .collect()
    }

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
        let blocks = first_blocks(&cut);
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

    #[test]
    fn an_opencode_export_cuts_at_its_first_compaction_part() {
        let message = |role: &str, parts: Value| json!({"info": {"role": role}, "parts": parts});
        let document = json!({"info": {"directory": "/w"}, "messages": [
            message("user", json!([{"type": "text", "text": "fix it"}])),
            message("assistant", json!([
                {"type": "text", "text": "Running the tests."},
                {"type": "tool", "tool": "bash", "callID": "c1", "state": {"status": "error",
                    "input": {"command": "pnpm test"}, "error": "2 failing"}},
                {"type": "tool", "tool": "edit", "callID": "c2", "state": {"status": "completed",
                    "input": {"filePath": "/w/src/a.ts"}, "output": "Edit applied successfully."}},
            ])),
            message("user", json!([{"type": "compaction", "auto": true}])),
            {"info": {"role": "assistant", "summary": true},
                "parts": [{"type": "text", "text": "## Goal\nfix it"}]},
        ]});
        let cut = opencode(&document).expect("a cut");
        assert_eq!(cut.boundary, 2);
        assert_eq!(cut.summary, "## Goal\nfix it");
        assert_eq!(cut.cwd, "/w");
        let blocks = first_blocks(&cut);
        assert_eq!(blocks[0]["text"], "Running the tests.");
        assert_eq!(blocks[1]["name"], "Bash");
        assert_eq!(blocks[1]["input"]["command"], "pnpm test");
        assert_eq!(blocks[2]["content"], "2 failing");
        assert_eq!(blocks[2]["is_error"], true);
        assert_eq!(blocks[3]["input"]["file_path"], "/w/src/a.ts");
        let history = opencode_history(&document, cut.boundary);
        assert_eq!(history["messages"].as_array().map(Vec::len), Some(2));
    }
}
