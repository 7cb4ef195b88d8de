//! The second pass of a streamed read: the messages of a conversation whose content was not
//! kept, made in chunks by reading their lines again and converting them as the first pass did.

use std::collections::HashMap;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use chrono::{DateTime, Utc};
use serde_json::Value;
use squash_core::{ConversationId, Message, MessageId, Role};

use super::lines::{body_of, Body, LineAt, LineContent};
use super::messages::{message_of, Plan};
use crate::anthropic_json::ToolNames;
use crate::{ContentCounts, FormatError};

/// The file a streamed read came from, and the tool names it learnt (a result names its
/// call's tool). The names are shared by every conversation of the file (a copy each would
/// cost as much as the conversation for a session of many sub-agent runs); converting a line
/// again only inserts names that are there already.
#[derive(Debug)]
pub struct LineSource {
    path: PathBuf,
    source_name: String,
    names: Mutex<ToolNames>,
}

impl LineSource {
    pub(super) fn new(path: PathBuf, source_name: String) -> LineSource {
        LineSource {
            path,
            source_name,
            names: Mutex::new(ToolNames::new()),
        }
    }

    pub(super) fn set_names(&mut self, names: ToolNames) {
        self.names = Mutex::new(names);
    }

    fn open(&self) -> Result<File, FormatError> {
        File::open(&self.path).map_err(|error| FormatError::Io {
            path: self.source_name.clone(),
            error,
        })
    }

    /// The line at `at` as the file holds it, read again (at finish, for a message line no
    /// thread took: it is kept as it was written).
    pub(super) fn read_raw(&self, at: LineAt) -> Result<Value, FormatError> {
        let mut buf = Vec::new();
        self.read_value(&self.open()?, at, &mut buf)
    }

    fn changed(&self, at: LineAt) -> FormatError {
        FormatError::Changed {
            source_name: self.source_name.clone(),
            line: at.no,
        }
    }

    /// The JSON of the line at `at`, read again; fails if its bytes changed.
    fn read_value(&self, file: &File, at: LineAt, buf: &mut Vec<u8>) -> Result<Value, FormatError> {
        let changed = || self.changed(at);
        buf.resize(at.len as usize, 0);
        match file.read_exact_at(buf, at.offset) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Err(changed()),
            Err(error) => {
                return Err(FormatError::Io {
                    path: self.source_name.clone(),
                    error,
                })
            }
        }
        if crc32fast::hash(buf) != at.crc {
            return Err(changed());
        }
        serde_json::from_slice(buf).map_err(|_| changed())
    }

    /// The uuid and content of the message line at `at`, read again.
    fn read_line(
        &self,
        file: &File,
        at: LineAt,
        buf: &mut Vec<u8>,
    ) -> Result<(Option<String>, LineContent), FormatError> {
        let changed = || self.changed(at);
        let value = self.read_value(file, at, buf)?;
        let uuid = value.get("uuid").and_then(Value::as_str).map(str::to_owned);
        let mut names = self.names.lock().unwrap_or_else(PoisonError::into_inner);
        match body_of(at, value, &mut names) {
            Body::Message(line) => match line.content {
                Some(content) => Ok((uuid, *content)),
                None => Err(changed()),
            },
            _ => Err(changed()),
        }
    }
}

/// One message to make: its id, time and the lines that hold its content.
#[derive(Clone, Debug)]
pub struct MessagePlan {
    pub id: MessageId,
    pub role: Role,
    pub created_at: DateTime<Utc>,
    /// The first is the line whose uuid is the message's source identity.
    lines: Vec<LineAt>,
}

impl MessagePlan {
    pub(super) fn of(plan: Plan) -> MessagePlan {
        let mut lines: Vec<LineAt> = Vec::with_capacity(plan.lines.len());
        lines.extend(plan.lines.iter().map(|l| l.at));
        MessagePlan {
            id: plan.id,
            role: plan.role,
            created_at: plan.created_at,
            lines,
        }
    }

    /// Bytes of source this message is made of.
    pub fn bytes(&self) -> u64 {
        self.lines.iter().map(|l| u64::from(l.len)).sum()
    }
}

/// The messages of a conversation read in streaming mode: made on demand, in chunks.
#[derive(Clone, Debug)]
pub struct DeferredMessages {
    source: Arc<LineSource>,
    conversation_id: ConversationId,
    plans: Vec<MessagePlan>,
    counts: ContentCounts,
}

