//! What a squash works from: shared by the whole-selection squash (`faithful`) and the squash
//! in parts (`batch`) it falls back to for selections over the window.

use squash_core::ledger::Ledger;
use squash_core::prompt::{PromptStyle, SquashStyle};
use squash_core::Message;

/// What a squash works from.
pub(super) struct Input<'a> {
    pub messages: &'a [&'a Message],
    pub ledger: &'a Ledger,
    /// The messages' whole text: a term not in it is invented.
    pub full_text: &'a str,
    /// The messages' text as prompts show it: what the output guard compares with.
    pub prompt_text: &'a str,
    pub instructions: Option<&'a str>,
    pub style: SquashStyle,
    pub prompt_style: PromptStyle,
}
