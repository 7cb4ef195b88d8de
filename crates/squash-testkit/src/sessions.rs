//! Reading agent session files as the agents do: the chain a resumed Claude Code session is
//! made of, the messages it sends, and the Messages API's pairing rule.

pub use crate::agents::pairing::assert_api_pairing;

/// The text of a message's content as the agents write it: a string, or the `text` of each part
/// of an array joined by `separator` (anything else has none).
pub fn content_text(content: &serde_json::Value, separator: &str) -> String {
    use serde_json::Value;
    match content {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p["text"].as_str())
            .collect::<Vec<_>>()
            .join(separator),
        _ => String::new(),
    }
}

/// The lines a resumed Claude Code session is made of: from its last user or assistant line up
/// through `parentUuid` (and `logicalParentUuid` across a compaction) to the root, in order.
pub fn claude_chain(session: &str) -> Vec<serde_json::Value> {
    use serde_json::Value;
    let lines: Vec<Value> = session
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let by_uuid: std::collections::HashMap<&str, &Value> = lines
        .iter()
        .filter_map(|l| Some((l["uuid"].as_str()?, l)))
        .collect();
    let mut chain = Vec::new();
    let mut at = lines
        .iter()
        .rev()
        .find(|l| matches!(l["type"].as_str(), Some("user" | "assistant")));
    while let Some(line) = at {
        chain.push(line.clone());
        let parent = line["parentUuid"]
            .as_str()
            .or_else(|| line["logicalParentUuid"].as_str());
        at = parent.and_then(|p| by_uuid.get(p).copied());
    }
    chain.reverse();
    chain
}

/// The messages a Claude Code session sends to the API: the user and assistant lines of its
/// chain, consecutive lines of one role merged into one message (as the CLI and the API do).
pub fn claude_api_messages(session: &str) -> Vec<serde_json::Value> {
    use serde_json::{json, Value};
    let mut out: Vec<Value> = Vec::new();
    for v in claude_chain(session) {
        let role = match v["type"].as_str() {
            Some(r @ ("user" | "assistant")) => r,
            _ => continue,
        };
        let blocks = match &v["message"]["content"] {
            Value::String(s) => vec![json!({"type": "text", "text": s})],
            Value::Array(b) => b.clone(),
            _ => Vec::new(),
        };
        match out.last_mut() {
            Some(last) if last["role"] == role => {
                if let Some(content) = last["content"].as_array_mut() {
                    content.extend(blocks);
                }
            }
            _ => out.push(json!({"role": role, "content": blocks})),
        }
    }
    out
}
