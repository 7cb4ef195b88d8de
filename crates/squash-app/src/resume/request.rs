//! What an interface asks of a resume: which session (a file of an agent, or a conversation of
//! the store), which agent goes on with it, and how to fit it.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use squash_core::fit::{FitRequest, FitStrategy, DEFAULT_KEEP_LAST};
use squash_core::ConversationId;
use squash_llm::{ChatModel, ProviderKind};

use super::{Agent, RecallServer};

/// A resume (or a handoff, when `agent` is not the session's own agent).
#[derive(Clone, Debug)]
pub struct ResumeRequest {
    pub from: ResumeFrom,
    /// The agent that goes on with the session; `None`: the session's own agent. Without a
    /// session named, only this agent's sessions are looked at.
    pub agent: Option<Agent>,
    pub fit: ResumeFit,
    /// The agent's own arguments, after the ones that resume the session.
    pub agent_args: Vec<String>,
    /// Whether the agent is about to be started here: then it must be installed, and that is
    /// checked before anything is imported or written.
    pub start_agent: bool,
    /// The recall server the agent is started with (`squash mcp` for the resumed
    /// conversation), so it can take back what the fit shortened; `None`: without one.
    pub recall: Option<RecallServer>,
}

/// Where the session comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResumeFrom {
    /// A session file of an agent: `session` is a path or a session id of any agent; `None`,
    /// the most recent session of `cwd`.
    Session {
        session: Option<String>,
        cwd: String,
    },
    /// A conversation already in the store: it runs in its project's folder.
    Conversation(ConversationId),
}

/// How the session is fitted before the agent gets it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResumeFit {
    /// `None`: half the context window of the model the session used (else the agent's).
    pub budget: Option<u64>,
    pub keep_recent: Option<u64>,
    pub keep_last: usize,
    pub strategy: FitStrategy,
    /// Apply the best reachable when the budget cannot be met, instead of refusing.
    pub best_effort: bool,
    /// What of the session is fitted.
    pub history: ResumeHistory,
}

/// What of a session a resume fits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResumeHistory {
    /// The thread the agent continues from: after a compaction, its summary and what followed.
    #[default]
    Current,
    /// For a session that went through compactions, its whole history, the compactions undone
    /// (a session that never compacted has only its current thread).
    Whole,
}

squash_core::named_enum!(ResumeHistory {
    Current => "current",
    Whole => "whole",
});

impl Default for ResumeFit {
    fn default() -> ResumeFit {
        ResumeFit {
            budget: None,
            keep_recent: None,
            keep_last: DEFAULT_KEEP_LAST,
            strategy: FitStrategy::default(),
            best_effort: false,
            history: ResumeHistory::Current,
        }
    }
}

impl ResumeFit {
    /// The planner's request, for `budget` tokens.
    pub fn request(&self, budget: u64) -> FitRequest {
        FitRequest {
            budget,
            keep_recent: self.keep_recent,
            keep_last: self.keep_last,
            strategy: self.strategy,
        }
    }
}

/// Where the model comes from when the fit's plan asks one (an AI step); a plan without one
/// never makes one.
#[derive(Clone)]
pub enum ModelSource {
    /// Selected as `squash` selects one (configuration file, API keys, …), or the provider and
    /// model named.
    Select {
        provider: Option<ProviderKind>,
        model: Option<String>,
    },
    /// A model the interface holds already (the server's), or why it has none.
    Ready(Result<Arc<dyn ChatModel>, String>),
}

impl Default for ModelSource {
    fn default() -> ModelSource {
        ModelSource::Select {
            provider: None,
            model: None,
        }
    }
}
