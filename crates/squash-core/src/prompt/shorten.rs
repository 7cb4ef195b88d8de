//! The prompt that asks a small model to shorten a note's prose lines by deleting words
//! (`note::shorten` judges each line it writes back).

use super::template::fill;
use super::{PromptStyle, SquashPrompt};
use crate::ledger::Ledger;
use crate::note::shorten::{offered, offered_lines};

const SHORTEN_SYSTEM: &str = include_str!("shorten_system.txt");
const SHORTEN_TEMPLATE: &str = include_str!("shorten.txt");

/// The shorten prompt of `ledger`'s prose facts ([`offered`]), numbered from 1 in the order
/// `note::shorten::judge` reads the answer back.
pub fn build_shorten_prompt(ledger: &Ledger) -> SquashPrompt {
    let lines: Vec<String> = offered_lines(ledger, &offered(ledger))
        .iter()
        .enumerate()
        .map(|(n, line)| format!("{}. {line}", n + 1))
        .collect();
    let user = fill(SHORTEN_TEMPLATE, &[("lines", &lines.join("\n"))]);
    SquashPrompt {
        system: Some(SHORTEN_SYSTEM.trim().to_owned()),
        user: user.trim_end().to_owned(),
        style: PromptStyle::Shorten,
    }
}
