//! The text a model reads for each content type (the spec's "Content Type Handling" table).
//!
//! This differs from [`crate::render`] on purpose: render shows everything to a person (raw
//! JSON arguments, whole outputs); a model compressing messages needs the intent of a call and
//! the outcome of a result, and pays for every token of a 40 KB build log.

use std::collections::HashMap;

use serde_json::Value;

use crate::message::{ContentItem, ImageSource, Message, Role, ToolResultData};
use crate::render;
use crate::text::shorten;
use crate::tokens::format_count;

/// Characters of a long tool output (or reasoning block) kept from its start and its end.
/// The head holds what was run and the first findings; the tail holds the summary line most
/// tools end with ("3 errors", "test result: ok", the exit status).
const OUTPUT_HEAD_CHARS: usize = 1_200;
const OUTPUT_TAIL_CHARS: usize = 400;
/// Cutting fewer characters than this saves nothing worth the marker.
const MIN_OMITTED_CHARS: usize = 200;

/// A tool argument longer than this is shortened to its first `ARG_KEEP_CHARS`.
const ARG_MAX_CHARS: usize = 200;
const ARG_KEEP_CHARS: usize = 160;
const ARGS_MAX_FIELDS: usize = 8;
const ARRAY_MAX_ITEMS: usize = 5;
const IMAGE_LABEL_MAX_CHARS: usize = 120;

/// Arguments that say what a call is about come first; the rest follow alphabetically so the
/// text is the same whatever order the JSON object kept.
const PRIMARY_ARGS: &[&str] = &[
    "command",
    "pattern",
    "query",
    "url",
    "file_path",
    "path",
    "old_string",
    "new_string",
    "content",
    "description",
];

/// Looks up tool names by tool-use id, for results that arrive without a name (some import
/// formats keep only the id). A call and its result are never split by a squash, so the call
/// is in the same selection.
pub(crate) struct ToolNames<'a>(HashMap<&'a str, &'a str>);

