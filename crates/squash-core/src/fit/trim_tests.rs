use super::*;
use crate::ids::ConversationId;
use serde_json::json;

use crate::tokens::content_tokens;

fn build_log() -> String {
    let mut log: Vec<String> = (0..200)
        .map(|i| format!("   Compiling crate-{i} v0.1.{i}"))
        .collect();
    log.insert(120, "warning: unused import in src/cache.rs:12".into());
    log.push("error[E0308]: mismatched types".into());
    log.push("  --> src/format.rs:42:17".into());
    log.push("error: could not compile `squash-core` (lib) due to 1 previous error".into());
    log.push("Process exited with code 101".into());
    log.join("\n")
}

#[test]
fn a_failed_build_keeps_its_errors_status_paths_and_ends() {
    let log = build_log();
    let text = trim_text(&log, true, None).expect("trimmed");
    assert!(text.starts_with(TRIM_MARKER), "{text}");
    assert!(text.contains("of 205 lines; exit 101"), "{text}");
    for kept in [
        "error[E0308]: mismatched types",
        "--> src/format.rs:42:17",
        "could not compile `squash-core`",
        "Process exited with code 101",
        "warning: unused import in src/cache.rs:12",
        "Compiling crate-0 v0.1.0",
    ] {
        assert!(text.contains(kept), "{kept} in {text}");
    }
    assert!(text.contains("lines …]"), "says what was cut: {text}");
    assert!(estimate_tokens(&text) * 4 < estimate_tokens(&log));
    assert_eq!(trim_text(&text, true, None), None, "never trimmed twice");
    assert_eq!(trim_text("ok\n3 files changed", false, None), None, "small");
}

#[test]
fn a_warning_repeated_for_many_files_is_kept_once_and_the_room_goes_to_other_lines() {
    let mut log: Vec<String> = (0..40).map(|i| format!("chunk line {i}")).collect();
    log.splice(
        5..5,
        (0..40)
            .map(|i| format!("Warning: two children with the same key, `skills/s{i}/SKILL.md`.")),
    );
    log.insert(25, "TypeError: x is undefined at src/tree.ts:88".into());
    log.insert(35, "error: \"A valid image URL is required.\"".into());
    log.insert(36, "error: \"Each stroke must have points.\"".into());
    let text = trim_text(&log.join("\n"), true, None).expect("trimmed");
    let repeats = text.matches("two children with the same key").count();
    assert_eq!(repeats, 1, "{text}");
    for kept in [
        "TypeError: x is undefined at src/tree.ts:88",
        "A valid image URL is required.",
        "Each stroke must have points.",
    ] {
        assert!(text.contains(kept), "{kept} in {text}");
    }
}

#[test]
fn a_message_keeps_its_ids_and_a_request_its_words() {
    let conv = ConversationId::new();
    let result = Message::new(
        conv,
        Role::User,
        vec![ContentItem::tool_result(
            "toolu_1",
            "Bash",
            build_log(),
            true,
        )],
    )
    .expect("valid");
    let trimmed = trim_message(&result, false, None).expect("trimmed");
    let ContentItem::ToolResult {
        tool_use_id,
        is_error,
        ..
    } = &trimmed[0]
    else {
        panic!("{trimmed:?}")
    };
    assert_eq!((tool_use_id.as_str(), *is_error), ("toolu_1", true));

    let write = Message::new(
        conv,
        Role::Assistant,
        vec![ContentItem::tool_call(
            "toolu_2",
            "Write",
            json!({"file_path": "src/big.rs", "content": build_log()}),
        )],
    )
    .expect("valid");
    let ContentItem::ToolCall { input, id, .. } = &trim_message(&write, false, None).unwrap()[0]
    else {
        panic!()
    };
    assert_eq!(id, "toolu_2");
    assert_eq!(input["file_path"], "src/big.rs");
    assert!(input["content"].as_str().unwrap().starts_with(TRIM_MARKER));

    let typed = "Please fix this build, it started after the upgrade:\n\n```\n".to_owned()
        + &build_log()
        + "\n```\nThanks — keep the public API as it is.";
    let request = Message::text(conv, Role::User, &typed).expect("valid");
    let ContentItem::UserMessage { text } = &trim_message(&request, true, None).unwrap()[0] else {
        panic!()
    };
    assert!(text.starts_with("Please fix this build, it started after the upgrade:"));
    assert!(text.ends_with("Thanks — keep the public API as it is."));
    assert!(
        text.contains("error[E0308]") && text.contains(TRIM_MARKER),
        "{text}"
    );
    let short = Message::text(conv, Role::User, "fix the build").expect("valid");
    assert_eq!(trim_message(&short, true, None), None);
}

