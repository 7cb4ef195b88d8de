//! What the data exports of chat services (ChatGPT's and claude.ai's `conversations.json`)
//! share: a JSON list of conversations (or one conversation), read one at a time as the bytes
//! come, so memory is bounded by the largest conversation, not by the export; each
//! conversation an object whose content hash identifies it.

use std::fmt;
use std::io::{BufReader, Read};

use chrono::{DateTime, Utc};
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::{sha256_hex, FormatError, Parsed};

/// A data export format: what its errors call it, and its reader of one conversation (read
/// into `parsed`).
pub(crate) struct DataExport {
    pub what: &'static str,
    pub conversation: fn(ExportConversation<'_>, &mut Parsed),
}

/// One conversation of an export, as a format's reader gets it: a JSON object.
pub(crate) struct ExportConversation<'a> {
    pub source_name: &'a str,
    /// Its place in the export, from 0.
    pub index: usize,
    /// What its skipped records are reported under: "conversation N".
    pub what: String,
    pub fields: Map<String, Value>,
    /// Identifies its content.
    pub hash: String,
    /// The time given to what the export does not date.
    pub now: DateTime<Utc>,
}

impl DataExport {
    /// Reads an export from a stream; `advanced` is told how many more bytes were read.
    pub(crate) fn read(
        &self,
        reader: impl Read,
        source_name: &str,
        now: DateTime<Utc>,
        advanced: &mut dyn FnMut(u64),
    ) -> Result<Parsed, FormatError> {
        let mut parsed = Parsed::default();
        let mut index = 0usize;
        let mut each = |conv: Value| {
            self.one(source_name, index, conv, now, &mut parsed);
            index += 1;
        };
        each_conversation(reader, source_name, self.what, advanced, &mut each)?;
        Ok(parsed)
    }

    /// Reads an export already parsed (the tests').
    #[cfg(test)]
    pub(crate) fn parse_value(&self, source_name: &str, doc: Value, now: DateTime<Utc>) -> Parsed {
        let mut parsed = Parsed::default();
        let list = match doc {
            Value::Array(list) => list,
            other => vec![other],
        };
        for (index, conv) in list.into_iter().enumerate() {
            self.one(source_name, index, conv, now, &mut parsed);
        }
        parsed
    }

    /// Reads the `index`-th conversation; one skipped record when it is not an object.
    fn one(
        &self,
        source_name: &str,
        index: usize,
        conv: Value,
        now: DateTime<Utc>,
        parsed: &mut Parsed,
    ) {
        let what = format!("conversation {}", index + 1);
        let Value::Object(fields) = conv else {
            parsed.records.lines += 1;
            parsed.skip_record(source_name, None, format!("{what}: not a JSON object"));
            return;
        };
        let hash = sha256_hex(&serde_json::to_vec(&fields).unwrap_or_default());
        let conv = ExportConversation {
            source_name,
            index,
            what,
            fields,
            hash,
            now,
        };
        (self.conversation)(conv, parsed);
    }
}

/// The first conversation of an export: the first element of a list, or the document itself
/// (one conversation, as one-conversation exporters save it).
pub(crate) fn first_conversation(doc: &Value) -> Option<&Value> {
    match doc {
        Value::Array(list) => list.first(),
        other => Some(other),
    }
}

/// Calls `each` with every element of the JSON list `reader` holds (or with the one object it
/// holds), as it is read: memory is bounded by the largest element. `what` names the format in
/// the error for a document that is not one.
fn each_conversation(
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
