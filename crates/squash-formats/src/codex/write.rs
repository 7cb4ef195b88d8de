//! A Codex rollout that `codex resume <id>` (and `codex exec resume <id>`) accepts: a
//! `session_meta` line, then one `response_item` line per item the model sees, each wrapped as
//! `{timestamp, type, payload}` as the CLI (0.171) writes them. Codex finds a rollout by the id
//! in its file name, anywhere under `$CODEX_HOME/sessions` ([`rollout_path`]).
//!
//! The session description comes from the original rollout's `session_meta` (originator, CLI
//! version, source, provider, base instructions), under the new id, time and working directory.
//! Messages imported from Codex and unchanged are written back as the items they came from; a
//! squash result is ordinary user text; other messages are written as fresh items (see
//! [`super::restore`]). Calls and outputs are paired as the API demands (see [`super::pairing`])
//! and the report says what that changed. Of the lines that were no items, the ones Codex reads
//! back on resume — `turn_context` and `world_state` (what context the model was given, so it is
//! not given again) — are written back in place; events and token counts are not, since they
//! describe the original run (its answers and outputs, squashed or not).

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use chrono::{DateTime, TimeZone};
use serde_json::{json, Map, Value};
use squash_core::{render, ImportRecord, Message, Role};

use super::legacy::is_session_object;
use super::pairing::{missing_output, Pairing, Pending};
use super::restore::{self, Part};
use super::META_KEY;
use crate::session::{stamp, with_extras, Entry, JsonLines, Session, Written};

/// The version written when the conversation has no rollout's `session_meta` naming one.
pub const FALLBACK_CLI_VERSION: &str = "0.171.0";
/// The originator of the interactive CLI, written when no original names one.
pub const FALLBACK_ORIGINATOR: &str = "codex_cli_rs";

/// What of the original `session_meta` describes the session rather than the run: the rest (its
/// id, time, cwd, the history store it was paged into) is the new session's own or left out.
const KEPT_META: [&str; 7] = [
    "originator",
    "cli_version",
    "source",
    "model_provider",
    "base_instructions",
    "instructions",
    "git",
];

/// Lines that were no items and that Codex reads back on resume.
const KEPT_LINES: [&str; 3] = ["turn_context", "world_state", "response_item"];

/// The `codex.extras` of the first import record that has them.
pub fn extras_of(records: &[ImportRecord]) -> Vec<Value> {
    crate::conversation::extras_in(records, META_KEY)
}

/// Where Codex keeps a rollout started at `at` (local time, as the CLI names them):
/// `<codex home>/sessions/YYYY/MM/DD/rollout-YYYY-MM-DDThh-mm-ss-<id>.jsonl`, where the home is
/// `$CODEX_HOME` or `~/.codex`.
pub fn rollout_path<Tz: TimeZone>(codex_home: &Path, session_id: &str, at: &DateTime<Tz>) -> PathBuf
where
    Tz::Offset: std::fmt::Display,
{
    codex_home
        .join("sessions")
        .join(at.format("%Y").to_string())
        .join(at.format("%m").to_string())
        .join(at.format("%d").to_string())
        .join(format!(
            "rollout-{}-{session_id}.jsonl",
            at.format("%Y-%m-%dT%H-%M-%S")
        ))
}

struct Writer<'a, W: Write + ?Sized> {
    out: JsonLines<'a, W>,
    session: &'a Session<'a>,
    pairing: Pairing,
}

