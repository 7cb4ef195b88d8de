//! The fitted thread as a new session where the target agent looks for it: written whole in
//! memory first, then to a file that must not exist yet, so the original (or any other session)
//! is never touched and a failed export leaves no partial file.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;
use squash_core::ConversationId;

use super::{Agent, AgentHomes, ResumeError, SessionFile};
use crate::export::{ExportOptions, ExportReport};
use crate::ConversationService;

/// A session `resume` wrote.
#[derive(Clone, Debug, Serialize)]
pub struct WrittenSession {
    pub agent: Agent,
    pub path: PathBuf,
    pub session_id: String,
    pub report: ExportReport,
    /// opencode keeps sessions in its store: the command that imports the written document
    /// into it, run before the agent starts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub import_command: Option<Vec<String>>,
}

/// Exports the conversation's current thread as a new session of `target` (the original's
/// agent, or another one: a handoff) that runs in `cwd`: beside the original for Claude Code (in
/// the project folder of its working directory when the original is another agent's, or there
/// is no original file: a conversation of the store), in today's folder of
/// `$CODEX_HOME/sessions` for Codex, in the project's `chats` folder for Gemini CLI, and as a
/// document for `opencode import` (in the system's temporary folder) for opencode.
pub(super) async fn write_session(
    service: &ConversationService,
    conversation: ConversationId,
    original: Option<&SessionFile>,
    cwd: Option<String>,
    target: Agent,
    homes: &AgentHomes,
) -> Result<WrittenSession, ResumeError> {
    let now = chrono::Utc::now();
    let session_id = match target {
        Agent::Opencode => squash_formats::opencode::new_session_id(now),
        _ => uuid::Uuid::now_v7().hyphenated().to_string(),
    };
    let path = target_path(original, target, homes, &session_id, cwd.as_deref())?;
    let model = match (target, cwd.as_deref()) {
        (Agent::Opencode, Some(cwd)) => homes.opencode_model(cwd),
        _ => None,
    };
    let options = ExportOptions {
        session_id: Some(session_id.clone()),
        cwd,
        model,
        ..ExportOptions::new(target.export_format())
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
    let import_command = (target == Agent::Opencode).then(|| {
        vec![
            target.program().to_owned(),
            "import".to_owned(),
            path.display().to_string(),
        ]
    });
    Ok(WrittenSession {
        agent: target,
        path,
        session_id,
        report,
        import_command,
    })
}

fn target_path(
    original: Option<&SessionFile>,
    target: Agent,
    homes: &AgentHomes,
    session_id: &str,
    cwd: Option<&str>,
) -> Result<PathBuf, ResumeError> {
    let cwd_of = || {
        cwd.ok_or_else(|| match original {
            Some(original) => ResumeError::Unreadable {
                path: original.path.clone(),
                reason: format!(
                    "the session names no working directory, which {target} needs to find it"
                ),
            },
            None => ResumeError::NoWorkingDirectory { agent: target },
        })
    };
    Ok(match (target, original) {
        (Agent::Claude, Some(original)) if original.agent == Agent::Claude => {
            beside(&original.path).join(format!("{session_id}.jsonl"))
        }
        (Agent::Claude, _) => crate::export::project_dir(&homes.claude_config, cwd_of()?)
            .join(format!("{session_id}.jsonl")),
        // Codex finds a rollout by the id in its name anywhere under its sessions; it is put
        // where Codex itself would put one started now.
        (Agent::Codex, _) => {
            crate::export::rollout_path(&homes.codex_home, session_id, &chrono::Local::now())
        }
        (Agent::Gemini, _) => {
            let dir = homes
                .gemini_project_dir_for_new(cwd_of()?)
                .map_err(|error| ResumeError::Write {
                    path: homes.gemini_home.clone(),
                    error,
                })?;
            squash_formats::gemini::session_path(&dir, session_id, &chrono::Utc::now())
        }
        (Agent::Opencode, _) => std::env::temp_dir()
            .join("squash-resume")
            .join(format!("{session_id}.json")),
    })
}

fn beside(path: &Path) -> PathBuf {
    path.parent().map(Path::to_path_buf).unwrap_or_default()
}
