//! The OpenAI-style chat reader (messages, bare arrays, SWE-agent trajectories) on arbitrary
//! input, through the document driver, and format detection on the same bytes: errors are fine,
//! panics are not; a document that reads accounts for each of its entries once.
#![no_main]

use chrono::Utc;
use libfuzzer_sys::fuzz_target;
use squash_formats::{detect, read, SourceFormat};

fuzz_target!(|data: &[u8]| {
    let _ = detect::inspect(data);
    let Ok(parsed) = read::read_stream(
        data,
        "fuzz.json",
        SourceFormat::OpenAi,
        Utc::now(),
        &mut |_| {},
    ) else {
        return;
    };
    assert!(parsed.records.balanced(), "{:?}", parsed.records);
    for conv in &parsed.conversations {
        assert_eq!(conv.threads[0].links.len(), conv.messages.len());
        serde_json::to_string(&conv.messages).expect("messages serialize");
    }
});