impl<W: Write + ?Sized> Writer<'_, W> {
    /// A `response_item` line, checked for pairing first. `envelope` holds what the original
    /// line had besides its payload; its sequence numbers (`ordinal`, `metadata`) belonged to
    /// the original history and are left out.
    fn item(&mut self, mut payload: Value, at: Value, envelope: Option<&Value>) -> io::Result<()> {
        let fix = self.pairing.item(&mut payload);
        self.out.warn_all(fix.warnings);
        self.answer(&fix.unanswered, &at)?;
        let mut line = match envelope {
            Some(Value::Object(e)) => e.clone(),
            _ => Map::new(),
        };
        line.remove("ordinal");
        line.remove("metadata");
        line.insert("timestamp".into(), at);
        line.insert("type".into(), json!("response_item"));
        line.insert("payload".into(), payload);
        self.out.line(&Value::Object(line))
    }

    /// Outputs for calls that have none.
    fn answer(&mut self, calls: &[Pending], at: &Value) -> io::Result<()> {
        for call in calls {
            let line = json!({"timestamp": at, "type": "response_item",
                              "payload": missing_output(call)});
            self.out.line(&line)?;
        }
        Ok(())
    }

    fn fresh(
        &mut self,
        role: Role,
        items: &[squash_core::ContentItem],
        at: &Value,
    ) -> io::Result<()> {
        for payload in restore::fresh(role, items) {
            self.item(payload, at.clone(), None)?;
        }
        Ok(())
    }

    fn message(&mut self, message: &Message) -> io::Result<()> {
        let at = stamp(message.created_at);
        if crate::is_squash_result(message, self.session.operations) {
            let text = render::message_text(message);
            let item = restore::message(Role::User, vec![restore::text(&text, false)]);
            return self.item(item, at, None);
        }
        if message.squash_operation_id.is_none() {
            if let Some(parts) = restore::parts(message) {
                return self.restored(message, &parts);
            }
        }
        // An edit or a message from elsewhere.
        self.fresh(message.role, &message.content, &at)
    }

    /// An unchanged message, line by line.
    fn restored(&mut self, message: &Message, parts: &[Part<'_>]) -> io::Result<()> {
        // A prompt read both from an event and from an item: the item's line holds it whole.
        let copied = parts
            .iter()
            .any(|p| p.items.is_empty() && restore::is_item_line(p.meta));
        for part in parts {
            let at = part
                .meta
                .get("timestamp")
                .cloned()
                .unwrap_or_else(|| stamp(message.created_at));
            if !restore::is_item_line(part.meta) {
                if !copied {
                    self.fresh(message.role, part.items, &at)?;
                }
                continue;
            }
            match restore::restore(part.meta, part.items) {
                Some(payload) => self.item(payload, at, part.meta.get("envelope"))?,
                None => self.fresh(message.role, part.items, &at)?,
            }
        }
        Ok(())
    }

    /// A line that was no item, if Codex reads it back.
    fn extra(&mut self, extra: &Value) -> io::Result<()> {
        let Some(Value::Object(line)) = extra.get("json") else {
            return Ok(());
        };
        let kind = line.get("type").and_then(Value::as_str).unwrap_or("");
        if !KEPT_LINES.contains(&kind) {
            return Ok(());
        }
        let mut line = line.clone();
        line.remove("ordinal");
        line.remove("metadata");
        self.out.line(&Value::Object(line))
    }
}

/// The original rollout's session description: a `session_meta` payload, or the session object
/// a legacy rollout starts with.
fn original_meta(extras: &[Value]) -> Option<&Map<String, Value>> {
    extras
        .iter()
        .filter_map(|e| e.get("json")?.as_object())
        .find_map(|line| {
            if line.get("type").and_then(Value::as_str) == Some("session_meta") {
                line.get("payload")?.as_object()
            } else {
                is_session_object(line).then_some(line)
            }
        })
}

fn session_meta(session: &Session<'_>, extras: &[Value]) -> Value {
    let original = original_meta(extras);
    let mut payload = Map::new();
    if let Some(original) = original {
        for key in KEPT_META {
            if let Some(value) = original.get(key) {
                payload.insert(key.into(), value.clone());
            }
        }
        // Current CLIs name the session twice.
        if original.contains_key("session_id") {
            payload.insert("session_id".into(), json!(session.session_id));
        }
    }
    let fallbacks = [
        ("originator", FALLBACK_ORIGINATOR),
        ("cli_version", FALLBACK_CLI_VERSION),
        ("source", "cli"),
    ];
    for (key, value) in fallbacks {
        payload.entry(key).or_insert_with(|| json!(value));
    }
    let at = stamp(session.created_at);
    payload.insert("id".into(), json!(session.session_id));
    payload.insert("timestamp".into(), at.clone());
    payload.insert("cwd".into(), json!(session.cwd));
    json!({"timestamp": at, "type": "session_meta", "payload": payload})
}

/// Writes the rollout (its `session_meta` starting at `session.created_at`), with the
/// conversation's non-message lines `extras` (see [`extras_of`]) that Codex reads back in their
/// places.
pub fn write<W: Write + ?Sized>(
    session: &Session<'_>,
    extras: &[Value],
    out: &mut W,
) -> io::Result<Written> {
    let mut w = Writer {
        out: JsonLines::new(out),
        session,
        pairing: Pairing::default(),
    };
    w.out.line(&session_meta(session, extras))?;
    let anchor = |m: &Message| {
        restore::parts(m).and_then(|p| {
            p.first()
                .and_then(|p| p.meta.get("line").and_then(Value::as_u64))
        })
    };
    for entry in with_extras(session.messages, extras, anchor) {
        match entry {
            Entry::Message(message) => w.message(message)?,
            Entry::Extra(extra) => w.extra(extra)?,
        }
    }
    let unanswered = w.pairing.finish();
    for (id, _) in &unanswered {
        w.out.warn(format!(
            "tool call {id} has no output at the end of the session; an output saying so was written"
        ));
    }
    let at = stamp(session.created_at);
    w.answer(&unanswered, &at)?;
    Ok(w.out.finish())
}
