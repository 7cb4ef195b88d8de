//! The fitted thread as a new session beside the original: written whole in memory first, then
//! to a file that must not exist yet, so the original (or any other session) is never touched
//! and a failed export leaves no partial file.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;
use squash_core::ConversationId;

use super::{Agent, AgentHomes, ResumeError, SessionFile};
use crate::export::{ExportFormat, ExportOptions, ExportReport};
use crate::ConversationService;

/// A session `resume` wrote.
#[derive(Clone, Debug, Serialize)]
pub struct WrittenSession {
    pub agent: Agent,
    pub path: PathBuf,
    pub session_id: String,
    pub report: ExportReport,
}

/// Exports the conversation's current thread as a new session of `original`'s agent: beside
/// the original for Claude Code, in today's folder of `$CODEX_HOME/sessions` for Codex.
pub async fn write_session(
    service: &ConversationService,
    conversation: ConversationId,
    original: &SessionFile,
    homes: &AgentHomes,
) -> Result<WrittenSession, ResumeError> {
    let session_id = uuid::Uuid::now_v7().hyphenated().to_string();
    let (format, path) = match original.agent {
        Agent::Claude => (
            ExportFormat::ClaudeCode,
            beside(&original.path).join(format!("{session_id}.jsonl")),
        ),
        // Codex finds a rollout by the id in its name anywhere under its sessions; it is put
        // where Codex itself would put one started now.
        Agent::Codex => (
            ExportFormat::Codex,
            crate::export::rollout_path(&homes.codex_home, &session_id, &chrono::Local::now()),
        ),
    };
    let options = ExportOptions {
        session_id: Some(session_id.clone()),
        cwd: original.cwd.clone(),
        ..ExportOptions::new(format)
    };
    let mut bytes = Vec::new();
    let report = service.export(conversation, &options, &mut bytes).await?;
    let write_err = |error| ResumeError::Write {
        path: path.clone(),
        error,
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(write_err)?;
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .map_err(write_err)?;
    if let Err(error) = file.write_all(&bytes).and_then(|()| file.sync_all()) {
        drop(file);
        let _ = std::fs::remove_file(&path);
        return Err(write_err(error));
    }
    Ok(WrittenSession {
        agent: original.agent,
        path,
        session_id,
        report,
    })
}

fn beside(path: &Path) -> PathBuf {
    path.parent().map(Path::to_path_buf).unwrap_or_default()
}
