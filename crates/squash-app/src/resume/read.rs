//! The session file, read once: its conversations (imported from this read, not from the file
//! again), its main conversation's current thread (planned on before anything is written), the
//! model it used last and the id its agent resumes it by.

use std::collections::HashMap;

use chrono::Utc;
use squash_core::fit::{MessageSummary, Summarizer};
use squash_core::{Message, MessageId, SourceFormat};
use squash_formats::claude_code::DeferredMessages;
use squash_formats::{read, session_facts, Parsed};

use super::{Agent, ResumeError, ResumeHistory, SessionFile};

/// What the read found.
pub(super) struct ReadSession {
    pub parsed: Parsed,
    /// The main conversation's current thread, in order.
    pub thread: ThreadMessages,
    /// The model the session last used, when it says.
    pub model: Option<String>,
    /// The id the session's own agent resumes the original by.
    pub resume_id: Option<String>,
}

/// The messages of the main conversation's current thread.
pub(super) enum ThreadMessages {
    /// Read with the file (a format read whole).
    Read(Vec<Message>),
    /// Made from the file chunk by chunk (a Claude Code session, read in streaming mode: of
    /// any size, never held whole).
    Deferred(DeferredMessages),
}

/// Messages made at a time from a streamed session, and bytes of source: what bounds the
/// plan's memory besides the summaries.
const CHUNK_MESSAGES: usize = 1_000;
const CHUNK_BYTES: u64 = 4 << 20;

impl ThreadMessages {
    /// The thread's ids, in order, and its summaries, computed on `workers` threads.
    pub fn summaries(
        &self,
        session: &SessionFile,
        workers: usize,
    ) -> Result<(Vec<MessageId>, Vec<MessageSummary>), ResumeError> {
        let mut summarizer = Summarizer::new();
        let mut ids = Vec::new();
        let mut push = |messages: &[Message]| {
            ids.extend(messages.iter().map(|m| m.id));
            summarizer.push_chunk(messages, None, workers);
        };
        match self {
            ThreadMessages::Read(messages) => push(messages),
            ThreadMessages::Deferred(deferred) => {
                // The next chunk is parsed while this one is summarized.
                let mut failed = None;
                deferred.read_ahead(CHUNK_MESSAGES, CHUNK_BYTES, |chunk| match chunk {
                    Ok(chunk) => {
                        push(&chunk);
                        true
                    }
                    Err(e) => {
                        failed = Some(e);
                        false
                    }
                });
                if let Some(e) = failed {
                    return Err(ResumeError::Unreadable {
                        path: session.path.clone(),
                        reason: e.to_string(),
                    });
                }
            }
        }
        Ok((ids, summarizer.finish()))
    }
}

/// Reads `session` once. A store of many sessions (opencode's) is read as a database; a Claude
/// Code session in streaming mode (its structure now, its messages when they are planned on and
/// stored); another file into memory and parsed from there.
pub(super) fn read_session(
    session: &SessionFile,
    history: ResumeHistory,
) -> Result<ReadSession, ResumeError> {
    let path = &session.path;
    let unreadable = |reason: String| ResumeError::Unreadable {
        path: path.clone(),
        reason,
    };
    let format = session.agent.format();
    let name = path.display().to_string();
    let (parsed, model, text) = if session.session_id.is_some() || session.agent == Agent::Opencode
    {
        let parsed = read::read_file(path, &name, format, Utc::now(), &mut |_| {});
        (parsed.map_err(|e| unreadable(e.to_string()))?, None, None)
    } else if format == SourceFormat::ClaudeCode {
        let parsed = read::read_file_streaming(path, &name, format, Utc::now(), &mut |_| {})
            .map_err(|e| unreadable(e.to_string()))?;
        let model =
            session_facts::last_model_in_file(path).map_err(|e| unreadable(e.to_string()))?;
        (parsed, model, None)
    } else {
        let bytes = std::fs::read(path).map_err(|e| unreadable(e.to_string()))?;
        let parsed = read::read_stream(bytes.as_slice(), &name, format, Utc::now(), &mut |_| {})
            .map_err(|e| unreadable(e.to_string()))?;
        let text = String::from_utf8_lossy(&bytes).into_owned();
        (parsed, session_facts::last_model(&text), Some(text))
    };
    let thread = main_thread(&parsed, session, history)
        .ok_or_else(|| unreadable("the session holds no messages".into()))?;
    Ok(ReadSession {
        model,
        resume_id: session_facts::resume_id(format, path, text.as_deref()),
        parsed,
        thread,
    })
}

/// The current thread of the session's main conversation (the one the file, or the store's
/// named session, is about, with the most messages) — or its whole history, when asked and it
/// has one.
fn main_thread(
    parsed: &Parsed,
    session: &SessionFile,
    history: ResumeHistory,
) -> Option<ThreadMessages> {
    let main = parsed
        .conversations
        .iter()
        .filter(|c| session.may_be_main(c.sidechain, &c.source_key))
        .max_by_key(|c| message_count(c))
        .filter(|c| message_count(c) > 0)?;
    let whole = (history == ResumeHistory::Whole)
        .then(|| main.threads.iter().find(|t| t.origin.is_whole_history()))
        .flatten();
    let links: &[MessageId] = whole
        .or_else(|| main.threads.iter().find(|t| t.id == main.current_thread_id))
        .map_or(&[], |t| t.links.as_slice());
    if let Some(deferred) = &main.deferred {
        return Some(ThreadMessages::Deferred(deferred.in_order(links)));
    }
    let by_id: HashMap<MessageId, &Message> = main.messages.iter().map(|m| (m.id, m)).collect();
    Some(ThreadMessages::Read(
        links
            .iter()
            .filter_map(|id| by_id.get(id).map(|m| (*m).clone()))
            .collect(),
    ))
}

/// Messages of a conversation as read: made already, or to be made.
fn message_count(c: &squash_formats::ImportedConversation) -> usize {
    c.deferred
        .as_ref()
        .map_or(c.messages.len(), DeferredMessages::len)
}

/// The context window the default budget is half of: the model's, when the same agent goes on
/// with the model the session names; else the target agent's own.
pub(super) fn window(model: Option<&str>, target: Agent) -> u32 {
    model
        .and_then(squash_llm::context_window_for)
        .unwrap_or_else(|| target.default_window())
}
