//! The head reading of a message line gives what the full reading gives, content aside, on
//! every line of every Claude Code session in `testdata/sessions`; what it is not sure of, it
//! leaves to the full reading.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::message_line;
use crate::anthropic_json::ToolNames;
use crate::claude_code::keys::Keys;
use crate::claude_code::lines::{convert, Body, LineAt, LineRecord};

/// Every Claude Code session file under `testdata/sessions`, sub-agent runs included.
fn session_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|x| x == "jsonl") {
                out.push(path);
            }
        }
    }
    let root = crate::test_support::session_path("");
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&root).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("claude-code") {
            if path.is_dir() {
                walk(&path, &mut files);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// What a record says, content aside, in a form two readings compare in.
fn described(r: &LineRecord) -> String {
    let body = match &r.body {
        Body::Message(m) => format!(
            "{:?} api {:?} at {:?} result {} injected {} cwd {:?} counts {:?} title {:?} \
             prompt {:?} tasks {:?} results {:?}",
            m.role,
            m.api_id,
            m.at,
            m.facts.tool_result,
            m.facts.injected,
            m.facts.cwd,
            m.facts.counts,
            m.facts.lead_title(),
            m.facts.prompt(),
            m.facts.tasks(),
            m.facts.result_ids(),
        ),
        Body::Raw(_) => "raw".to_owned(),
        Body::Taken => "taken".to_owned(),
    };
    format!(
        "line {} uuid {:?} parent {:?} boundary {} sidechain {} agent {:?} meta {} time {:?} {body}",
        r.no,
        r.uuid,
        r.parent,
        r.boundary.is_some(),
        r.sidechain,
        r.agent_id,
        r.is_meta,
        r.timestamp,
    )
}

/// Both readings of every line of `text`: (lines the head read, message lines in all).
fn compare(name: &str, text: &str) -> (usize, usize) {
    let (mut head_keys, mut full_keys) = (Keys::default(), Keys::default());
    let (mut head_names, mut full_names) = (ToolNames::new(), ToolNames::new());
    let (mut read, mut messages) = (0, 0);
    for (i, line) in text.lines().enumerate() {
        let at = LineAt {
            no: i + 1,
            offset: 0,
            len: 0,
            crc: 0,
        };
        let Ok(value) = serde_json::from_str::<Value>(line) else {
            assert!(message_line(at, line, &mut head_names, &mut head_keys).is_none());
            continue;
        };
        let mut full = convert(at, value, &mut full_names, &mut full_keys);
        if let Body::Message(m) = &mut full.body {
            m.content = None;
            messages += 1;
        }
        let Some(head) = message_line(at, line, &mut head_names, &mut head_keys) else {
            // The full reading then reads it for both: the keys stay in step.
            let value = serde_json::from_str::<Value>(line).unwrap();
            convert(at, value, &mut head_names, &mut head_keys);
            continue;
        };
        read += 1;
        assert_eq!(
            described(&head.record),
            described(&full),
            "{name} line {}",
            i + 1
        );
    }
    assert_eq!(head_names, full_names, "{name}: the tool names");
    (read, messages)
}

#[test]
fn the_head_reads_every_message_line_of_the_sessions_as_the_full_reading_does() {
    let files = session_files();
    assert!(files.len() >= 30, "{} session files", files.len());
    let (mut read, mut messages) = (0, 0);
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let (r, m) = compare(&path.display().to_string(), &text);
        read += r;
        messages += m;
    }
    // The head reads the lines a session is made of; only what it is unsure of is left.
    assert!(
        read * 100 >= messages * 95,
        "the head read {read} of {messages} message lines"
    );
}

#[test]
fn what_the_head_is_not_sure_of_is_left_to_the_full_reading() {
    let line = |body: &str| {
        format!(r#"{{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s",{body}}}"#)
    };
    let reads = |text: &str| {
        let at = LineAt::default();
        message_line(at, text, &mut ToolNames::new(), &mut Keys::default()).is_some()
    };
    // The common shapes are read.
    assert!(reads(&line(r#""message":{"role":"user","content":"hi"}"#)));
    assert!(reads(&line(
        r#""message":{"content":[{"type":"tool_result","tool_use_id":"t","content":"x\ny"}]}"#
    )));
    let unsure = [
        // An image's item depends on its source.
        r#""message":{"content":[{"type":"image","source":{"type":"base64"}}]}"#,
        // A field of another type than Claude Code writes.
        r#""message":{"content":"hi"},"isMeta":"yes""#,
        r#""message":{"content":[{"type":"tool_result","tool_use_id":"t","is_error":1}]}"#,
        // A key written twice: the full reading keeps the last.
        r#""message":{"content":"hi"},"isMeta":true,"isMeta":false"#,
        // No message, or one that is no object.
        r#""message":null"#,
        r#""message":"hi""#,
        // A block that is no object; content of another shape.
        r#""message":{"content":["hi"]}"#,
        r#""message":{"content":{"type":"text"}}"#,
        // A compaction's boundary.
        r#""message":{"content":"hi"},"subtype":"compact_boundary""#,
    ];
    for body in unsure {
        assert!(!reads(&line(body)), "{body}");
    }
    assert!(!reads(r#"{"type":"last-prompt","leafUuid":"u1"}"#));
    assert!(!reads(r#"{"type":"user","message":{"content":"no uuid"}}"#));
    assert!(!reads(
        r#"{"type":"user","uuid":"u1","message":{"content":"hi"}} trailing"#
    ));
}
