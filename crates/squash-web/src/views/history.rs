//! The thread history panel: the tree of threads, what created each, switch to any.

use maud::{html, Markup};
use squash_app::HistoryEntry;
use squash_core::{BranchKind, ThreadOrigin};

use super::{short_id, when};

pub fn panel(entries: &[HistoryEntry]) -> Markup {
    html! {
        div.history {
            div.history-head {
                h2 { "Thread history" }
                button.history-close type="button" aria-label="Close the history" { "✕" }
            }
            p.muted.small { "Every edit, delete and squash made a new thread; nothing was overwritten. Switch to any of them." }
            ol.history-tree {
                @for e in entries {
                    li class=(entry_class(e)) data-thread=(e.thread.id) {
                        div.hist-line {
                            span.tree aria-hidden="true" { @if e.depth > 0 { "└ " } }
                            strong { (describe(e)) }
                        }
                        div.muted.small {
                            (e.thread.message_count) " messages · " (when(&e.thread.created_at))
                            " · thread " code { (short_id(&e.thread.id)) }
                        }
                        div {
                            @if e.is_current {
                                span.badge.current-badge { "current" }
                            } @else {
                                button.switch-btn type="button" data-thread=(e.thread.id) { "Switch here" }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn entry_class(e: &HistoryEntry) -> String {
    let mut class = format!("hist-entry depth-{}", e.depth.min(12));
    if e.is_current {
        class.push_str(" current");
    }
    class
}

/// What created the thread, in words.
fn describe(e: &HistoryEntry) -> String {
    match (&e.thread.origin, &e.operation) {
        (ThreadOrigin::Initial, _) => "Initial thread".to_owned(),
        (ThreadOrigin::Delete { message_ids }, _) => {
            format!(
                "Deleted {} message{}",
                message_ids.len(),
                plural(message_ids.len())
            )
        }
        (ThreadOrigin::Edit { .. }, _) => "Edited a message".to_owned(),
        (ThreadOrigin::SourceBranch { branch }, _) => match branch {
            BranchKind::Rewind => "Rewound and continued (imported)".to_owned(),
            BranchKind::Compaction => "Continued after a compaction (imported)".to_owned(),
            BranchKind::Alternative => "Alternative answer (imported)".to_owned(),
        },
        (ThreadOrigin::Squash { .. }, Some(op)) if op.kind.performed_by_agent() => format!(
            "AI squash of {} messages{}{}",
            op.source_message_ids.len(),
            op.kind
                .model()
                .map(|m| format!(" · {m}"))
                .unwrap_or_default(),
            if op.kind.custom_instructions().is_some() {
                " · custom instructions"
            } else {
                ""
            }
        ),
        (ThreadOrigin::Squash { .. }, Some(op)) => {
            format!("Manual squash of {} messages", op.source_message_ids.len())
        }
        (ThreadOrigin::Squash { .. }, None) => "Squash".to_owned(),
        (
            ThreadOrigin::Fit {
                operation_ids,
                budget,
            },
            _,
        ) => format!(
            "Fit to {} tokens in {} step{}",
            squash_core::tokens::format_count(*budget),
            operation_ids.len(),
            plural(operation_ids.len())
        ),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