impl DeferredMessages {
    /// `counts`: the figures of the content the plans will make.
    pub(super) fn new(
        source: Arc<LineSource>,
        conversation_id: ConversationId,
        plans: Vec<MessagePlan>,
        counts: ContentCounts,
    ) -> DeferredMessages {
        DeferredMessages {
            source,
            conversation_id,
            plans,
            counts,
        }
    }

    /// The figures of the messages' content, known before they are made.
    pub fn counts(&self) -> ContentCounts {
        self.counts
    }

    /// The messages to come, in creation order.
    pub fn plans(&self) -> &[MessagePlan] {
        &self.plans
    }

    pub fn len(&self) -> usize {
        self.plans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.plans.is_empty()
    }

    /// Those of these messages whose ids are among `ids`, in the order of `ids` (a thread of
    /// the conversation), made as these are. Their content counts are not known before they
    /// are made (the default).
    pub fn in_order(&self, ids: &[MessageId]) -> DeferredMessages {
        let at: HashMap<MessageId, usize> = self
            .plans
            .iter()
            .enumerate()
            .map(|(k, p)| (p.id, k))
            .collect();
        let plans = ids
            .iter()
            .filter_map(|id| at.get(id).map(|&k| self.plans[k].clone()))
            .collect();
        DeferredMessages {
            source: self.source.clone(),
            conversation_id: self.conversation_id,
            plans,
            counts: ContentCounts::default(),
        }
    }

    /// The messages in order, in chunks of at most `max_messages` messages or about
    /// `max_bytes` of source each.
    pub fn chunks(&self, max_messages: usize, max_bytes: u64) -> Chunks<'_> {
        Chunks {
            deferred: self,
            file: None,
            next: 0,
            max_messages: max_messages.max(1),
            max_bytes,
            buf: Vec::new(),
        }
    }

    /// The chunks of [`Self::chunks`] read on a thread of their own, one ahead of `take`,
    /// which gets each in order and says whether it wants more; reading stops after an error.
    /// What is done with a chunk (summarized, made into rows) then overlaps the reading and
    /// parsing of the next, which alone keeps a core busy on a large session.
    pub fn read_ahead(
        &self,
        max_messages: usize,
        max_bytes: u64,
        mut take: impl FnMut(Result<Vec<Message>, FormatError>) -> bool,
    ) {
        std::thread::scope(|scope| {
            // A rendezvous: the reader holds the one chunk it makes ahead until it is taken,
            // so no more than two chunks are ever held.
            let (tx, rx) = std::sync::mpsc::sync_channel(0);
            scope.spawn(move || {
                for chunk in self.chunks(max_messages, max_bytes) {
                    // The taker stopped listening.
                    if tx.send(chunk).is_err() {
                        break;
                    }
                }
            });
            for chunk in rx {
                if !take(chunk) {
                    break;
                }
            }
        });
    }
}

/// Iterator over the chunks of [`DeferredMessages::chunks`]; stops after the first error.
pub struct Chunks<'a> {
    deferred: &'a DeferredMessages,
    file: Option<File>,
    next: usize,
    max_messages: usize,
    max_bytes: u64,
    buf: Vec<u8>,
}

impl Chunks<'_> {
    fn message(&mut self, file: &File, plan: &MessagePlan) -> Result<Message, FormatError> {
        let mut contents = Vec::with_capacity(plan.lines.len());
        let mut source_uuid = None;
        for (k, &at) in plan.lines.iter().enumerate() {
            let (uuid, content) = self.deferred.source.read_line(file, at, &mut self.buf)?;
            if k == 0 {
                source_uuid = uuid;
            }
            contents.push(content);
        }
        Ok(message_of(
            self.deferred.conversation_id,
            plan.id,
            plan.role,
            plan.created_at,
            source_uuid.as_deref(),
            contents,
        ))
    }

    fn chunk(&mut self) -> Result<Vec<Message>, FormatError> {
        let file = match self.file.take() {
            Some(f) => f,
            None => self.deferred.source.open()?,
        };
        let plans = &self.deferred.plans;
        let mut out = Vec::new();
        let mut bytes = 0u64;
        while self.next < plans.len() && out.len() < self.max_messages && bytes < self.max_bytes {
            let plan = &plans[self.next];
            bytes += plan.bytes();
            out.push(self.message(&file, plan)?);
            self.next += 1;
        }
        self.file = Some(file);
        Ok(out)
    }
}

impl Iterator for Chunks<'_> {
    type Item = Result<Vec<Message>, FormatError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.next >= self.deferred.plans.len() {
            return None;
        }
        let chunk = self.chunk();
        if chunk.is_err() {
            self.next = self.deferred.plans.len();
        }
        Some(chunk)
    }
}
