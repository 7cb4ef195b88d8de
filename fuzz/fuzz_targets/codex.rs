//! The Codex rollout reader on arbitrary input: no panic, and every message it makes is on one of
//! its conversation's threads.
#![no_main]

use std::collections::HashSet;

use libfuzzer_sys::fuzz_target;
use squash_formats::codex::CodexParser;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = CodexParser::parse_str("fuzz.jsonl", text, "");
    assert!(parsed.records.balanced(), "{:?}", parsed.records);
    for conv in &parsed.conversations {
        let linked: HashSet<_> = conv.threads.iter().flat_map(|t| t.links.iter()).collect();
        for message in &conv.messages {
            assert!(linked.contains(&message.id), "a message on no thread");
        }
        serde_json::to_string(&conv.messages).expect("messages serialize");
    }
});
