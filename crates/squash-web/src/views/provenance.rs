//! The provenance dialog: the operation that made a message (manual or AI, model, prompt,
//! instructions, when) and its source messages, recursively.

use axum::extract::{Path, State};
use maud::{html, Markup};
use squash_app::ProvenanceNode;
use squash_core::prompt::SquashStyle;
use squash_core::{MessageId, SquashOperation};

use super::content::message_body;
use super::errors::PageError;
use super::message::Badge;
use super::text::shorten;
use super::{short_id, when};
use crate::api::parse_id;
use crate::state::AppState;

pub async fn fragment(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Markup, PageError> {
    let id: MessageId = parse_id(&id, "message")?;
    let root = state.service().provenance(id).await?;
    Ok(html! {
        div.provenance {
            (node_view(&root, 0))
        }
    })
}

fn node_view(node: &ProvenanceNode, depth: usize) -> Markup {
    let m = &node.message;
    html! {
        div.prov-node {
            @if let Some(op) = &node.operation {
                (operation_view(op))
                h4 { "Sources (" (node.sources.len()) ")" }
                ol.prov-sources {
                    @for source in &node.sources {
                        li {
                            details.prov-source open[depth == 0 && node.sources.len() <= 6] {
                                summary {
                                    span.role { (source.message.role.as_str()) } " "
                                    @if source.operation.is_some() {
                                        span.badge { (kind(source.operation.as_ref())) } " "
                                    }
                                    span.muted { (shorten(&squash_core::render::message_text(&source.message), 90)) }
                                }
                                div.msg-body { (message_body(&source.message)) }
                                div.muted.small {
                                    "message " code { (short_id(&source.message.id)) } " · " (when(&source.message.created_at))
                                }
                                @if source.operation.is_some() {
                                    div.prov-nested { (node_view(source, depth + 1)) }
                                }
                            }
                        }
                    }
                }
            } @else {
                p.muted { "This message was written, not made by a squash or an edit." }
                div.msg-body { (message_body(m)) }
            }
        }
    }
}

/// A source's badge, in the words of the thread's badges.
fn kind(op: Option<&SquashOperation>) -> String {
    match op {
        Some(op) => Badge::of(op).label(),
        None => "original".to_owned(),
    }
}

fn operation_view(op: &SquashOperation) -> Markup {
    let title = match Badge::of(op) {
        Badge::Squashed { ai: true, .. } => "AI squash",
        Badge::Edited => "Manual edit",
        Badge::Masked => "Trimmed to the lines that carry facts (fit to budget)",
        Badge::Squashed {
            ai: false,
            style: Some(SquashStyle::Extract),
        } => "Fact extraction (no model)",
        Badge::Squashed { .. } | Badge::Unknown => "Manual squash (concatenation)",
    };
    html! {
        dl.prov-op {
            dt { "Operation" } dd.prov-kind { (title) }
            @if let Some(model) = op.kind.model() {
                dt { "Model" } dd {
                    code { (model) }
                    @if let Some(provider) = op.kind.provider() { " (" (provider) ")" }
                }
            }
            dt { "When" } dd { (when(&op.created_at)) }
            @if let Some(by) = &op.performed_by {
                dt { "By" } dd { (by) }
            }
            @if let Some(instructions) = op.kind.custom_instructions() {
                dt { "Instructions" } dd.prov-instructions { (instructions) }
            }
            @if let Some(usage) = op.kind.usage() {
                dt { "Tokens" } dd { (usage.input_tokens) " in · " (usage.output_tokens) " out" }
            } @else if op.kind.performed_by_agent() {
                // The provider did not count: say so rather than show zero.
                dt { "Tokens" } dd.muted { "unknown (not reported by the provider)" }
            }
            @if let Some(ms) = op.kind.duration_ms() {
                dt { "Duration" } dd { (format!("{:.1}", ms as f64 / 1000.0)) " s" }
            }
            dt { "Operation id" } dd { code { (op.id) } }
            @if let Some(prompt) = op.kind.prompt() {
                dt { "Prompt" }
                dd {
                    details.prov-prompt {
                        summary { "The exact prompt (" (prompt.chars().count()) " characters)" }
                        pre.prompt { (prompt) }
                    }
                }
            }
        }
    }
}