#[test]
fn a_marked_trim_names_its_reference_and_trims_what_an_unmarked_one_does() {
    let log = build_log();
    let recall = crate::ids::RecallRef::new(12).expect("a reference");
    let plain = Mark {
        recall,
        first: false,
    };
    let marked = trim_text(&log, true, Some(&plain)).expect("trimmed");
    assert!(marked.contains("tokens cut; ref 12]"), "{marked}");
    assert!(!marked.contains("stays in the history"), "{marked}");
    // The first mark of a thread says how to use references, and never decides the trim.
    let first = Mark {
        recall,
        first: true,
    };
    let short = (0..40)
        .map(|i| format!("row {i} of the report"))
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(
        trim_text(&short, false, Some(&first)).is_some(),
        trim_text(&short, false, None).is_some()
    );
    let explained = trim_text(&log, true, Some(&first)).expect("trimmed");
    assert!(
        explained.contains(&format!("ref 12: {}", crate::recall::HOW)),
        "{explained}"
    );
    assert_eq!(crate::recall::refs_in(&explained), vec![recall]);
}

#[test]
fn a_written_file_keeps_what_it_declares() {
    let mut file =
        String::from("import * as vscode from 'vscode';\nimport { run } from './run';\n\n");
    file.push_str(
        "export interface EntireCommandContext {\n\toutput: vscode.OutputChannel;\n}\n\n",
    );
    for i in 0..12 {
        file.push_str(&format!(
            "export async function command{i}(ctx: EntireCommandContext): Promise<void> {{\n"
        ));
        for j in 0..20 {
            file.push_str(&format!(
                "\tconst value{j} = ctx.output.name.length + {j};\n"
            ));
        }
        file.push_str("}\n\n");
    }
    let input = serde_json::json!({"file_path": "src/EntireCommand.ts", "content": file});
    let trimmed = trim_input(&input, &mut Trimming::default()).expect("trimmed");
    let kept = trimmed["content"].as_str().unwrap_or_default();
    assert!(
        kept.contains("export interface EntireCommandContext {"),
        "{kept}"
    );
    assert!(kept.contains("export async function command11("), "{kept}");
    // What a tool printed is trimmed as before: its first lines, not its declarations.
    let printed = trim_text(&file, false, None).expect("trimmed");
    assert!(!printed.contains("command11"), "{printed}");
}

#[test]
fn a_request_of_several_pastes_says_how_to_use_references_once() {
    let conv = ConversationId::new();
    let typed = format!(
        "Both builds fail:\n\n```\n{}\n```\n\nand on the other machine:\n\n```\n{}\n```\nWhy?",
        build_log(),
        build_log()
    );
    let request = Message::text(conv, Role::User, &typed).expect("valid");
    let recall = crate::ids::RecallRef::new(1).expect("a reference");
    let first = Mark {
        recall,
        first: true,
    };
    let ContentItem::UserMessage { text } = &trim_message(&request, true, Some(first)).unwrap()[0]
    else {
        panic!()
    };
    assert_eq!(text.matches(TRIM_MARKER).count(), 2, "{text}");
    assert_eq!(text.matches(crate::recall::HOW).count(), 1, "{text}");
    // What the plan priced with a plain mark, and the how said once.
    let priced = trim_message(&request, true, Some(Mark::PRICED)).unwrap();
    let applied = content_tokens(
        Role::User,
        &[ContentItem::UserMessage { text: text.clone() }],
    );
    assert!(
        applied <= content_tokens(Role::User, &priced) + crate::recall::how_tokens(),
        "{applied} against {}",
        content_tokens(Role::User, &priced)
    );
}

