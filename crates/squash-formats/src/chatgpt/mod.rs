//! The ChatGPT data export (`conversations.json` in the archive "Export data" mails): a JSON list
//! of conversations, each a tree of nodes in `mapping` (`{id, message, parent, children}`) with
//! `current_node` naming the leaf the person last saw. Edits and regenerations make a node with
//! several children.
//!
//! Every conversation becomes one conversation: the branch from the root to `current_node` is
//! its current thread and every other branch (to another leaf) a thread derived from it. Each
//! node with a visible message is one message shared by the threads that pass through it; the
//! root, hidden context and empty system nodes are kept in the conversation's metadata. The
//! records of the import report are the mapping's nodes.
//!
//! The list is read one conversation at a time, so memory is bounded by the largest
//! conversation, not by the export.

mod content;
pub(crate) mod conversation;
#[cfg(test)]
mod tests;
pub(crate) mod tree;

use std::fmt;
use std::io::{BufReader, Read};

use chrono::{DateTime, Utc};
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;

use crate::{FormatError, Parsed};

pub const META_KEY: &str = "chatgpt";

/// Reads an export from a stream; `advanced` is told how many more bytes were read.
pub fn read(
    reader: impl Read,
    source_name: &str,
    now: DateTime<Utc>,
    advanced: &mut dyn FnMut(u64),
) -> Result<Parsed, FormatError> {
    let mut parsed = Parsed::default();
    let mut index = 0usize;
    let mut each = |conv: Value| {
        conversation::read(source_name, index, conv, now, &mut parsed);
        index += 1;
    };
    each_conversation(reader, source_name, "a ChatGPT export", advanced, &mut each)?;
    Ok(parsed)
}

/// Calls `each` with every element of the JSON list `reader` holds (or with the one object it
/// holds), as it is read: memory is bounded by the largest element. `what` names the format in
/// the error for a document that is not one.
pub(crate) fn each_conversation(
    reader: impl Read,
    source_name: &str,
    what: &str,
    advanced: &mut dyn FnMut(u64),
    each: &mut dyn FnMut(Value),
) -> Result<(), FormatError> {
    let mut counting = Counting {
        inner: BufReader::with_capacity(1 << 20, reader),
        advanced,
        pending: 0,
    };
    let mut de = serde_json::Deserializer::from_reader(&mut counting);
    de.deserialize_any(Each { f: each })
        .and_then(|()| de.end())
        .map_err(|e| {
            if e.is_io() {
                FormatError::Io {
                    path: source_name.to_owned(),
                    error: e.into(),
                }
            } else {
                FormatError::invalid(source_name, format!("not {what}: {e}"))
            }
        })?;
    (counting.advanced)(counting.pending);
    Ok(())
}

/// Reads an export already parsed (tests, fuzzing).
pub fn parse_value(source_name: &str, doc: Value, now: DateTime<Utc>) -> Parsed {
    let mut parsed = Parsed::default();
    let list = match doc {
        Value::Array(list) => list,
        other => vec![other],
    };
    for (index, conv) in list.into_iter().enumerate() {
        conversation::read(source_name, index, conv, now, &mut parsed);
    }
    parsed
}

/// Whether a parsed document is a ChatGPT export: a conversation, or a list whose first element
/// is one, with its `mapping` tree.
pub fn looks_like(doc: &Value) -> bool {
    first_conversation(doc)
        .and_then(|c| c.get("mapping"))
        .is_some_and(Value::is_object)
}

/// The first conversation of an export: the first element of a list, or the document itself
/// (one conversation, as one-conversation exporters save it).
pub(crate) fn first_conversation(doc: &Value) -> Option<&Value> {
    match doc {
        Value::Array(list) => list.first(),
        other => Some(other),
    }
}

/// Whether the beginning of a document (too long to parse whole) looks like a ChatGPT export:
/// its first conversation's keys come before the long `mapping`.
pub fn head_looks_like(text: &str) -> bool {
    let t = text.trim_start();
    (t.starts_with('[') || t.starts_with('{'))
        && t.contains("\"mapping\"")
        && (t.contains("\"current_node\"") || t.contains("\"author\""))
}

/// Calls `f` with each conversation of the list (or with the one conversation of a document that
/// is an object), as it is read.
struct Each<'a> {
    f: &'a mut dyn FnMut(Value),
}

impl<'de> Visitor<'de> for Each<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of ChatGPT conversations")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(conv) = seq.next_element::<Value>()? {
            (self.f)(conv);
        }
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        let conv = Value::deserialize(de::value::MapAccessDeserializer::new(map))?;
        (self.f)(conv);
        Ok(())
    }
}

/// Reports bytes read, a megabyte at a time.
struct Counting<'a, R> {
    inner: R,
    advanced: &'a mut dyn FnMut(u64),
    pending: u64,
}

impl<R: Read> Read for Counting<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.pending += n as u64;
        if self.pending >= 1 << 20 {
            (self.advanced)(self.pending);
            self.pending = 0;
        }
        Ok(n)
    }
}
