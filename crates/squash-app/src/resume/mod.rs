//! `resume`: an agent's session made smaller and handed back to the agent. Find the session
//! (the latest of the current directory by default), check that it can be fitted (before
//! anything is written), import it, fit it, and export the fitted thread as a **new** session
//! beside the original, which is never touched.

mod error;
mod locate;
mod precheck;
mod write;

use std::fmt;
use std::path::PathBuf;

use serde::Serialize;

pub use error::ResumeError;
pub use locate::{locate, AgentHomes};
pub use precheck::{precheck, Precheck};
pub use write::{write_session, WrittenSession};

/// The agents whose sessions `resume` reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Agent {
    Claude,
    Codex,
}

impl Agent {
    pub const ALL: [Agent; 2] = [Agent::Claude, Agent::Codex];

    pub fn as_str(self) -> &'static str {
        match self {
            Agent::Claude => "claude",
            Agent::Codex => "codex",
        }
    }

    /// The program that resumes a session, found on PATH.
    pub fn program(self) -> &'static str {
        self.as_str()
    }

    /// The session format the agent writes.
    pub fn format(self) -> squash_core::SourceFormat {
        match self {
            Agent::Claude => squash_core::SourceFormat::ClaudeCode,
            Agent::Codex => squash_core::SourceFormat::Codex,
        }
    }

    /// The arguments that resume session `id`, before the user's own.
    pub fn resume_args(self, id: &str) -> Vec<String> {
        match self {
            Agent::Claude => vec!["--resume".into(), id.into()],
            Agent::Codex => vec!["resume".into(), id.into()],
        }
    }

    /// The context window assumed when the session does not name a model Squash knows:
    /// Claude's models have 200k; Codex's GPT-5 family takes 272k of input.
    pub fn default_window(self) -> u32 {
        match self {
            Agent::Claude => 200_000,
            Agent::Codex => 272_000,
        }
    }
}

impl fmt::Display for Agent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A session file of an agent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SessionFile {
    pub agent: Agent,
    pub path: PathBuf,
    /// The working directory the session ran in, when the file says.
    pub cwd: Option<String>,
}
