//! A tool call's arguments as a prompt shows them: `pattern="*.ts", path="src"`, the arguments
//! that say what the call is about first, long values shortened.

use serde_json::Value;

use crate::tokens::format_count;

/// A tool argument longer than this is shortened to its first `ARG_KEEP_CHARS`.
const ARG_MAX_CHARS: usize = 200;
const ARG_KEEP_CHARS: usize = 160;
const ARGS_MAX_FIELDS: usize = 8;
const ARRAY_MAX_ITEMS: usize = 5;

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

/// `{"pattern": "*.ts", "path": "src"}` → `pattern="*.ts", path="src"`: what a person would
/// write to say which call it was, not a JSON dump.
pub(super) fn compact_args(input: &Value) -> String {
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
}
