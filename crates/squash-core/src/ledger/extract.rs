//! The ledger as text: the extractive squash, and the details appended to a summary that left
//! facts out.

use super::fact::{Fact, FactKind, Ledger};
use crate::message::Message;
use crate::render::message_text;
use crate::text::one_line;

/// The heading of the section appended to a summary with the facts it left out.
pub const DETAILS_HEADING: &str = "Details:";

fn section_title(kind: FactKind) -> &'static str {
    match kind {
        FactKind::Request => "Requests",
        FactKind::Answer => "Answers and conclusions",
        FactKind::File => "Files",
        FactKind::Command => "Commands and results",
        FactKind::Error => "Errors",
        FactKind::Fix => "Errors and fixes",
        FactKind::Decision => "Decisions",
        FactKind::OpenItem => "Open items",
        FactKind::Value => "Notes",
    }
}

/// `facts` as a short list under [`DETAILS_HEADING`]; empty when there are none.
pub fn details_section(facts: &[&Fact]) -> String {
    if facts.is_empty() {
        return String::new();
    }
    let mut out = String::from(DETAILS_HEADING);
    for fact in facts {
        out.push_str("\n- ");
        out.push_str(&fact.text);
    }
    out
}

/// The extractive squash: every fact of the ledger in sections, no model involved. A
/// selection without any fact (small talk) keeps the first sentence of each message instead,
/// so the result is never empty.
pub fn extract_text(ledger: &Ledger, messages: &[&Message]) -> String {
    if ledger.is_empty() {
        return lead_sentences(messages);
    }
    sections_text(ledger)
}

/// The ledger's facts in sections (`Files:`, `Commands and results:` …), in ledger order.
pub fn sections_text(ledger: &Ledger) -> String {
    let mut out = String::new();
    let mut current: Option<FactKind> = None;
    for fact in &ledger.facts {
        if current != Some(fact.kind) {
            if current.is_some() {
                out.push_str("\n\n");
            }
            out.push_str(section_title(fact.kind));
            out.push(':');
            current = Some(fact.kind);
        }
        out.push_str("\n- ");
        out.push_str(&fact.text);
    }
    out
}

fn lead_sentences(messages: &[&Message]) -> String {
    messages
        .iter()
        .filter_map(|m| {
            let text = message_text(m);
            let first = crate::text::sentences(&text).into_iter().next()?;
            Some(format!("- {}: {}", m.role, one_line(&first, 160)))
        })
        .collect::<Vec<_>>()
        .join("\n")
}
