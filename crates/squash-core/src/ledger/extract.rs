//! The ledger as text in sections, as a fit's extract lists what a step left.

use super::fact::{FactKind, Ledger};

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
