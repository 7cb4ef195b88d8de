//! Observation masking: a large tool output becomes a short placeholder that keeps what an
//! agent needs to carry on (which call it answered, how it ended, what went wrong, how it
//! started and ended) and says how much was cut. The output itself stays in the conversation's
//! history, reachable through provenance and undo.
//!
//! Masking is the cheapest strategy that works: on SWE-bench Verified ("The Complexity Trap",
//! 2025) it halved an agent's cost while matching LLM summarisation's solve rate, because old
//! tool outputs are most of an agent's context and are rarely read again.

use serde_json::Value;

use crate::ledger::{last_exit_code, matching_error_lines};
use crate::message::{ContentItem, ToolResultData};
use crate::render::result_text;
use crate::tokens::{estimate_tokens, format_count};

/// The first words of every placeholder: how a masked output is recognised (never masked twice).
pub const MASK_MARKER: &str = "[output masked by squash:";

/// Outputs below this many estimated tokens are left alone: a placeholder would save little.
pub const MIN_MASKED_TOKENS: u64 = 120;

const HEAD_LINES: usize = 3;
const TAIL_LINES: usize = 3;
const ERROR_LINES: usize = 5;
const LINE_MAX_CHARS: usize = 160;
const INPUT_MAX_CHARS: usize = 240;

/// The call a result answers, as far as the thread has it.
#[derive(Clone, Copy, Debug)]
pub struct CallInfo<'a> {
    pub name: &'a str,
    pub input: &'a Value,
}

/// The masked form of one `ToolResult` item, or `None` when it is not worth masking (small,
/// not text, or masked already).
pub fn mask_result(item: &ContentItem, call: Option<CallInfo<'_>>) -> Option<ContentItem> {
    let ContentItem::ToolResult {
        tool_use_id,
        tool_name,
        result,
        is_error,
    } = item
    else {
        return None;
    };
    let output = result
        .iter()
        .map(result_text)
        .collect::<Vec<_>>()
        .join("\n");
    if output.starts_with(MASK_MARKER) {
        return None;
    }
    let tokens = estimate_tokens(&output);
    if tokens < MIN_MASKED_TOKENS {
        return None;
    }
    let name = call.map_or(tool_name.as_str(), |c| c.name);
    let text = placeholder(&output, tokens, name, call.map(|c| c.input), *is_error);
    // A placeholder that saves less than half is not worth the information it drops.
    if estimate_tokens(&text) * 2 > tokens {
        return None;
    }
    Some(ContentItem::ToolResult {
        tool_use_id: tool_use_id.clone(),
        tool_name: tool_name.clone(),
        result: vec![ToolResultData::Text { text }],
        is_error: *is_error,
    })
}

/// The placeholder text; every part is taken from the output or the call, nothing is made up.
fn placeholder(
    output: &str,
    tokens: u64,
    name: &str,
    input: Option<&Value>,
    is_error: bool,
) -> String {
    let lines: Vec<&str> = output.lines().collect();
    let mut out = format!(
        "{MASK_MARKER} {} lines, ~{} tokens of output cut; the full output stays in the history]",
        format_count(lines.len() as u64),
        format_count(tokens)
    );
    out.push_str(&format!("\ncall: {name}"));
    if let Some(input) = input {
        out.push(' ');
        out.push_str(&cut(&compact(input), INPUT_MAX_CHARS));
    }
    out.push_str(&format!("\nstatus: {}", status(output, is_error)));
    let errors = matching_error_lines(output, ERROR_LINES);
    if !errors.is_empty() {
        out.push_str("\nerror lines:");
        for line in &errors {
            out.push_str("\n  ");
            out.push_str(line);
        }
    }
    let shown = |ls: &[&str]| -> String {
        ls.iter()
            .map(|l| format!("\n  {}", cut(l.trim_end(), LINE_MAX_CHARS)))
            .collect()
    };
    if lines.len() > HEAD_LINES + TAIL_LINES {
        out.push_str("\nfirst lines:");
        out.push_str(&shown(&lines[..HEAD_LINES]));
        out.push_str("\nlast lines:");
        out.push_str(&shown(&lines[lines.len() - TAIL_LINES..]));
    } else {
        out.push_str("\nlines:");
        out.push_str(&shown(&lines));
    }
    out
}

