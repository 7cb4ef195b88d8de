//! The Gemini CLI recording reader on arbitrary input (JSON lines and the older document): no
//! panic; every record accounted for once; every message on one of its threads, the current
//! one among them; and the recording written back from what was read reads again.
#![no_main]

use std::collections::{HashMap, HashSet};

use chrono::Utc;
use libfuzzer_sys::fuzz_target;
use squash_formats::{gemini, read, SourceFormat};

fuzz_target!(|data: &[u8]| {
    let Ok(parsed) =
        read::read_stream(data, "session.jsonl", SourceFormat::Gemini, Utc::now(), &mut |_| {})
    else {
        return;
    };
    assert!(parsed.records.balanced(), "{:?}", parsed.records);
    for conv in &parsed.conversations {
        let linked: HashSet<_> = conv.threads.iter().flat_map(|t| t.links.iter()).collect();
        for message in &conv.messages {
            assert!(linked.contains(&message.id), "a message on no thread");
        }
        assert!(conv.threads.iter().any(|t| t.id == conv.current_thread_id));
        let mut out = Vec::new();
        gemini::write(
            &squash_formats::session::Session {
                session_id: "s",
                cwd: "/w",
                created_at: Utc::now(),
                messages: &conv.messages,
                operations: &HashMap::new(),
            },
            &mut out,
        )
        .expect("written to memory");
        let again = read::read_stream(&out[..], "again.jsonl", SourceFormat::Gemini, Utc::now(), &mut |_| {})
            .expect("a written recording reads");
        assert!(again.records.balanced(), "{:?}", again.records);
    }
});
