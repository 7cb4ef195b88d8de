//! The ChatGPT `conversations.json` reader on arbitrary input, through the streaming document
//! driver: errors are fine, panics are not; an export that reads accounts for each of its
//! mapping nodes once, and every message it makes is on one of its conversation's threads.
#![no_main]

use std::collections::HashSet;

use chrono::Utc;
use libfuzzer_sys::fuzz_target;
use squash_formats::{read, SourceFormat};

fuzz_target!(|data: &[u8]| {
    let Ok(parsed) = read::read_stream(
        data,
        "conversations.json",
        SourceFormat::ChatGpt,
        Utc::now(),
        &mut |_| {},
    ) else {
        return;
    };
    assert!(parsed.records.balanced(), "{:?}", parsed.records);
    for conv in &parsed.conversations {
        let linked: HashSet<_> = conv.threads.iter().flat_map(|t| t.links.iter()).collect();
        for message in &conv.messages {
            assert!(linked.contains(&message.id), "a message on no thread");
        }
        assert!(conv.threads.iter().any(|t| t.id == conv.current_thread_id));
        serde_json::to_string(&conv.messages).expect("messages serialize");
    }
});