impl<'a> ToolNames<'a> {
    pub(crate) fn of(messages: &[&'a Message]) -> ToolNames<'a> {
        let mut names = HashMap::new();
        for message in messages {
            for item in &message.content {
                if let ContentItem::ToolCall { id, name, .. } = item {
                    names.insert(id.as_str(), name.as_str());
                }
            }
        }
        ToolNames(names)
    }

    fn label(&self, tool_name: &'a str, tool_use_id: &str) -> &'a str {
        if !tool_name.trim().is_empty() {
            return tool_name;
        }
        self.0
            .get(tool_use_id)
            .copied()
            .filter(|n| !n.trim().is_empty())
            .unwrap_or("The tool")
    }
}

/// The role a model should attribute a message to. A message holding only tool results is
/// stored with role `user` (that is how the Anthropic API carries them), but the user did not
/// say any of it; calling it `tool` keeps the model from putting the output in the user's mouth.
pub(crate) fn display_role(message: &Message) -> &'static str {
    let only_results = !message.content.is_empty()
        && message
            .content
            .iter()
            .all(|item| matches!(item, ContentItem::ToolResult { .. }));
    if only_results && message.role != Role::Assistant {
        "tool"
    } else {
        message.role.as_str()
    }
}

/// The text of one message for the model: its items, blank items skipped, separated by blank
/// lines. Never empty, so that message indexes stay continuous.
pub(crate) fn message_body(message: &Message, names: &ToolNames<'_>) -> String {
    body_with(message, names, Cut::Prompt)
}

/// [`message_body`] with tool outputs cut harder: for the small local models, which read slowly
/// and get lost in long logs.
pub(crate) fn condensed_body(message: &Message, names: &ToolNames<'_>) -> String {
    body_with(message, names, Cut::Condensed)
}

/// How much of a long tool output a prompt shows.
#[derive(Clone, Copy)]
enum Cut {
    /// Head and tail by characters ([`shorten_output`]).
    Prompt,
    /// A few head and tail lines plus every error line ([`condense_output`]).
    Condensed,
}

fn body_with(message: &Message, names: &ToolNames<'_>, cut: Cut) -> String {
    let parts: Vec<String> = message
        .content
        .iter()
        .filter_map(|item| item_text(item, names, cut))
        .collect();
    if parts.is_empty() {
        "[no text]".to_owned()
    } else {
        parts.join("\n\n")
    }
}

fn item_text(item: &ContentItem, names: &ToolNames<'_>, cut: Cut) -> Option<String> {
    if item.is_blank() {
        return None;
    }
    let text = match item {
        ContentItem::UserMessage { text } => text.trim().to_owned(),
        ContentItem::AssistantMessage { structured } => structured.full_text.trim().to_owned(),
        ContentItem::ToolCall { name, input, .. } => {
            let name = if name.trim().is_empty() {
                "a tool"
            } else {
                name
            };
            format!("Called {name}({})", compact_args(input))
        }
        ContentItem::ToolResult {
            tool_use_id,
            tool_name,
            result,
            is_error,
        } => tool_result_text(names.label(tool_name, tool_use_id), result, *is_error, cut),
        ContentItem::Thinking { thinking, .. } => match cut {
            Cut::Prompt => format!("Reasoning: {}", shorten_output(thinking.trim())),
            // Reasoning restates what the calls and answers show; a small model need not read it.
            Cut::Condensed => return None,
        },
        ContentItem::System { level, content, .. } => {
            format!("System {}: {}", level.as_str(), content.trim())
        }
        ContentItem::Image { source } => match source {
            ImageSource::Base64 { .. } => "[image]".to_owned(),
            ImageSource::Url { url } => {
                format!("[image: {}]", shorten(url, IMAGE_LABEL_MAX_CHARS))
            }
            ImageSource::File { path } => {
                format!("[image: {}]", shorten(path, IMAGE_LABEL_MAX_CHARS))
            }
        },
        ContentItem::UnknownJson { json } => match json.get("type").and_then(Value::as_str) {
            Some(kind) => format!("[unrecognised content of type \"{}\"]", shorten(kind, 40)),
            None => "[unrecognised content]".to_owned(),
        },
    };
    Some(text)
}

fn tool_result_text(label: &str, result: &[ToolResultData], is_error: bool, cut: Cut) -> String {
    let body = result
        .iter()
        .map(|data| match data {
            ToolResultData::Text { text } => text.trim_end().to_owned(),
            other => render::result_text(other),
        })
        .collect::<Vec<_>>()
        .join("\n");
    let body = body.trim_matches(|c| c == '\n' || c == '\r');
    let verb = if is_error { "failed" } else { "returned" };
    if body.trim().is_empty() {
        return if is_error {
            format!("{label} failed with no output.")
        } else {
            format!("{label} returned no output.")
        };
    }
    let body = match cut {
        Cut::Prompt => shorten_output(body),
        Cut::Condensed => condense_output(body),
    };
    if body.contains('\n') {
        format!("{label} {verb}:\n{body}")
    } else {
        format!("{label} {verb}: {body}")
    }
}

/// Keeps the head and the tail of a long output and says how much of the middle was cut.
/// Cuts fall on line breaks when one is near, so no line is shown half.
pub(crate) fn shorten_output(text: &str) -> String {
    let total = text.chars().count();
    if total <= OUTPUT_HEAD_CHARS + OUTPUT_TAIL_CHARS + MIN_OMITTED_CHARS {
        return text.to_owned();
    }
    let byte_at = |char_index: usize| {
        text.char_indices()
            .nth(char_index)
            .map_or(text.len(), |(b, _)| b)
    };
    let head_limit = byte_at(OUTPUT_HEAD_CHARS);
    let head_floor = byte_at(OUTPUT_HEAD_CHARS * 3 / 4);
    let head_end = text[head_floor..head_limit]
        .rfind('\n')
        .map_or(head_limit, |i| head_floor + i);

    let tail_floor = byte_at(total - OUTPUT_TAIL_CHARS);
    let tail_ceiling = byte_at(total - OUTPUT_TAIL_CHARS * 3 / 4);
    let tail_start = text[tail_floor..tail_ceiling]
        .find('\n')
        .map_or(tail_floor, |i| tail_floor + i + 1);

    let head = text[..head_end].trim_end();
    let tail = text[tail_start..].trim_start_matches(['\n', '\r']);
    // Counted from what is shown, so that shown + omitted is always the whole output.
    let omitted = total - head.chars().count() - tail.chars().count();
    format!(
        "{head}\n[… {} characters omitted …]\n{tail}",
        format_count(omitted as u64)
    )
}

/// Lines of a tool output a condensed transcript keeps from its start and its end.
const CONDENSED_HEAD_LINES: usize = 2;
const CONDENSED_TAIL_LINES: usize = 1;
const CONDENSED_ERROR_LINES: usize = 3;
const CONDENSED_LINE_CHARS: usize = 160;

/// The first and last lines of a long output and the error lines between them, with a marker
/// saying how many lines were cut.
pub(crate) fn condense_output(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let keep_all = CONDENSED_HEAD_LINES + CONDENSED_TAIL_LINES + CONDENSED_ERROR_LINES;
    if lines.len() <= keep_all {
        return lines
            .iter()
            .map(|l| shorten(l, CONDENSED_LINE_CHARS))
            .collect::<Vec<_>>()
            .join("\n");
    }
    let tail_start = lines.len() - CONDENSED_TAIL_LINES;
    let mut out: Vec<String> = Vec::new();
    let mut cut = 0usize;
    let mut errors = 0usize;
    let flush_cut = |out: &mut Vec<String>, cut: &mut usize| {
        if *cut > 0 {
            out.push(format!("[… {cut} lines cut …]"));
            *cut = 0;
        }
    };
    for (i, line) in lines.iter().enumerate() {
        let is_error = errors < CONDENSED_ERROR_LINES && looks_like_error(line);
        if i < CONDENSED_HEAD_LINES || i >= tail_start || is_error {
            errors += usize::from(is_error && i >= CONDENSED_HEAD_LINES && i < tail_start);
            flush_cut(&mut out, &mut cut);
            out.push(shorten(line, CONDENSED_LINE_CHARS));
        } else {
            cut += 1;
        }
    }
    out.join("\n")
}

fn looks_like_error(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    [
        "error",
        "failed",
        "panicked",
        "exception",
        "traceback",
        "fatal",
        "denied",
    ]
    .iter()
    .any(|w| lower.contains(w))
        && !lower.contains(" 0 failed")
}

/// `{"pattern": "*.ts", "path": "src"}` → `pattern="*.ts", path="src"`: what a person would
/// write to say which call it was, not a JSON dump.
fn compact_args(input: &Value) -> String {
    match input {
        Value::Null => String::new(),
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort_by_key(|k| {
                let rank = PRIMARY_ARGS
                    .iter()
                    .position(|p| p == k)
                    .unwrap_or(PRIMARY_ARGS.len());
                (rank, k.as_str())
            });
            let shown: Vec<String> = keys
                .iter()
                .filter_map(|k| {
                    let value = map.get(k.as_str())?;
                    (!value.is_null()).then(|| format!("{k}={}", arg_value(value)))
                })
                .collect();
            if shown.len() > ARGS_MAX_FIELDS {
                let rest = shown.len() - ARGS_MAX_FIELDS;
                format!("{}, … {rest} more", shown[..ARGS_MAX_FIELDS].join(", "))
            } else {
                shown.join(", ")
            }
        }
        other => arg_value(other),
    }
}

fn arg_value(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => quote_arg(s),
        Value::Array(items) => {
            let scalar = items
                .iter()
                .all(|v| !matches!(v, Value::Array(_) | Value::Object(_)));
            if !scalar {
                return format!("[{} items]", items.len());
            }
            let mut shown: Vec<String> =
                items.iter().take(ARRAY_MAX_ITEMS).map(arg_value).collect();
            if items.len() > ARRAY_MAX_ITEMS {
                shown.push(format!("… {} more", items.len() - ARRAY_MAX_ITEMS));
            }
            format!("[{}]", shown.join(", "))
        }
        Value::Object(map) => match map.len() {
            1 => "{1 field}".to_owned(),
            n => format!("{{{n} fields}}"),
        },
    }
}

