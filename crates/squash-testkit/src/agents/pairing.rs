//! The Messages API's rule for tool use in a history, checked on what a client sends.

/// What the Messages API demands of a history: every tool_use answered by a tool_result at the
/// start of the very next message, no result without its call in the message before, calls
/// only in assistant messages and results only in user messages.
pub fn assert_api_pairing(messages: &[serde_json::Value]) {
    use serde_json::Value;
    let blocks = |m: &Value| -> Vec<Value> {
        match &m["content"] {
            Value::Array(b) => b.clone(),
            _ => Vec::new(),
        }
    };
    let of = |bs: &[Value], kind: &str, key: &str| -> Vec<String> {
        bs.iter()
            .filter(|b| b["type"] == kind)
            .filter_map(|b| b[key].as_str().map(str::to_owned))
            .collect()
    };
    for (i, message) in messages.iter().enumerate() {
        let content = blocks(message);
        let calls = of(&content, "tool_use", "id");
        let results = of(&content, "tool_result", "tool_use_id");
        if message["role"] == "assistant" {
            assert!(
                results.is_empty(),
                "a tool_result in assistant message {i}: {message}"
            );
        } else {
            assert!(
                calls.is_empty(),
                "a tool_use in user message {i}: {message}"
            );
        }
        let leading = content
            .iter()
            .take_while(|b| b["type"] == "tool_result")
            .count();
        assert_eq!(
            leading,
            results.len(),
            "a result after text in message {i}: {message}"
        );
        let asked = match i.checked_sub(1) {
            Some(p) => of(&blocks(&messages[p]), "tool_use", "id"),
            None => Vec::new(),
        };
        for id in &results {
            assert!(
                asked.contains(id),
                "the result of {id} in message {i} has no call right before"
            );
        }
        let answered = match messages.get(i + 1) {
            Some(next) => of(&blocks(next), "tool_result", "tool_use_id"),
            None => Vec::new(),
        };
        for id in &calls {
            assert!(
                answered.contains(id),
                "the call {id} of message {i} has no result right after"
            );
        }
    }
}
