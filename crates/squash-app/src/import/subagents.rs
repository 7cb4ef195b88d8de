//! Claude Code sub-agent runs kept in files of their own (`<session>/subagents/agent-*.jsonl`):
//! found beside their session, read as runs of it (named after the call that started them and
//! tied to it), and reported under it.

use std::path::{Path, PathBuf};

use chrono::Utc;
use squash_core::SourceFormat;
use squash_formats::claude_code::ParentSession;
use squash_formats::read;

use super::service::ImportOptions;
use super::summary::{FileFailure, FileReport, ImportSummary};
use super::{ImportError, ImportedConversation, Parsed};
use crate::conversations::ConversationService;

impl ConversationService {
    /// A file of sub-agent runs beside a Claude Code session, read as runs of that session: each
    /// named after the call that started it and tied to it. A file that cannot be read is
    /// reported, and the session stays imported.
    pub(super) async fn import_subagents(
        &self,
        path: &Path,
        parent: ParentSession,
        options: &ImportOptions,
    ) -> Result<ImportSummary, ImportError> {
        let name = path.display().to_string();
        let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        let owned = path.to_path_buf();
        let source_name = name.clone();
        let parsed = tokio::task::spawn_blocking(move || {
            read::read_claude_subagents(&owned, &source_name, parent, Utc::now())
        })
        .await
        .map_err(|e| ImportError::invalid(&name, format!("the parser stopped: {e}")))?;
        let parsed = match parsed {
            Ok(p) => p,
            Err(e) => {
                return Ok(ImportSummary {
                    failed: vec![FileFailure {
                        file: name,
                        error: e.to_string(),
                    }],
                    ..ImportSummary::default()
                })
            }
        };
        let records = parsed.records;
        let mut summary = self.store_parsed(parsed, options).await?;
        summary.files = 1;
        summary.bytes = bytes;
        summary.file_reports.push(FileReport {
            file: name,
            format: SourceFormat::ClaudeCode,
            bytes,
            records,
        });
        Ok(summary)
    }
}

/// The call a Claude Code sub-agent run was started by, as its reader tied it.
pub(super) fn started_by(conv: &ImportedConversation) -> Option<String> {
    let meta = conv.metadata.as_ref()?;
    let call = meta
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
