//! Claude Code sub-agent runs kept in files of their own (`<session>/subagents/agent-*.jsonl`):
//! how they are found beside their session, what of the session their reader needs (to name
//! each run after the call that started it and tie it to it), and which call that was.

use std::path::{Path, PathBuf};

use squash_formats::claude_code::ParentSession;

use super::{ImportedConversation, Parsed};

/// The call a Claude Code sub-agent run was started by, as its reader tied it.
pub(super) fn started_by(conv: &ImportedConversation) -> Option<String> {
    started_by_call(conv.metadata.as_ref()?)
}

/// [`started_by`] from a run's import metadata, as stored with its import record.
pub(crate) fn started_by_call(metadata: &serde_json::Value) -> Option<String> {
    let call = metadata
        .get("claude_code")?
        .get("sidechain")?
        .get("parent_tool_use_id")?;
    call.as_str().map(str::to_owned)
}

/// The name and `Task` calls of the main conversation a Claude Code read made, for its
/// sub-agent files.
pub(super) fn parent_session(parsed: &Parsed) -> Option<ParentSession> {
    let main = parsed.conversations.iter().find(|c| !c.sidechain)?;
    Some(ParentSession {
        display_name: main.display_name.clone(),
        tasks: main.task_calls.clone(),
    })
}

/// Claude Code 2.x keeps a session's sub-agent runs in `<session>/subagents/agent-*.jsonl`
/// beside `<session>.jsonl`; copies of sessions often have `subagents/` right beside the file.
/// A file there is the session's when its first line names the session's id.
pub(super) fn subagent_files(session: &Path, session_id: &str) -> Vec<PathBuf> {
    let beside = session.parent().map(|d| d.join("subagents"));
    let own = session.with_extension("").join("subagents");
    let mut files: Vec<PathBuf> = [Some(own), beside]
        .into_iter()
        .flatten()
        .flat_map(|dir| std::fs::read_dir(dir).into_iter().flatten().flatten())
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.starts_with("agent-") && name.ends_with(".jsonl")
        })
        .filter(|p| first_session_id(p).as_deref() == Some(session_id))
        .collect();
    files.sort();
    files.dedup();
    files
}

/// The `sessionId` the first lines of a Claude Code file name (its first lines may be
/// snapshots or summaries, which name none).
pub(super) fn first_session_id(path: &Path) -> Option<String> {
    use std::io::BufRead;
    let file = std::fs::File::open(path).ok()?;
    std::io::BufReader::new(file)
        .lines()
        .take(64)
        .map_while(Result::ok)
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(&l).ok())
        .find_map(|v| v.get("sessionId")?.as_str().map(str::to_owned))
}

/// Whether a file sits in a `subagents` folder (its session reads it).
pub(super) fn is_subagent_file(file: &Path) -> bool {
    file.parent()
        .and_then(|d| d.file_name())
        .is_some_and(|n| n == "subagents")
        && file
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("agent-"))
}
