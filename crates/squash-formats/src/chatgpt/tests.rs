use chrono::Utc;
use serde_json::{json, Value};
use squash_core::{ContentItem, ImageSource, Message, MessageId, Role, SystemLevel};

use super::*;
use crate::detect::detect_bytes;
use crate::test_support::{assert_on_threads, read_export, session_bytes};
use crate::Parsed;

fn fixture() -> (Vec<u8>, Parsed) {
    let bytes = session_bytes("chatgpt-conversations.json");
    let mut read_bytes = 0;
    let parsed = EXPORT
        .read(&bytes[..], "conversations.json", Utc::now(), &mut |n| {
            read_bytes += n
        })
        .unwrap();
    assert_eq!(read_bytes, bytes.len() as u64);
    assert!(parsed.records.balanced(), "{:?}", parsed.records);
    assert!(parsed.skipped.is_empty(), "{:?}", parsed.skipped);
    (bytes, parsed)
}

/// What reading `bytes` as the export `name` fails with.
fn refusal(bytes: &[u8], name: &str) -> String {
    let read = EXPORT.read(bytes, name, Utc::now(), &mut |_| {});
    read.expect_err("the export is refused").to_string()
}

fn texts(c: &crate::ImportedConversation, links: &[MessageId]) -> Vec<String> {
    links
        .iter()
        .map(|id| {
            let m: &Message = c.messages.iter().find(|m| m.id == *id).unwrap();
            m.metadata.as_ref().unwrap()[META_KEY]["node"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect()
}

#[test]
fn the_export_is_detected_as_chatgpt() {
    let (bytes, _) = fixture();
    assert_eq!(detect_bytes(&bytes), Some(SourceFormatAlias::ChatGpt));
    // The start of an export too long to parse whole.
    assert_eq!(
        detect_bytes(&bytes[..bytes.len() / 2]),
        Some(SourceFormatAlias::ChatGpt)
    );
}

use squash_core::SourceFormat as SourceFormatAlias;

#[test]
fn branches_become_threads_and_the_current_node_the_current_thread() {
    let (_, parsed) = fixture();
    assert_eq!(parsed.conversations.len(), 2);
    let c = &parsed.conversations[0];
    assert_eq!(c.display_name, "Lisbon trip");
    assert_eq!(c.source_key, "chatgpt:6667a3e8-1f20-800c-9b7e-3c5d2a1f0e44");
    assert_eq!(c.threads.len(), 3);
    assert_eq!(c.current_thread_id, c.threads[0].id);
    assert_eq!(
        texts(c, &c.threads[0].links),
        ["a3-user", "a5-v2", "a6-food", "a7-call", "a8-tool", "a9-final"]
    );
    assert_eq!(texts(c, &c.threads[1].links), ["a3-user", "a4-v1"]);
    assert_eq!(
        texts(c, &c.threads[2].links),
        ["a3-user", "a5-v2", "a10-wine", "a11-wine-reply"]
    );
    for t in &c.threads[1..] {
        assert_eq!(t.original_thread_id, Some(c.threads[0].id));
    }
    assert_eq!(c.messages.len(), 9);
    // The browsing call and its result are paired.
    let by_node = |n: &str| {
        c.messages
            .iter()
            .find(|m| m.metadata.as_ref().unwrap()[META_KEY]["node"] == n)
            .unwrap()
    };
    match (
        &by_node("a7-call").content[0],
        &by_node("a8-tool").content[0],
    ) {
        (
            ContentItem::ToolCall { id, name, .. },
            ContentItem::ToolResult {
                tool_use_id,
                tool_name,
                is_error,
                ..
            },
        ) => {
            assert_eq!((id.as_str(), name.as_str()), ("a7-call", "browser"));
            assert_eq!(
                (tool_use_id.as_str(), tool_name.as_str()),
                ("a7-call", "browser")
            );
            assert!(!is_error);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(by_node("a8-tool").role, Role::User);
    // The root, the hidden system message and the hidden profile are metadata.
    let hidden = &c.metadata.as_ref().unwrap()[META_KEY]["hidden_nodes"];
    let ids: Vec<&str> = hidden
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["client-created-root", "a1-sys", "a2-ctx"]);
    assert!(!c.appendable);
}

#[test]
fn attachments_thoughts_tools_and_unknown_content_are_mapped() {
    let (_, parsed) = fixture();
    let c = &parsed.conversations[1];
    assert_eq!(c.threads.len(), 1);
    let items: Vec<&ContentItem> = c.messages.iter().flat_map(|m| &m.content).collect();
    assert_eq!(items.len(), 10);
    assert_eq!(
        items[0],
        &ContentItem::Image {
            source: ImageSource::Url {
                url: "file-service://file-9Xk2LqTz".into()
            }
        }
    );
    assert_eq!(
        items[1],
        &ContentItem::UserMessage {
            text: "What does this chart show?".into()
        }
    );
    assert!(
        matches!(items[2], ContentItem::Thinking { thinking, .. } if thinking == "Reading the chart\nBars per month, peak in March.")
    );
    assert!(
        matches!(items[3], ContentItem::System { level: SystemLevel::Info, content, .. } if content == "Thought for 4 seconds")
    );
    assert!(matches!(items[6], ContentItem::ToolCall { name, .. } if name == "python"));
    assert!(
        matches!(items[7], ContentItem::ToolResult { is_error: true, tool_use_id, .. } if tool_use_id == "b6-code")
    );
    assert!(
        matches!(items[8], ContentItem::UnknownJson { json } if json["content_type"] == "computer_output")
    );
    assert_eq!(
        parsed.records,
        crate::RecordCounts {
            lines: 22,
            messages: 18,
            metadata: 4,
            skipped: 0
        }
    );
}

#[test]
fn broken_conversations_are_reported_not_dropped() {
    let doc = json!([
        {"title": "no mapping"},
        7,
        {"title": "empty", "mapping": {"r": {"id": "r", "message": null, "parent": null, "children": []}, "bad": 3}},
    ]);
    let parsed = EXPORT.parse_value("c.json", doc, Utc::now());
    assert!(parsed.conversations.is_empty());
    assert_eq!(
        parsed.records,
        crate::RecordCounts {
            lines: 4,
            messages: 0,
            metadata: 1,
            skipped: 3
        }
    );
    let reasons: Vec<&str> = parsed.skipped.iter().map(|s| s.reason.as_str()).collect();
    assert_eq!(
        reasons,
        [
            "conversation 1: no `mapping` of nodes",
            "conversation 2: not a JSON object",
            "conversation 3: node bad is not a JSON object",
            "conversation 3: no visible message",
        ]
    );
}

#[test]
fn a_document_that_is_not_an_export_is_an_error() {
    let err = refusal(b"{\"mapping\": [1,", "x.json");
    assert!(err.starts_with("x.json: not a ChatGPT export"), "{err}");
    let err = refusal(b"42", "y.json");
    assert!(err.contains("a list of ChatGPT conversations"), "{err}");
    assert!(!looks_like(&Value::Array(vec![])));
}

/// Found by the fuzzer: a node that names itself as its parent, a current_node that is not in
/// the mapping and a reply whose parent is missing. Every message must still be on a thread
/// (else it is stored but never shown), and the odd shape is said.
#[test]
fn nodes_on_a_cycle_or_cut_off_still_get_a_thread() {
    let msg = |id: &str, role: &str, text: &str| {
        json!({"id": id, "author": {"role": role}, "create_time": 1.0,
               "content": {"content_type": "text", "parts": [text]}})
    };
    let doc = json!([{
        "title": "odd tree", "conversation_id": "c-odd", "current_node": "gone",
        "mapping": {
            "root": {"id": "root", "message": null, "parent": null, "children": ["u1"]},
            "u1": {"id": "u1", "message": msg("u1", "user", "first"), "parent": "root",
                   "children": ["a1", "loop"]},
            "a1": {"id": "a1", "message": msg("a1", "assistant", "one"), "parent": "u1",
                   "children": []},
            "loop": {"id": "loop", "message": msg("loop", "assistant", "self"), "parent": "loop",
                     "children": ["x"]},
            "x": {"id": "x", "message": msg("x", "assistant", "orphan"), "parent": "missing",
                  "children": []},
            "c1": {"id": "c1", "message": msg("c1", "user", "ring a"), "parent": "c2",
                   "children": ["c2"]},
            "c2": {"id": "c2", "message": msg("c2", "assistant", "ring b"), "parent": "c1",
                   "children": ["c1"]}
        }
    }]);
    let parsed = read_export(&EXPORT, &doc, "odd.json");
    let c = &parsed.conversations[0];
    assert_eq!(c.messages.len(), 6);
    assert_on_threads(c);
    assert!(c.threads.iter().any(|t| t.id == c.current_thread_id));
    assert!(
        parsed.warnings.iter().any(|w| w.contains("cycle")),
        "{:?}",
        parsed.warnings
    );
}
