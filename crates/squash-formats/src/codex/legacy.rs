//! Legacy rollouts (Codex CLI releases of spring 2025): the first line is a bare session object
//! `{"id", "timestamp", "instructions", ...}`, then every line is a bare response item
//! (`{"type": "message", ...}`) or a state marker `{"record_type": "state"}`, without the
//! `{timestamp, type, payload}` envelope and without timestamps of their own.

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

use super::CodexParser;

/// Whether `obj` is the session object a legacy rollout starts with.
pub fn is_session_object(obj: &Map<String, Value>) -> bool {
    obj.get("id").is_some_and(Value::is_string)
        && obj.get("timestamp").is_some_and(Value::is_string)
        && !obj.contains_key("type")
        && !obj.contains_key("payload")
        && !obj.contains_key("messages")
}

/// Whether `line` can follow that session object: a bare response item or a state marker.
pub fn is_legacy_line(line: &Value) -> bool {
    line.get("record_type").is_some()
        || (line.get("type").is_some_and(Value::is_string) && line.get("payload").is_none())
}

impl CodexParser {
    /// A line without the envelope: a legacy session object, state marker or response item.
    pub(super) fn legacy_line(&mut self, no: usize, time: DateTime<Utc>, line: Map<String, Value>) {
        if line.contains_key("record_type") {
            self.keep_line(no, Value::Object(line));
        } else if line.get("type").is_some_and(Value::is_string) {
            self.response_item(no, time, Value::Object(line), None);
        } else if is_session_object(&line) {
            let line = Value::Object(line);
            self.session_meta(&line);
            self.keep_line(no, line);
        } else {
            self.parsed.skip_record(
                &self.source_name,
                Some(no),
                "not a Codex rollout line (no type, payload or session id)",
            );
        }
    }
}
