//! Squash services: the operations people ask for, built on the store and (later) the models.
//!
//! [`ConversationService`] owns every thread operation. Each explicit operation is computed
//! by the pure functions of `squash_core::thread_ops` against the current thread and committed
//! in one store transaction only if that thread is still current; if the conversation moved on
//! meanwhile (an append during a slow model call), the operation is recomputed on the new current
//! thread while all its sources are still there, and fails with a conflict otherwise.

mod answers;
mod catalog;
mod chat;
mod commit;
pub mod config;
mod context;
mod conversations;
pub mod doctor;
mod error;
pub mod export;
pub mod fit;
mod history;
pub mod import;
mod originals;
mod pages;
pub mod providers;
mod reading;
pub mod recall;
mod refs;
pub mod remedy;
pub mod resume;
mod search;
mod squash;
mod switch;
mod token_sums;
pub mod workers;

pub use chat::{ChatError, ChatOptions, ChatTurn};
pub use context::{counted_by, ContextMeter, TokenCounter};
pub use conversations::{
    ConversationService, EditRequest, ManualSquashRequest, OperationOutcome, PreparedSquash,
    SquashApplication,
};
pub use error::{AppError, ErrorCode, ServiceError};
pub use export::{ExportFormat, ExportOptions, ExportReport};
pub use history::{origin_words, HistoryEntry, ProvenanceNode};
pub use import::{
    ImportError, ImportFormat, ImportOptions, ImportProgress, ImportSummary, NoProgress,
};
pub use originals::{MessagePage, OperationSources, SubagentRun};
pub use reading::ThreadView;
pub use recall::{LinePage, Recalled};
pub use remedy::Remedy;
pub use search::{ExchangeHalf, ExchangeSide, HistoryFound, HistoryMatch, DEFAULT_SEARCH_LIMIT};
pub use squash::{
    prompt_style_for, result_role, AiSquash, Progress, PromptPurpose, SentPrompt, SquashEngine,
    SquashError, SquashOptions, SquashResult, SquashStage, StageListener, BRIEF_MAX_OUTPUT_TOKENS,
    CONTEXT_TOKENS_ENV, CONTEXT_WINDOW_ENV, SQUASH_MAX_OUTPUT_TOKENS, SQUASH_TEMPERATURE,
};
pub use squash_core::page::{PageAnchor, PageSpan, PageWindow, MAX_PAGE};
pub use squash_core::thread_ops::{PartnerAdded, PartnerPolicy};
pub use squash_store::{
    ConversationSummary, HistoryHit, HistoryPlace, HistoryResults, OperationRef, SearchHit,
    SearchResults, StoredMessage, ThreadRef, MAX_SEARCH_CANDIDATES, MAX_SEARCH_LIMIT,
};
