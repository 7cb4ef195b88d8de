//! The Anthropic-style chat reader on arbitrary input, through the document driver: errors are
//! fine, panics are not; a document that reads accounts for each of its entries once, and each
//! message's blocks map back to Anthropic blocks.
#![no_main]

use chrono::Utc;
use libfuzzer_sys::fuzz_target;
use squash_formats::anthropic_json::item_to_block;
use squash_formats::{read, SourceFormat};

fuzz_target!(|data: &[u8]| {
    let Ok(parsed) = read::read_stream(
        data,
        "fuzz.json",
        SourceFormat::Anthropic,
        Utc::now(),
        &mut |_| {},
    ) else {
        return;
    };
    assert!(parsed.records.balanced(), "{:?}", parsed.records);
    for conv in &parsed.conversations {
        assert_eq!(conv.threads[0].links.len(), conv.messages.len());
        for message in &conv.messages {
            for item in &message.content {
                let block = item_to_block(item);
                assert!(block.is_object(), "{block}");
            }
        }
    }
});
