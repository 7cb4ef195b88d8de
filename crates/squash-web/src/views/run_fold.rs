//! A sub-agent's run under the call that started it: folded to one line with its size.

use maud::{html, Markup};
use squash_app::SubagentRun;
use squash_core::tokens::format_count;

/// The run a call started, folded to one line with its size; opening it (one click, or Enter)
/// loads its first page.
pub fn run_fold(run: &SubagentRun) -> Markup {
    let c = &run.run.conversation;
    let messages = run.run.message_count;
    html! {
        details.subagent-run data-src={ "/ui/conversations/" (c.id) "/run" } {
            summary {
                span.kind { "Sub-agent run" } " "
                span.run-name { (run_name(&c.display_name)) } " "
                span.run-size.muted.small {
                    (format_count(messages)) @if messages == 1 { " message" } @else { " messages" }
                    " · " (format_count(run.run.tokens)) " tokens"
                }
            }
            div.run-body aria-live="polite" {}
            p.run-open.small { a href={ "/c/" (c.id) } { "Open the run as a conversation of its own" } }
        }
    }
}

/// A run's name without its session's, which the page already shows.
fn run_name(display_name: &str) -> &str {
    display_name
        .split_once(" · sub-agent: ")
        .map_or(display_name, |(_, task)| task)
}