fn quote_arg(s: &str) -> String {
    let total = s.chars().count();
    let (kept, cut) = if total > ARG_MAX_CHARS {
        (s.chars().take(ARG_KEEP_CHARS).collect::<String>(), true)
    } else {
        (s.to_owned(), false)
    };
    let mut out = String::with_capacity(kept.len() + 2);
    out.push('"');
    for c in kept.chars() {
        match c {
            // Only what would make the value ambiguous; backslashes stay single so that
            // `C:\dir` and regexes read as written.
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    if cut {
        out.push_str(&format!("…\" ({} chars)", format_count(total as u64)));
    } else {
        out.push('"');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn condensed_outputs_keep_head_tail_and_errors() {
        let log: String = (1..=30)
            .map(|i| {
                if i == 15 {
                    "error[E0308]: mismatched types".to_owned()
                } else {
                    format!("line {i}")
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        assert_eq!(
            condense_output(&log),
            "line 1\nline 2\n[… 12 lines cut …]\nerror[E0308]: mismatched types\n\
             [… 14 lines cut …]\nline 30"
        );
        assert_eq!(condense_output("a\nb"), "a\nb");
    }

    #[test]
    fn args_are_compact_and_primary_first() {
        assert_eq!(
            compact_args(&json!({"path": "src", "pattern": "*.ts"})),
            r#"pattern="*.ts", path="src""#
        );
        assert_eq!(
            compact_args(
                &json!({"command": "npx tsc --noEmit", "timeout": 120000, "run_in_background": false})
            ),
            r#"command="npx tsc --noEmit", run_in_background=false, timeout=120000"#
        );
        assert_eq!(compact_args(&Value::Null), "");
        assert_eq!(compact_args(&json!("ls -la")), r#""ls -la""#);
        assert_eq!(compact_args(&json!({"a": null, "b": 1})), "b=1");
    }

    #[test]
    fn nested_arguments_are_summarised() {
        assert_eq!(
            compact_args(
                &json!({"edits": [{"old": "a"}, {"old": "b"}], "opts": {"x": 1}, "tags": ["a", "b"]})
            ),
            r#"edits=[2 items], opts={1 field}, tags=["a", "b"]"#
        );
        assert_eq!(
            arg_value(&json!([1, 2, 3, 4, 5, 6, 7])),
            "[1, 2, 3, 4, 5, … 2 more]"
        );
    }

    #[test]
    fn long_and_multiline_arguments_are_shortened() {
        let long = "x".repeat(1_000);
        let shown = compact_args(&json!({ "content": long }));
        assert!(shown.starts_with(&format!("content=\"{}", "x".repeat(160))));
        assert!(shown.ends_with("…\" (1,000 chars)"), "{shown}");
        assert_eq!(
            compact_args(&json!({"command": "cd app\nmake \"all\""})),
            r#"command="cd app\nmake \"all\"""#
        );
        assert_eq!(
            compact_args(&json!({"pattern": "\\.ts$", "path": "C:\\src"})),
            r#"pattern="\.ts$", path="C:\src""#
        );
    }

    #[test]
    fn many_fields_are_capped() {
        let input = json!({"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10});
        assert_eq!(
            compact_args(&input),
            "a=1, b=2, c=3, d=4, e=5, f=6, g=7, h=8, … 2 more"
        );
    }

    #[test]
    fn short_output_is_kept_whole() {
        let text = "line\n".repeat(300);
        assert_eq!(shorten_output(&text), text);
    }

    #[test]
    fn long_output_keeps_head_and_tail_on_line_breaks() {
        let text: String = (1..=400)
            .map(|i| format!("src/file_{i:03}.ts: ok\n"))
            .collect();
        let short = shorten_output(&text);
        assert!(short.starts_with("src/file_001.ts: ok\n"));
        assert!(short.trim_end().ends_with("src/file_400.ts: ok"));
        assert!(short.contains("characters omitted …]"));
        // Every kept line is whole.
        for line in short.lines().filter(|l| !l.starts_with("[…")) {
            assert!(
                line.starts_with("src/file_") && line.ends_with(": ok"),
                "{line:?}"
            );
        }
        let omitted: usize = short
            .split("[… ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .map(|n| n.replace(',', "").parse().unwrap())
            .unwrap();
        let kept = short.chars().count()
            - format!(
                "\n[… {} characters omitted …]\n",
                format_count(omitted as u64)
            )
            .chars()
            .count();
        assert_eq!(kept + omitted, text.chars().count());
    }

    #[test]
    fn long_output_without_line_breaks_is_cut_by_characters() {
        let text = "é".repeat(5_000);
        let short = shorten_output(&text);
        assert!(short.contains("[… 3,400 characters omitted …]"), "{short}");
        assert!(short.starts_with(&"é".repeat(1_200)));
    }

    #[test]
    fn results_name_the_tool_and_the_outcome() {
        let names = ToolNames(HashMap::from([("t1", "Grep")]));
        let ok = ContentItem::ToolResult {
            tool_use_id: "t1".into(),
            tool_name: String::new(),
            result: vec![ToolResultData::Text {
                text: "Found 2 files\n".into(),
            }],
            is_error: false,
        };
        assert_eq!(
            item_text(&ok, &names, Cut::Prompt).unwrap(),
            "Grep returned: Found 2 files"
        );
        let failed = ContentItem::ToolResult {
            tool_use_id: "t9".into(),
            tool_name: "Bash".into(),
            result: vec![],
            is_error: true,
        };
        assert_eq!(
            item_text(&failed, &names, Cut::Prompt).unwrap(),
            "Bash failed with no output."
        );
        let unknown = ContentItem::ToolResult {
            tool_use_id: "zz".into(),
            tool_name: String::new(),
            result: vec![ToolResultData::Base64 {
                media_type: "image/png".into(),
                data: "AAAA".into(),
            }],
            is_error: false,
        };
        assert_eq!(
            item_text(&unknown, &names, Cut::Prompt).unwrap(),
            "The tool returned: [image/png, 4 bytes base64]"
        );
    }

    #[test]
    fn placeholders_for_images_and_unknown_content() {
        let names = ToolNames(HashMap::new());
        let image = ContentItem::Image {
            source: ImageSource::Base64 {
                media_type: "image/png".into(),
                data: "A".repeat(10_000),
            },
        };
        assert_eq!(item_text(&image, &names, Cut::Prompt).unwrap(), "[image]");
        let file = ContentItem::Image {
            source: ImageSource::File {
                path: "docs/screenshot.png".into(),
            },
        };
        assert_eq!(
            item_text(&file, &names, Cut::Prompt).unwrap(),
            "[image: docs/screenshot.png]"
        );
        let unknown = ContentItem::UnknownJson {
            json: json!({"type": "server_tool_use", "payload": "x".repeat(5_000)}),
        };
        assert_eq!(
            item_text(&unknown, &names, Cut::Prompt).unwrap(),
            "[unrecognised content of type \"server_tool_use\"]"
        );
        let untyped = ContentItem::UnknownJson {
            json: json!([1, 2]),
        };
        assert_eq!(
            item_text(&untyped, &names, Cut::Prompt).unwrap(),
            "[unrecognised content]"
        );
    }

    #[test]
    fn blank_items_are_skipped() {
        let names = ToolNames(HashMap::new());
        let redacted = ContentItem::Thinking {
            signature: "sig".into(),
            thinking: "  ".into(),
        };
        assert_eq!(item_text(&redacted, &names, Cut::Prompt), None);
    }
}
