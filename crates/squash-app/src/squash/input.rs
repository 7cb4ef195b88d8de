//! What a squash works from: shared by the whole-selection squash (`faithful`) and the squash
//! in parts (`batch`) it falls back to for selections over the window.

use squash_core::ledger::{Ledger, RunEnd};
use squash_core::prompt::{PromptStyle, SquashStyle};
use squash_core::quality::size_limit;
use squash_core::recall::mark_tokens;
use squash_core::render::message_text;
use squash_core::tokens::estimate_tokens;
use squash_core::Message;

/// What a squash works from.
pub(super) struct Input<'a> {
    pub messages: &'a [&'a Message],
    pub ledger: &'a Ledger,
    /// How each command run of the selection ended: what the gist's sentences are held against.
    pub runs: &'a [RunEnd],
    /// The messages' whole text: a term not in it is invented.
    pub full_text: &'a str,
    /// The messages' text as prompts show it: what the output guard compares with.
    pub prompt_text: &'a str,
    pub instructions: Option<&'a str>,
    pub style: SquashStyle,
    pub prompt_style: PromptStyle,
}

impl Input<'_> {
    /// Estimated tokens of the selection: what a squash must come in under.
    pub fn selection_tokens(&self) -> u64 {
        estimate_tokens(self.full_text)
    }

    /// The most tokens the applied message may have, its recall mark included ([`size_limit`]).
    pub fn size_limit(&self) -> Option<u64> {
        size_limit(self.selection_tokens())
    }

    /// The most tokens the note itself may have ([`note_limit`]).
    pub fn note_limit(&self) -> Option<u64> {
        note_limit(self.selection_tokens())
    }
}

/// The messages' whole text, as the check for invented terms reads it.
pub(super) fn full_text(messages: &[&Message]) -> String {
    messages
        .iter()
        .map(|m| message_text(m))
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The most tokens the note of a `selection_tokens` selection may have: its [`size_limit`],
/// less the recall mark (` [ref 12]`) the applied message ends with.
pub(super) fn note_limit(selection_tokens: u64) -> Option<u64> {
    size_limit(selection_tokens).map(|limit| limit.saturating_sub(mark_tokens()))
}

/// The tokens of the message a `note` is applied as: the note and its recall mark.
pub(super) fn applied_tokens(note: &str) -> u64 {
    estimate_tokens(note) + mark_tokens()
}