/// A message of `kind` (0: a tool result, 1: a failed one, 2: a `Write` of a file, 3: a request
/// with pastes) made of `lines`.
fn shaped(kind: u8, lines: &[String]) -> (Message, bool) {
    let conv = ConversationId::new();
    let text = lines.join("\n");
    match kind {
        0 | 1 => (
            Message::new(
                conv,
                Role::User,
                vec![ContentItem::tool_result("toolu_1", "Bash", text, kind == 1)],
            )
            .expect("valid"),
            false,
        ),
        2 => (
            Message::new(
                conv,
                Role::Assistant,
                vec![ContentItem::tool_call(
                    "toolu_2",
                    "Write",
                    json!({"file_path": "src/big.rs", "content": text, "note": text}),
                )],
            )
            .expect("valid"),
            false,
        ),
        _ => {
            let half = lines.len() / 2;
            let typed = format!(
                "Look at this:\n\n{}\n\nand this:\n\n```\n{}\n```\nWhy?",
                lines[..half].join("\n"),
                lines[half..].join("\n")
            );
            (
                Message::text(conv, Role::User, &typed).expect("valid"),
                true,
            )
        }
    }
}

proptest::proptest! {
    #[test]
    fn a_trim_written_from_its_recorded_choices_is_the_trim(
        kind in 0u8..4,
        picks in proptest::collection::vec(0usize..9, 20..400),
        first in proptest::bool::ANY,
        recall in 1u32..100_000,
    ) {
        let vocabulary = [
            "   Compiling crate v0.1.0".to_owned(),
            "error[E0308]: mismatched types".to_owned(),
            "  --> src/format.rs:42:17".to_owned(),
            String::new(),
            "test result: FAILED. 3 passed; 1 failed".to_owned(),
            "pub fn parse(input: &str) -> Result<Config, Error> {".to_owned(),
            "all good here, nothing to see".to_owned(),
            "Process exited with code 101".to_owned(),
            "x".repeat(300),
        ];
        let lines: Vec<String> = picks
            .iter()
            .enumerate()
            .map(|(i, &p)| format!("{} {i}", vocabulary[p]))
            .collect();
        let (message, request) = shaped(kind, &lines);
        let mark = Mark {
            recall: crate::ids::RecallRef::new(recall).expect("a reference"),
            first,
        };
        let planned = trim_recording(&message, request, Some(Mark::PRICED));
        match planned {
            Some((_, choices)) => proptest::prop_assert_eq!(
                trim_replaying(&message, request, Some(mark), &choices),
                trim_message(&message, request, Some(mark))
            ),
            None => proptest::prop_assert_eq!(trim_message(&message, request, Some(mark)), None),
        }
    }
}

#[test]
fn an_edit_of_two_long_strings_says_how_to_use_references_once() {
    let conv = ConversationId::new();
    let edit = Message::new(
        conv,
        Role::Assistant,
        vec![ContentItem::tool_call(
            "toolu_3",
            "Edit",
            json!({"file_path": "src/big.rs", "old_string": build_log(), "new_string": build_log()}),
        )],
    )
    .expect("valid");
    let first = Mark {
        recall: crate::ids::RecallRef::new(1).expect("a reference"),
        first: true,
    };
    let ContentItem::ToolCall { input, .. } = &trim_message(&edit, false, Some(first)).unwrap()[0]
    else {
        panic!()
    };
    let said: Vec<&str> = ["old_string", "new_string"]
        .iter()
        .filter_map(|k| input[*k].as_str())
        .collect();
    assert!(said.iter().all(|s| s.starts_with(TRIM_MARKER)), "{input}");
    assert_eq!(
        said.concat().matches(crate::recall::HOW).count(),
        1,
        "{input}"
    );
}
