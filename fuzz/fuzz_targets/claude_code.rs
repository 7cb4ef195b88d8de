//! The Claude Code session parser on arbitrary input, and the export of whatever it made:
//! neither may panic, and an unchanged import must export to lines that parse again.
#![no_main]

use std::collections::HashMap;

use libfuzzer_sys::fuzz_target;
use squash_formats::claude_code::{write, ClaudeCodeParser, META_KEY};
use squash_formats::session::Session;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = ClaudeCodeParser::parse_str("fuzz.jsonl", text, "");
    for conv in &parsed.conversations {
        assert!(parsed.records.balanced(), "{:?}", parsed.records);
        // Every message is in a thread; every thread derives from one listed before it.
        let ids: std::collections::HashSet<_> = conv.messages.iter().map(|m| m.id).collect();
        let linked: std::collections::HashSet<_> =
            conv.threads.iter().flat_map(|t| t.links.iter().copied()).collect();
        assert_eq!(ids, linked);
        for (k, t) in conv.threads.iter().enumerate() {
            if let Some(o) = t.original_thread_id {
                assert!(conv.threads[..k].iter().any(|e| e.id == o));
            }
        }
        let extras = conv
            .metadata
            .as_ref()
            .and_then(|m| m.get(META_KEY))
            .and_then(|c| c.get("extras"))
            .and_then(|e| e.as_array())
            .cloned()
            .unwrap_or_default();
        let operations = HashMap::new();
        let mut out = Vec::new();
        let session = Session {
            session_id: "00000000-0000-4000-8000-000000000000",
            cwd: "/fuzz",
            created_at: chrono::Utc::now(),
            messages: &conv.messages,
            operations: &operations,
        };
        write(&session, &extras, &mut out).expect("writing to memory cannot fail");
        for line in out.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
            serde_json::from_slice::<serde_json::Value>(line).expect("exported lines are JSON");
        }
    }
});
