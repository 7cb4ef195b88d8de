//! The note a squash applies: at most a short gist in prose (the model's, cleaned of talk about
//! the task) above the ledger's facts, composed so that each fact is stated once.
//!
//! Bottom to top: the talk about the squash itself that a gist must not carry ([`meta`]); the
//! gist, cleaned ([`clean_gist`]); the fact lines, each fact once and what the gist already
//! states left out ([`lines`]); the note ([`compose_note`]).

mod gist;
mod lines;
mod meta;

use crate::ledger::Ledger;
use crate::message::Message;
use crate::tokens::estimate_tokens;

pub use gist::{clean_gist, gist_within, GIST_MAX_SENTENCES};
pub use lines::{fact_lines, NoteForm};
pub use meta::meta_phrases;

/// The note of `ledger`'s facts below `gist` (cleaned by [`clean_gist`] beforehand): every fact
/// the gist does not state, once. Without a gist and without facts (small talk), the first
/// sentence of each message, so that the note is never empty.
pub fn compose_note(
    ledger: &Ledger,
    gist: Option<&str>,
    messages: &[&Message],
    form: NoteForm,
) -> String {
    let gist = gist.map(str::trim).filter(|g| !g.is_empty());
    let lines = fact_lines(ledger, gist.unwrap_or(""), messages, form);
    match (gist, lines.is_empty()) {
        (Some(gist), true) => gist.to_owned(),
        (Some(gist), false) => format!("{gist}\n\n{}", lines.join("\n")),
        (None, false) => lines.join("\n"),
        (None, true) => lines::lead_sentences(messages),
    }
}

/// The extractive squash: the ledger's facts as a note, each once, no model involved.
pub fn extract_text(ledger: &Ledger, messages: &[&Message]) -> String {
    compose_note(ledger, None, messages, NoteForm::Whole)
}

/// The note in the [`NoteForm::Whole`] form when it has at most `limit_tokens`, else in the
/// [`NoteForm::Tight`] form when that is shorter.
pub fn compose_within(
    ledger: &Ledger,
    gist: Option<&str>,
    messages: &[&Message],
    limit_tokens: Option<u64>,
) -> String {
    let whole = compose_note(ledger, gist, messages, NoteForm::Whole);
    let whole_tokens = estimate_tokens(&whole);
    if limit_tokens.is_none_or(|limit| whole_tokens <= limit) {
        return whole;
    }
    let tight = compose_note(ledger, gist, messages, NoteForm::Tight);
    if estimate_tokens(&tight) < whole_tokens {
        tight
    } else {
        whole
    }
}

#[cfg(test)]
mod tests;
