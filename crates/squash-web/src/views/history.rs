//! The thread history panel: the tree of threads, what created each, switch to any.

use maud::{html, Markup};
use squash_app::HistoryEntry;

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
                            strong { (e.describe()) }
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
