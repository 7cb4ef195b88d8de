//! Token sizes as `squash` prints them, through the built binary: `conversation show` has the
//! thread's tokens in its header and each message's on its line, `conversation list` a tokens
//! column, and the `--json` answers carry `tokens` — each equal to the estimate
//! (`message_tokens`) of the messages the JSON answer itself returns.

use serde_json::Value;
use squash_core::tokens::{format_count, message_tokens};
use squash_core::Message;

/// The thread's messages from a `show --json` answer, each checked against its `tokens`;
/// returns their sum.
fn checked_sum(shown: &Value) -> u64 {
    let mut sum = 0;
    for value in shown["messages"].as_array().expect("messages") {
        let message: Message = serde_json::from_value(value.clone()).expect("a message");
        let tokens = message_tokens(&message);
        assert_eq!(value["tokens"].as_u64(), Some(tokens), "{value}");
        sum += tokens;
    }
    assert_eq!(shown["tokens"].as_u64(), Some(sum), "the thread's total");
    sum
}

#[test]
fn show_and_list_print_the_sizes() {
    let env = crate::sandbox();
    let conv = "Sizes";
    env.feed(&["conversation", "new", conv, "--project", "/tmp/tok"], "");
    env.feed(
        &[
            "message",
            "add",
            conv,
            "--role",
            "user",
            "--text",
            "cargo build fails with E0308",
        ],
        "",
    );
    env.feed(
        &["message", "add", conv, "--role", "assistant"],
        r#"[{"type":"tool_call","id":"t1","name":"Read","input":{"file_path":"src/main.rs"}}]"#,
    );
    let output = "42: let name: String = \"squash\";\n".repeat(50);
    let result = serde_json::json!([{"type": "tool_result", "tool_use_id": "t1",
        "tool_name": "Read", "result": [{"type": "text", "text": output}]}]);
    env.feed(
        &["message", "add", conv, "--role", "user"],
        &result.to_string(),
    );
    env.feed(
        &[
            "message",
            "add",
            conv,
            "--role",
            "assistant",
            "--text",
            "Fixed with .to_string().",
        ],
        "",
    );

    let shown = env.json(&["conversation", "show", conv]);
    let total = checked_sum(&shown);
    let messages: Vec<Message> = shown["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| serde_json::from_value(v.clone()).unwrap())
        .collect();

    let text = env.feed(&["conversation", "show", conv], "");
    let header = text.lines().nth(1).expect("header line");
    assert!(
        header.contains(&format!(
            "· 4 messages · {} tokens (estimated) ·",
            format_count(total)
        )),
        "{header}"
    );
    for (n, m) in messages.iter().enumerate() {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("@{:<3} ", n + 1)))
            .expect("a line per message");
        assert!(
            line.contains(&format!(" {} tok", format_count(message_tokens(m)))),
            "{line}"
        );
    }

    let list = env.json(&["conversation", "list"]);
    assert_eq!(list[0]["tokens"].as_u64(), Some(total));
    assert_eq!(list[0]["message_count"].as_u64(), Some(4));
    let listed = env.feed(&["conversation", "list"], "");
    let row = listed.lines().find(|l| l.contains(conv)).expect("listed");
    assert!(
        row.contains(&format!("{} tokens", format_count(total))),
        "{row}"
    );

    // Squashing the long tool output away shrinks the thread by what the header says.
    env.feed(
        &[
            "manual",
            conv,
            "@2",
            "@3",
            "--text",
            "Read src/main.rs: line 42 is wrong.",
        ],
        "",
    );
    let after = env.json(&["conversation", "show", conv]);
    let smaller = checked_sum(&after);
    assert!(smaller < total / 2, "{smaller} vs {total}");
    let text = env.feed(&["conversation", "show", conv], "");
    assert!(
        text.contains(&format!("· {} tokens (estimated) ·", format_count(smaller))),
        "{text}"
    );
}
