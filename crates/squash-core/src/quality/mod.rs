//! Checks on a model's squash output and the quality report shown next to a result.
//!
//! A squash replaces messages, so a bad answer is worse than no answer: [`check_output`]
//! (or [`clean_output`] then [`guard_output`]) turns the common failure shapes of LLM output —
//! empty, only a preamble, a refusal, an echo of the prompt, a runaway loop, longer than the
//! input — into an [`OutputProblem`] before anything is applied. [`quality_report`] then says
//! how much was compressed and which salient terms (paths, identifiers, numbers, error codes)
//! survived, were dropped or appeared from nowhere, so a person can judge the result at a
//! glance; [`FactReport`] is its part that speaks in facts.

mod clean;
mod facts;
mod guard;
mod problem;
mod report;

#[cfg(test)]
mod tests;

pub use clean::clean_output;
pub use facts::{FactEntry, FactReport, InventedOutcome, InventedTerm};
pub use guard::guard_output;
pub use problem::OutputProblem;
pub use report::{
    quality_report, size_limit, Fallback, FallbackCause, QualityReport, SizeLimit,
    SIZE_LIMIT_FROM_TOKENS, SIZE_LIMIT_PERCENT,
};

use crate::prompt::undo_escaping;

/// The whole acceptance path for a raw model answer: [`clean_output`], then
/// [`undo_escaping`] (models sometimes copy the prompt's `&lt;`), then [`guard_output`].
/// `input_text` is [`messages_text`](crate::prompt::messages_text) of the squashed messages.
pub fn check_output(input_text: &str, raw: &str) -> Result<String, OutputProblem> {
    let cleaned = clean_output(raw)?;
    let cleaned = undo_escaping(&cleaned, input_text);
    guard_output(input_text, &cleaned)?;
    Ok(cleaned)
}
