//! "Resume in…" on the conversation page: the button and its dialog (which agent, how small).
//! The session is written through the JSON API (`POST …/resume`); the dialog then shows where
//! it went and the command that starts the agent on it (static/resume.js).

use super::dialog;
use maud::{html, Markup};
use squash_app::fit::FitStrategy;
use squash_app::resume::Agent;

/// The toolbar button, next to "Fit to budget…".
pub fn button() -> Markup {
    html! {
        button #resume-btn type="button" aria-haspopup="dialog" aria-controls="resume-dialog"
            title="Write this conversation as a new session of a coding agent (fitted to a budget first) and get the command that resumes it" {
            "Resume in…"
        }
    }
}

fn agent_label(agent: Agent) -> &'static str {
    match agent {
        Agent::Claude => "Claude Code",
        Agent::Codex => "Codex CLI",
        Agent::Gemini => "Gemini CLI",
        Agent::Opencode => "opencode",
    }
}

/// The dialog: the agent, the budget and strategy of the fit (and, for a conversation that
/// went through compactions, whether its whole history is fitted), then what was written.
pub fn dialog(model_missing: Option<&str>, has_whole_history: bool) -> Markup {
    dialog::with_form(
        "resume",
        "Resume in an agent",
        html! {
            "The current thread is fitted to the budget (nothing changes when it is within it) and written as a new session where the agent looks for it, in the conversation's project folder. "
            "A conversation of another agent is handed over: its tool calls become the agent's tools where it has them. Nothing is started: run the command shown."
        },
        html! {
            div.fit-fields {
                label for="resume-agent" { "Agent" }
                select #resume-agent name="agent" {
                    @for agent in Agent::ALL {
                        option value=(agent.as_str()) { (agent_label(agent)) }
                    }
                }
                label for="resume-budget" { "Budget (tokens)" }
                input #resume-budget name="budget" type="number" min="1" step="1" inputmode="numeric" placeholder="half the agent's context window";
                label for="resume-strategy" { "Strategy" }
                select #resume-strategy name="strategy" {
                    @for s in FitStrategy::ALL {
                        @let needs_model = matches!(s, FitStrategy::Ai | FitStrategy::Hybrid);
                        option value=(s.as_str()) selected[s == FitStrategy::Extract]
                            disabled[needs_model && model_missing.is_some()] { (s.as_str()) }
                    }
                }
                label for="resume-best-effort" { "Best effort" }
                input #resume-best-effort name="best_effort" type="checkbox"
                    title="Apply the smallest reachable when the budget cannot be met without touching what is kept";
                @if has_whole_history {
                    label for="resume-whole-history" { "Whole history" }
                    input #resume-whole-history name="history" value="whole" type="checkbox"
                        title="Fit the session's whole history, its compactions undone, rather than the thread the agent goes on from";
                }
            }
            div.dialog-actions {
                button #resume-write.primary type="submit" { "Write session" }
                button #resume-close type="button" { "Cancel" }
            }
        },
        html! {
            div #resume-message.fit-error role="alert" hidden {}
            section #resume-done hidden aria-live="polite" {
                p #resume-summary {}
                ul #resume-warnings.small {}
                label for="resume-command" { "Run in a terminal:" }
                pre { code #resume-command {} }
                div.dialog-actions {
                    button #resume-copy type="button" { "Copy command" }
                }
            }
        },
    )
}
