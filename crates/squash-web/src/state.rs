//! What every handler shares: the services, the model (if any), pending AI previews and the
//! security settings.

use std::sync::Arc;

use squash_app::resume::{AgentHomes, RecallServer};
use squash_app::{ChatOptions, ConversationService, SquashOptions};
use squash_llm::{CancellationToken, ChatModel};

use crate::error::ApiError;
use crate::previews::Previews;
use crate::security::token::Security;

/// The model AI squashes and chat turns use, or why there is none.
#[derive(Clone)]
pub enum ModelChoice {
    Ready(Arc<dyn ChatModel>),
    /// No model: manual squash, undo and everything else still work; AI actions answer with a
    /// readable `not_configured` error carrying this reason.
    Missing(String),
}

/// The shared state behind the router. Cheap to clone.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    service: ConversationService,
    model: ModelChoice,
    squash_options: SquashOptions,
    chat_options: ChatOptions,
    previews: Previews,
    security: Security,
    default_project: String,
    /// Where the agents keep their sessions: a resume writes the new session there.
    agent_homes: AgentHomes,
    /// The recall server a resumed agent is started with (`squash mcp`), when this server
    /// knows its program and database.
    recall_server: Option<RecallServer>,
    /// Thread reads (pages, the page fragments, the JSON) in flight at once. Each holds a
    /// page of parsed messages and its rendering; past a few per core, more at once only adds
    /// memory and switching, not throughput, so the rest wait their turn.
    reads: tokio::sync::Semaphore,
    /// Cancelled when the server begins to shut down: endless responses (live-update streams)
    /// end then, so that the graceful shutdown does not wait for the browsers to leave.
    closing: CancellationToken,
}

impl AppState {
    /// State with no model, no token and the process's working directory as the default
    /// project of new conversations.
    pub fn new(service: ConversationService) -> AppState {
        let default_project = std::env::current_dir()
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_else(|_| "/".to_owned());
        AppState {
            inner: Arc::new(Inner {
                service,
                model: ModelChoice::Missing(
                    "no model is configured; AI squash and chat need one".into(),
                ),
                squash_options: SquashOptions::default(),
                chat_options: ChatOptions::default(),
                previews: Previews::default(),
                security: Security::default(),
                default_project,
                agent_homes: AgentHomes::from_env(),
                recall_server: None,
                reads: tokio::sync::Semaphore::new(concurrent_reads()),
                closing: CancellationToken::new(),
            }),
        }
    }

    fn edit(self, f: impl FnOnce(&mut Inner)) -> AppState {
        let mut inner = match Arc::try_unwrap(self.inner) {
            Ok(inner) => inner,
            // Only reachable if a builder method is called on a shared state; rebuild a copy.
            Err(shared) => Inner {
                service: shared.service.clone(),
                model: shared.model.clone(),
                squash_options: shared.squash_options.clone(),
                chat_options: shared.chat_options.clone(),
                previews: Previews::default(),
                security: shared.security.clone(),
                default_project: shared.default_project.clone(),
                agent_homes: shared.agent_homes.clone(),
                recall_server: shared.recall_server.clone(),
                reads: tokio::sync::Semaphore::new(concurrent_reads()),
                closing: shared.closing.clone(),
            },
        };
        f(&mut inner);
        AppState {
            inner: Arc::new(inner),
        }
    }

    pub fn with_model(self, model: Arc<dyn ChatModel>) -> AppState {
        self.edit(|i| i.model = ModelChoice::Ready(model))
    }

    /// No model, with the reason AI actions report.
    pub fn without_model(self, reason: impl Into<String>) -> AppState {
        let reason = reason.into();
        self.edit(|i| i.model = ModelChoice::Missing(reason))
    }

    pub fn with_squash_options(self, options: SquashOptions) -> AppState {
        self.edit(|i| i.squash_options = options)
    }

    pub fn with_chat_options(self, options: ChatOptions) -> AppState {
        self.edit(|i| i.chat_options = options)
    }

    /// Requires `token` on every request (see [`crate::security`]).
    pub fn with_token(self, token: Option<String>) -> AppState {
        self.edit(|i| i.security = Security::new(token))
    }

    pub fn with_default_project(self, path: impl Into<String>) -> AppState {
        let path = path.into();
        self.edit(|i| i.default_project = path)
    }

    /// The agents' homes resumed sessions are written to (default: as the agents find them
    /// from this process's environment).
    pub fn with_agent_homes(self, homes: AgentHomes) -> AppState {
        self.edit(|i| i.agent_homes = homes)
    }

    pub fn agent_homes(&self) -> &AgentHomes {
        &self.inner.agent_homes
    }

    /// Registers `server` with the agents that resumes start (the command the web shows).
    pub fn with_recall_server(self, server: RecallServer) -> AppState {
        self.edit(|i| i.recall_server = Some(server))
    }

    pub fn recall_server(&self) -> Option<&RecallServer> {
        self.inner.recall_server.as_ref()
    }

    /// A turn to read and render a thread page; held until the answer is built.
    pub async fn read_turn(&self) -> Result<tokio::sync::SemaphorePermit<'_>, ApiError> {
        self.inner.reads.acquire().await.map_err(|_| {
            ApiError::new(
                squash_app::ErrorCode::StorageError,
                "the server is shutting down",
            )
        })
    }

    pub fn service(&self) -> &ConversationService {
        &self.inner.service
    }

    pub fn model_choice(&self) -> &ModelChoice {
        &self.inner.model
    }

    /// The model, or the `not_configured` error AI actions answer with.
    pub fn model(&self) -> Result<Arc<dyn ChatModel>, ApiError> {
        match &self.inner.model {
            ModelChoice::Ready(m) => Ok(m.clone()),
            ModelChoice::Missing(reason) => Err(ApiError::not_configured(reason)),
        }
    }

    pub fn squash_options(&self) -> &SquashOptions {
        &self.inner.squash_options
    }

    pub fn chat_options(&self) -> &ChatOptions {
        &self.inner.chat_options
    }

    pub fn previews(&self) -> &Previews {
        &self.inner.previews
    }

    pub fn security(&self) -> &Security {
        &self.inner.security
    }

    pub fn default_project(&self) -> &str {
        &self.inner.default_project
    }

    /// Cancelled when the server shuts down (see [`crate::serve`]).
    pub fn closing(&self) -> &CancellationToken {
        &self.inner.closing
    }
}

/// Two reads per core: one computing while the other waits on the database.
fn concurrent_reads() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get()) * 2
}
