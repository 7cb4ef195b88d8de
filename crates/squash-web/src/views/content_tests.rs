use super::*;
use serde_json::json;
use squash_core::ConversationId;

fn text(t: &str) -> Vec<ToolResultData> {
    vec![ToolResultData::Text { text: t.to_owned() }]
}

#[test]
fn status_reads_the_error_flag_and_exit_codes() {
    assert_eq!(ToolStatus::of(&text("all fine"), false), ToolStatus::Ok);
    assert_eq!(ToolStatus::of(&text("Exit code: 0"), false), ToolStatus::Ok);
    assert_eq!(
        ToolStatus::of(&text("boom\nProcess exited with code 2"), false),
        ToolStatus::Error { exit: Some(2) }
    );
    assert_eq!(
        ToolStatus::of(&text("No such file"), true),
        ToolStatus::Error { exit: None }
    );
    assert_eq!(
        ToolStatus::Error { exit: Some(1) }.label(),
        "error (exit 1)"
    );
}

#[test]
fn durations_read_like_a_stopwatch() {
    let ms = TimeDelta::milliseconds;
    assert_eq!(format_duration(ms(0)), None);
    assert_eq!(format_duration(ms(-5)), None);
    assert_eq!(format_duration(ms(850)).as_deref(), Some("850 ms"));
    assert_eq!(format_duration(ms(4_230)).as_deref(), Some("4.2 s"));
    assert_eq!(format_duration(ms(42_000)).as_deref(), Some("42 s"));
    assert_eq!(format_duration(ms(185_000)).as_deref(), Some("3 min 5 s"));
    assert_eq!(format_duration(ms(3_960_000)).as_deref(), Some("1 h 6 min"));
}

#[test]
fn input_summaries_name_what_was_asked() {
    assert_eq!(
        input_summary(&json!({ "command": "cargo test", "timeout": 5 })),
        "cargo test"
    );
    assert_eq!(
        input_summary(&json!({ "file_path": "/w/src/a.rs", "content": "x" })),
        "/w/src/a.rs"
    );
    assert_eq!(
        input_summary(&json!({ "cmd": ["bash", "-lc", "ls"] })),
        "bash -lc ls"
    );
    assert_eq!(input_summary(&json!({ "todos": [{}, {}] })), "2 todo items");
    assert_eq!(input_summary(&json!({ "n": 1 })), "{\"n\":1}");
}

#[test]
fn only_the_head_of_a_very_long_output_goes_with_the_page() {
    assert_eq!(inline_head("short\noutput"), None);
    let long: String = (0..2_000).map(|i| format!("line {i} é\n")).collect();
    let head = inline_head(&long).expect("cut");
    assert!(head.len() <= INLINE_OUTPUT_BYTES && head.len() > INLINE_OUTPUT_BYTES - 20);
    assert!(head.ends_with('\n') && long.starts_with(head));
    let one_line = "é".repeat(10_000);
    let head = inline_head(&one_line).expect("cut");
    assert!(head.len() <= INLINE_OUTPUT_BYTES && one_line.starts_with(head));
}

#[test]
fn long_outputs_are_folded_after_a_few_lines() {
    assert_eq!(preview_of("a\nb\nc\n"), None);
    let long: String = (1..=10).map(|i| format!("line {i}\n")).collect();
    let (head, more) = preview_of(&long).expect("folded");
    assert_eq!(head, "line 1\nline 2\nline 3\nline 4");
    assert_eq!(more, 6);
    let wide = "x".repeat(1000);
    assert_eq!(
        preview_of(&wide).map(|(h, n)| (h.len(), n)),
        Some((PREVIEW_CHARS, 0))
    );
}

fn msg(role: Role, content: Vec<ContentItem>, at_ms: i64) -> Message {
    let mut m = Message::new(ConversationId::new(), role, content).expect("message");
    m.created_at = DateTime::from_timestamp_millis(1_700_000_000_000 + at_ms).expect("time");
    m
}

#[test]
fn a_call_card_holds_its_result_and_the_result_message_points_at_it() {
    let call = msg(
        Role::Assistant,
        vec![ContentItem::tool_call(
            "toolu_1",
            "Bash",
            json!({ "command": "cargo build" }),
        )],
        0,
    );
    let output: String = (1..=20).map(|i| format!("Compiling dep_{i}\n")).collect();
    let result = msg(
        Role::User,
        vec![ContentItem::ToolResult {
            tool_use_id: "toolu_1".into(),
            tool_name: "Bash".into(),
            result: text(&format!("{output}error: could not compile\nExit code: 101")),
            is_error: false,
        }],
        1_500,
    );
    let page = [call, result];
    let tools = Tools::of(&page, 7);
    let card = message_body_with(&page[0], 7, &tools).into_string();
    assert!(card.contains("id=\"call-toolu_1\""), "{card}");
    assert!(card.contains("cargo build"), "{card}");
    assert!(card.contains("error (exit 101)"), "{card}");
    assert!(card.contains("1.5 s"), "{card}");
    assert!(card.contains("<details class=\"tool-output\">"), "{card}");
    assert!(tools.attached(8, &page[1]));
    let reference = message_body_with(&page[1], 8, &tools).into_string();
    assert!(reference.contains("href=\"#call-toolu_1\""), "{reference}");
    assert!(
        !reference.contains("Compiling"),
        "the output is shown once: {reference}"
    );
    // On its own (provenance), the result shows its output.
    assert!(message_body(&page[1])
        .into_string()
        .contains("Compiling dep_1"));
}

#[test]
fn a_result_without_its_call_in_view_stands_alone() {
    let result = msg(
        Role::User,
        vec![ContentItem::ToolResult {
            tool_use_id: "toolu_9".into(),
            tool_name: "Read".into(),
            result: text("fn main() {}"),
            is_error: false,
        }],
        0,
    );
    let page = [result];
    let tools = Tools::of(&page, 1);
    assert!(!tools.attached(1, &page[0]));
    assert!(message_body_with(&page[0], 1, &tools)
        .into_string()
        .contains("fn main() {}"));
}

#[test]
fn long_system_prompts_are_folded_and_user_text_is_markdown() {
    let prompt: String = (1..=30).map(|i| format!("Rule {i}.\n")).collect();
    let system = msg(
        Role::System,
        vec![ContentItem::System {
            level: squash_core::SystemLevel::Info,
            content: prompt,
            tool_use_id: None,
        }],
        0,
    );
    let out = message_body(&system).into_string();
    assert!(out.contains("<details class=\"long-text\">"), "{out}");
    assert!(out.contains("Rule 1."), "{out}");
    let user = msg(
        Role::User,
        vec![ContentItem::UserMessage {
            text: "## Fix\nrun `cargo test` <b>now</b>".into(),
        }],
        0,
    );
    let out = message_body(&user).into_string();
    assert!(out.contains("<h2>Fix</h2>"), "{out}");
    assert!(out.contains("<code>cargo test</code>"), "{out}");
    assert!(out.contains("&lt;b&gt;"), "{out}");
}
