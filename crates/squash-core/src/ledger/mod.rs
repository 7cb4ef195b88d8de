//! The fact ledger: what a squash must not lose, computed from the selected messages alone.
//!
//! A model's summary is checked against the ledger ([`check_facts`]); facts it dropped are
//! asked for again or appended, terms it invented are removed. The ledger is also a squash
//! style of its own, the extract ([`crate::note::extract_text`]): exact, instant and offline.
//!
//! Facts come from structure first (tool inputs name the files and commands, tool results give
//! exit statuses and error lines) and from prose only where nothing else says it (requests,
//! decisions, open items, the numbers a conclusion states). Every fact keeps the message it
//! came from, so a reader can check it.
//!
//! Bottom to top: [`Fact`]s and their anchors; a tool use and the reading of its output; one
//! extractor per kind of fact (files, commands, searches, settings, sub-agent reports, errors,
//! prose); the [`Observer`] that runs them one message at a time; the merge of observations
//! into a [`Ledger`]; and what is done with a ledger (checking a text, the extract).

mod anchors;
mod check;
mod code_mode;
mod commands;
mod errors;
mod excerpt;
mod extract;
mod fact;
mod files;
mod merge;
mod observe;
mod output;
mod polls;
mod prose;
mod runs;
mod searches;
mod settings;
mod statements;
mod subagents;
mod tool_use;

use crate::message::Message;

pub use check::{check_facts, drop_sentences_with, invented_terms, FactCheck};
pub(crate) use commands::{exploration, key_of as command_key, sole_ok_run, Look};
pub(crate) use errors::FIXED_BY;
pub use extract::sections_text;
pub use fact::{Fact, FactKind, Ledger};
pub use observe::{observe_thread, Observation, Observer};
pub(crate) use output::error_lines_of;
pub use output::exit_code;
#[cfg(test)]
pub(crate) use output::line_patterns;
pub use prose::{is_harness_note, typed_text};
pub use runs::{run_ends, Ended, RunEnd};

use excerpt::Excerpt;

/// Builds the ledger of `messages`, which must be in thread order.
pub fn build_ledger(messages: &[&Message]) -> Ledger {
    selection_ledger(&observe::observe_all(messages))
}

/// The ledger of `messages` (in thread order) and how their command runs ended
/// ([`run_ends`]), from one reading of them: what a squash holds its gist against.
pub fn ledger_and_runs(messages: &[&Message]) -> (Ledger, Vec<RunEnd>) {
    let observations = observe::observe_all(messages);
    (
        selection_ledger(&observations),
        runs::ends_of(&observations),
    )
}

fn selection_ledger(observations: &[Observation]) -> Ledger {
    let refs: Vec<&Observation> = observations.iter().collect();
    merge::merge(&refs, Excerpt::Selection)
}

/// The ledger of observations made one message at a time, in thread order (a fit keeps them
/// per message and merges those of any run of steps). The steps are cut out of their
/// conversation: prose before their first request answers a request before them.
pub fn ledger_of(observations: &[&Observation]) -> Ledger {
    merge::merge(observations, Excerpt::Steps)
}

#[cfg(test)]
mod tests;
