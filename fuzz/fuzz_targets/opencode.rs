//! The opencode export reader on arbitrary input: no panic; every record (session, message,
//! part) accounted for once; and the import document written from what was read reads again,
//! every message on its thread.
#![no_main]

use std::collections::HashMap;

use chrono::Utc;
use libfuzzer_sys::fuzz_target;
use squash_formats::{opencode, read, SourceFormat};

fuzz_target!(|data: &[u8]| {
    let Ok(parsed) =
        read::read_stream(data, "export.json", SourceFormat::Opencode, Utc::now(), &mut |_| {})
    else {
        return;
    };
    assert!(parsed.records.balanced(), "{:?}", parsed.records);
    for conv in &parsed.conversations {
        assert_eq!(conv.threads[0].links.len(), conv.messages.len());
        let mut out = Vec::new();
        opencode::write(
            &squash_formats::session::Session {
                session_id: "ses_fuzz",
                cwd: "/w",
                created_at: Utc::now(),
                messages: &conv.messages,
                operations: &HashMap::new(),
            },
            &conv.display_name,
            None,
            &mut out,
        )
        .expect("written to memory");
        let again = read::read_stream(&out[..], "again.json", SourceFormat::Opencode, Utc::now(), &mut |_| {})
            .expect("a written document reads");
        assert!(again.records.balanced(), "{:?}", again.records);
    }
});
