//! The session file, read once: its conversations (imported from this read, not from the file
//! again), its main conversation's current thread (planned on before anything is written), the
//! model it used last and the id its agent resumes it by.

use std::collections::HashMap;

use chrono::Utc;
use squash_core::{Message, MessageId};
use squash_formats::{read, session_facts, Parsed};

use super::{Agent, ResumeError, SessionFile};

/// What the read found.
pub(super) struct ReadSession {
    pub parsed: Parsed,
    /// The main conversation's current thread, in order.
    pub thread: Vec<Message>,
    /// The model the session last used, when it says.
    pub model: Option<String>,
    /// The id the session's own agent resumes the original by.
    pub resume_id: Option<String>,
}

/// Reads `session` whole, once. A store of many sessions (opencode's) is read as a database; a
/// file is read into memory and parsed from there.
pub(super) fn read_session(session: &SessionFile) -> Result<ReadSession, ResumeError> {
    let path = &session.path;
    let unreadable = |reason: String| ResumeError::Unreadable {
        path: path.clone(),
        reason,
    };
    let format = session.agent.format();
    let name = path.display().to_string();
    let (parsed, text) = if session.session_id.is_some() || session.agent == Agent::Opencode {
        let parsed = read::read_file(path, &name, format, Utc::now(), &mut |_| {});
        (parsed.map_err(|e| unreadable(e.to_string()))?, None)
    } else {
        let bytes = std::fs::read(path).map_err(|e| unreadable(e.to_string()))?;
        let parsed = read::read_stream(bytes.as_slice(), &name, format, Utc::now(), &mut |_| {})
            .map_err(|e| unreadable(e.to_string()))?;
        (parsed, Some(String::from_utf8_lossy(&bytes).into_owned()))
    };
    let thread = main_thread(&parsed, session)
        .ok_or_else(|| unreadable("the session holds no messages".into()))?;
    Ok(ReadSession {
        model: text.as_deref().and_then(session_facts::last_model),
        resume_id: session_facts::resume_id(format, path, text.as_deref()),
        parsed,
        thread,
    })
}

/// The current thread of the session's main conversation: the one the file (or the store's
/// named session) is about, with the most messages.
fn main_thread(parsed: &Parsed, session: &SessionFile) -> Option<Vec<Message>> {
    let main = parsed
        .conversations
        .iter()
        .filter(|c| session.may_be_main(c.sidechain, &c.source_key))
        .max_by_key(|c| c.messages.len())
        .filter(|c| !c.messages.is_empty())?;
    let by_id: HashMap<MessageId, &Message> = main.messages.iter().map(|m| (m.id, m)).collect();
    Some(
        main.threads
            .iter()
            .find(|t| t.id == main.current_thread_id)
            .map(|t| {
                t.links
                    .iter()
                    .filter_map(|id| by_id.get(id).map(|m| (*m).clone()))
                    .collect()
            })
            .unwrap_or_default(),
    )
}

/// The context window the default budget is half of: the model's, when the same agent goes on
/// with the model the session names; else the target agent's own.
pub(super) fn window(model: Option<&str>, target: Agent) -> u32 {
    model
        .and_then(squash_llm::context_window_for)
        .unwrap_or_else(|| target.default_window())
}