fn status(output: &str, is_error: bool) -> String {
    match (last_exit_code(output), is_error) {
        (Some(code), _) => format!("exit {code}{}", if code != 0 { " (failed)" } else { "" }),
        (None, true) => "error".to_owned(),
        (None, false) => "ok".to_owned(),
    }
}

fn compact(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| value.to_string())
}

/// `s` cut to at most `max` characters, with an ellipsis when cut.
fn cut(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn result(text: &str, is_error: bool) -> ContentItem {
        ContentItem::ToolResult {
            tool_use_id: "toolu_1".into(),
            tool_name: "Bash".into(),
            result: vec![ToolResultData::Text { text: text.into() }],
            is_error,
        }
    }

    fn build_log() -> String {
        let mut log: Vec<String> = (0..200)
            .map(|i| format!("   Compiling crate-{i} v0.1.{i} (/work/deps/crate-{i})"))
            .collect();
        log.push("error[E0308]: mismatched types".into());
        log.push("  --> src/format.rs:42:17".into());
        log.push("error: could not compile `squash-core` (lib) due to 1 previous error".into());
        log.push("Process exited with code 101".into());
        log.join("\n")
    }

    fn text_of(item: &ContentItem) -> &str {
        match item {
            ContentItem::ToolResult { result, .. } => match &result[0] {
                ToolResultData::Text { text } => text,
                other => panic!("not text: {other:?}"),
            },
            other => panic!("not a result: {other:?}"),
        }
    }

    #[test]
    fn a_failed_build_keeps_its_call_status_errors_and_ends() {
        let input = json!({"command": "cargo build -p squash-core"});
        let call = CallInfo {
            name: "Bash",
            input: &input,
        };
        let log = build_log();
        let masked = mask_result(&result(&log, true), Some(call)).expect("masked");
        let text = text_of(&masked);
        assert!(text.starts_with(MASK_MARKER), "{text}");
        assert!(text.contains("204 lines"), "{text}");
        assert!(text.contains(r#"call: Bash {"command":"cargo build -p squash-core"}"#));
        assert!(text.contains("status: exit 101 (failed)"), "{text}");
        assert!(text.contains("error[E0308]: mismatched types"), "{text}");
        assert!(text.contains("could not compile `squash-core`"), "{text}");
        assert!(
            text.contains("Compiling crate-0 v0.1.0"),
            "first line kept: {text}"
        );
        assert!(
            text.contains("Process exited with code 101"),
            "last line kept"
        );
        assert!(!text.contains("crate-100 "), "the middle is cut: {text}");
        assert!(estimate_tokens(text) * 5 < estimate_tokens(&log));
        // The pairing survives: same id, same tool, same error flag.
        let ContentItem::ToolResult {
            tool_use_id,
            is_error,
            ..
        } = &masked
        else {
            unreachable!()
        };
        assert_eq!(tool_use_id, "toolu_1");
        assert!(is_error);
    }

    #[test]
    fn small_outputs_and_masked_ones_are_left_alone() {
        assert!(mask_result(&result("ok\n3 files changed", false), None).is_none());
        let masked = mask_result(&result(&build_log(), false), None).expect("masked");
        assert!(mask_result(&masked, None).is_none(), "never masked twice");
        let call = ContentItem::ToolCall {
            id: "toolu_1".into(),
            name: "Bash".into(),
            input: json!({}),
        };
        assert!(mask_result(&call, None).is_none());
    }

    #[test]
    fn an_output_without_status_reads_ok_or_error_from_its_flag() {
        let listing: String = (0..300).map(|i| format!("src/module_{i}.rs\n")).collect();
        let ok = mask_result(&result(&listing, false), None).expect("masked");
        assert!(text_of(&ok).contains("status: ok"));
        assert!(!text_of(&ok).contains("error lines"));
        let failed = mask_result(&result(&listing, true), None).expect("masked");
        assert!(text_of(&failed).contains("status: error"));
    }

    #[test]
    fn long_inputs_and_lines_are_cut_on_char_boundaries() {
        let input = json!({"content": "é".repeat(1000)});
        let long_line = "ü".repeat(5000);
        let masked = mask_result(
            &result(&long_line, false),
            Some(CallInfo {
                name: "Write",
                input: &input,
            }),
        )
        .expect("masked");
        let text = text_of(&masked);
        assert!(text.contains('…'));
        assert!(text.chars().count() < 700, "{}", text.chars().count());
    }
}
