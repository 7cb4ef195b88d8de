//! What the agent-session writers ([`crate::claude_code::write`], [`crate::codex::write`],
//! [`crate::gemini::write`], [`crate::opencode::write`]) share: the thread they write and where
//! the agent will run it, the report of what they wrote, and JSON lines out.

use std::collections::HashMap;
use std::io::{self, Write};

use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{json, Value};
use squash_core::{Message, SquashOperation, SquashOperationId};

/// A thread to write as an agent's session.
pub struct Session<'a> {
    /// The new session's id, in the agent's own form.
    pub session_id: &'a str,
    /// The working directory the agent runs the session in.
    pub cwd: &'a str,
    /// When the session starts (the agents that record a start time write this one).
    pub created_at: DateTime<Utc>,
    /// The thread's messages, in order.
    pub messages: &'a [Message],
    pub operations: &'a HashMap<SquashOperationId, SquashOperation>,
}

/// What writing a session of JSON lines did.
#[derive(Debug, Default)]
pub struct Written {
    pub lines: usize,
    /// What the writer changed to make the thread a session the agent accepts.
    pub warnings: Vec<String>,
}

/// A session file being written: one JSON value a line, counted, and the warnings so far.
pub(crate) struct JsonLines<'a, W: Write + ?Sized> {
    out: &'a mut W,
    written: Written,
}

impl<'a, W: Write + ?Sized> JsonLines<'a, W> {
    pub(crate) fn new(out: &'a mut W) -> Self {
        JsonLines {
            out,
            written: Written::default(),
        }
    }

    pub(crate) fn line(&mut self, line: &Value) -> io::Result<()> {
        serde_json::to_writer(&mut *self.out, line)?;
        self.out.write_all(b"\n")?;
        self.written.lines += 1;
        Ok(())
    }

    pub(crate) fn warn(&mut self, warning: String) {
        self.written.warnings.push(warning);
    }

    pub(crate) fn warn_all(&mut self, warnings: impl IntoIterator<Item = String>) {
        self.written.warnings.extend(warnings);
    }

    pub(crate) fn finish(self) -> Written {
        self.written
    }
}

/// A timestamp as the agents write them: RFC 3339 in UTC, to the millisecond.
pub(crate) fn stamp(at: DateTime<Utc>) -> Value {
    json!(at.to_rfc3339_opts(SecondsFormat::Millis, true))
}

/// One entry of a session written back: a message of the thread, or a line of the source that
/// was none (kept in the import record's extras, with the `line` it stood at).
pub(crate) enum Entry<'a> {
    Message(&'a Message),
    Extra(&'a Value),
}

/// The thread's messages with the source's non-message lines back where they were: each extra
/// before the first message whose first source line (`anchor`) comes after it, the rest at the
/// end. A message of no source line (a squash result, an edit) moves no extra.
pub(crate) fn with_extras<'a>(
    messages: &'a [Message],
    extras: &'a [Value],
    anchor: impl Fn(&Message) -> Option<u64>,
) -> Vec<Entry<'a>> {
    let mut out = Vec::with_capacity(messages.len() + extras.len());
    let mut extras = extras.iter().peekable();
    for message in messages {
        if let Some(anchor) = anchor(message) {
            while let Some(extra) =
                extras.next_if(|e| e.get("line").and_then(Value::as_u64).unwrap_or(0) < anchor)
            {
                out.push(Entry::Extra(extra));
            }
        }
        out.push(Entry::Message(message));
    }
    out.extend(extras.map(Entry::Extra));
    out
}
