//! The Gromozeka `message_json` parser on arbitrary input: errors are fine, panics are not, and
//! whatever it accepts serializes as our content.
#![no_main]

use libfuzzer_sys::fuzz_target;
use squash_formats::gromozeka::{column_time, parse_message_json, SqlValue};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(message) = parse_message_json(text) {
        serde_json::to_string(&message.content).expect("content serializes");
        serde_json::to_string(&message.instructions).expect("instructions serialize");
    }
    // The created_at column reader sees arbitrary text too.
    let _ = column_time(&rusqlite_text(text));
});

fn rusqlite_text(text: &str) -> SqlValue {
    SqlValue::Text(text.to_owned())
}
