//! The claude.ai `conversations.json` reader on arbitrary input, through the streaming list
//! driver: no panic; every chat message accounted for once; every message on one of its
//! conversation's threads, the current one among them; messages serialize.
#![no_main]

use std::collections::HashSet;

use chrono::Utc;
use libfuzzer_sys::fuzz_target;
use squash_formats::{read, SourceFormat};

fuzz_target!(|data: &[u8]| {
    let Ok(parsed) = read::read_stream(
        data,
        "conversations.json",
        SourceFormat::ClaudeAi,
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
