//! Fitting a thread into a token budget without losing what it holds. The unit is the agent's
//! step (a message, or a tool call with its result); each step can be degraded level by level —
//! verbatim, then trimmed to the lines that carry facts ([`trim`]), then its one-line extract,
//! then merged into its run's extract, then into the digest of its request's work — and the
//! planner degrades the oldest steps first, one level at a time, stopping as soon as the thread
//! fits, so the budget is used rather than over-compressed; only when nothing else reaches it
//! do the newest steps and then the oldest requests give way. The plan is pure and works from
//! per-message summaries ([`summary`]); carrying it out (asking a model for AI steps, storing
//! the plan as one new thread) is the services' job.
//!
//! Bottom to top: what the planner knows of each message ([`summary`], [`trim`], [`turns`]);
//! the levels and their order (`levels.rs`); the text a step or a run becomes (`extracts.rs`,
//! from the shorter ledgers of `digest.rs`);
//! the request, the steps and the plan (`request.rs`, `step.rs`, `plan.rs`, with the
//! preview's per-level report in `level_report.rs`); the runs, groups and spans the levels
//! work on (`runs.rs`); the planner (`planner.rs`); reaching a budget, and what gives way when
//! it is out of reach (`reach.rs`).

mod brief;
mod digest;
mod extracts;
mod gist_room;
mod level_report;
mod levels;
mod plan;
mod planner;
mod reach;
mod request;
mod runs;
mod step;
pub mod summary;
pub mod trim;
pub mod turns;

#[cfg(test)]
mod tests;

pub use gist_room::{gist_room, GIST_MAX_TOKENS};
pub use level_report::{level_reports, LevelReport, LostFact};
pub use levels::{FitStrategy, StepAction};
pub use plan::{FitPlan, Protection};
pub use reach::{plan_fit, plan_summaries};
pub use request::{FitRequest, DEFAULT_KEEP_LAST, DEFAULT_KEEP_RECENT_SHARE};
pub use step::{fitted_links, settle, settled, FitStep};
pub use summary::{
    summarize, summarize_thread, trim_as_planned, MessageKind, MessageSummary, Summarizer,
};
pub use trim::{trim_message, TrimChoices, TRIM_MARKER};
pub use turns::Keep;
