//! An AI squash result waiting for the person: the text, its quality report, and the
//! actions (apply, edit then apply, retry, discard).

use axum::extract::{Path, State};
use maud::{html, Markup};
use squash_core::quality::{
    FactEntry, FactReport, FallbackCause, InventedOutcome, QualityReport, SizeLimit,
    SIZE_LIMIT_PERCENT,
};
use squash_core::ConversationId;
use uuid::Uuid;

use super::errors::PageError;
use crate::api::parse_id;
use crate::error::ApiError;
use crate::state::AppState;

pub async fn fragment(
    State(state): State<AppState>,
    Path((id, preview)): Path<(String, String)>,
) -> Result<Markup, PageError> {
    let id: ConversationId = parse_id(&id, "conversation")?;
    let preview_id: Uuid = parse_id(&preview, "preview")?;
    let preview = state
        .previews()
        .get(id, preview_id)
        .ok_or_else(|| ApiError::not_found("this preview is gone; run the AI squash again"))?;
    let links = state.service().current_links(id).await?.links;
    let result = &preview.result;
    let positions: Vec<String> = result
        .sources
        .iter()
        .map(|s| {
            links
                .iter()
                .position(|l| l == s)
                .map_or_else(|| "(gone)".to_owned(), |i| format!("@{}", i + 1))
        })
        .collect();
    Ok(html! {
        div.preview-card data-preview=(preview.id) {
            div.preview-head {
                h2 { "Squash preview · " (result.style) }
                span.muted.small {
                    @match (&result.model, result.provider) {
                        (Some(model), Some(provider)) => {
                            code { (model) } " (" (provider.as_str()) ") · "
                            @match result.usage {
                                Some(usage) => { (usage.input_tokens) " → " (usage.output_tokens) " tokens · " }
                                None => "tokens unknown · ",
                            }
                            (format!("{:.1}", result.duration.as_secs_f64())) " s"
                        }
                        _ => { "extracted from the messages, no model" }
                    }
                }
            }
            p.small {
                "Replaces " (result.sources.len()) " messages: " (positions.join(", "))
                ". The result takes the place of the first one."
            }
            @if let Some(instructions) = &result.custom_instructions {
                p.small { "Instructions: " span.instructions { (instructions) } }
            }
            @if let Some(fallback) = &result.report.fallback {
                p.warning.fallback {
                    @match fallback.cause {
                        FallbackCause::Unusable => {
                            "The model gave no usable answer, so the " (fallback.style)
                            " squash stands in: " (fallback.reason)
                        }
                        FallbackCause::TooLong => {
                            "The model's answer was too long, so the " (fallback.style)
                            " squash, which is shorter, stands in: " (fallback.reason)
                        }
                    }
                }
            }
            @if let Some(size) = result.report.size.filter(SizeLimit::exceeded) {
                p.warning.size {
                    "Over the size limit: the facts alone need ~" (size.applied_tokens)
                    " tokens; the limit is ~" (size.limit_tokens) " ("
                    (SIZE_LIMIT_PERCENT) "% of the selection's ~" (size.selection_tokens) ")."
                }
            }
            @if result.truncated {
                p.warning { "The answer hit the output limit and may be cut off." }
            }
            div.preview-text.text.plain #preview-text { (result.text) }
            textarea #preview-edit.preview-edit rows="10" hidden aria-label="Edit the squashed text" { (result.text) }
            (report_view(&result.report))
            div.preview-actions {
                button.primary type="button" data-preview-action="apply" { "Apply" }
                button type="button" data-preview-action="edit" { "Edit" }
                button.primary type="button" data-preview-action="apply-edited" hidden { "Apply edited" }
                button type="button" data-preview-action="retry" { "Retry" }
                button.danger type="button" data-preview-action="discard" { "Discard" }
            }
        }
    })
}

fn report_view(r: &QualityReport) -> Markup {
    let total = r.kept.len() + r.dropped.len();
    html! {
        div.report #quality-report {
            h3 { "Quality report" }
            ul.metrics {
                li {
                    strong { "Compression: " }
                    (r.input_chars) " → " (r.output_chars) " characters ("
                    (format!("{:.0}", r.char_ratio * 100.0)) "% of the original), ~"
                    (r.input_tokens) " → ~" (r.output_tokens) " tokens"
                }
                li {
                    strong { "Salient terms kept: " }
                    @if total == 0 { "none in the input" } @else { (r.kept.len()) " of " (total) }
                }
            }
            @if let Some(facts) = &r.facts {
                (facts_view(facts))
            }
            (terms("Kept", "kept", &r.kept, "none"))
            (terms("Dropped", "dropped", &r.dropped, "none: every salient term survived"))
            (terms("New (not in the input: check them)", "introduced", &r.introduced, "none"))
        }
    }
}

/// The fact ledger against the result: kept in the model's words, added as lines of the note,
/// missing, invented. Each fact names its source message, and a fact can be added to the
/// edited text with one click.
fn facts_view(facts: &FactReport) -> Markup {
    html! {
        div.facts #fact-report {
            h4 {
                "Facts: " (facts.stated()) " of " (facts.total) " stated"
                @if !facts.restored.is_empty() {
                    " (" (facts.restored.len()) " added as lines of the note)"
                }
            }
            (fact_list("kept", "In the model's words", &facts.kept))
            (fact_list("restored", "Left out by the model, added as lines of the note", &facts.restored))
            (fact_list("missing", "Missing", &facts.missing))
            @if !facts.invented.is_empty() {
                div.fact-group.fact-invented {
                    span.terms-label { "Invented by the model, removed: " }
                    @for t in &facts.invented {
                        code.term title=(invented_outcome(t.outcome)) { (t.term) }
                    }
                }
            }
        }
    }
}

fn fact_list(class: &str, label: &str, list: &[FactEntry]) -> Markup {
    html! {
        @if !list.is_empty() {
            details class={ "fact-group fact-" (class) } open[class != "kept"] {
                summary { (label) " (" (list.len()) ")" }
                ul {
                    @for f in list {
                        li data-fact-kind=(f.kind.as_str()) {
                            span.fact-kind { (f.kind.as_str()) }
                            " " span.fact-text { (f.text) } " "
                            a.fact-source href={ "#m-" (f.source) } title="The message it came from" { "source" }
                            " "
                            button.fact-add type="button" data-fact-text=(f.text) title="Add this fact to the text (opens the editor)" { "+ add" }
                        }
                    }
                }
            }
        }
    }
}

fn invented_outcome(o: InventedOutcome) -> &'static str {
    match o {
        InventedOutcome::RemovedByRepair => "removed by the repair request",
        InventedOutcome::SentenceDropped => "its sentence was cut",
        InventedOutcome::AnswerReplaced => "the answer was replaced by the extract",
    }
}

fn terms(label: &str, class: &str, list: &[String], empty: &str) -> Markup {
    html! {
        div class={ "terms terms-" (class) } {
            span.terms-label { (label) ": " }
            @if list.is_empty() {
                span.muted { (empty) }
            }
            @for t in list {
                code.term { (t) }
            }
        }
    }
}
