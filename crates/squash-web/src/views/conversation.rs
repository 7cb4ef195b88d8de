//! The conversation page: the current thread's messages, selection, the Squash menu, AI
//! progress and preview, undo/redo, the history panel, provenance, edit/delete, and chat.

use axum::extract::{Path, RawQuery, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use maud::{html, Markup};
use squash_app::{ContextMeter, ConversationService, SubagentRun, ThreadRef, ThreadView};
use squash_core::tokens::{format_compact, format_count};
use squash_core::{ConversationId, SquashOperation};

use super::dialog;
use super::errors::PageError;
use super::{fit, history, layout, message, resume, shortcuts};
use crate::api::paging::PageQuery;
use crate::api::{parse_id, IdPath, Query};
use crate::error::ApiError;
use crate::etag::{server_facts, Tag};
use crate::state::{AppState, ModelChoice};

/// Messages a page shows at first and loads at a time: a screenful or two. The rest of a long
/// thread comes page by page as the reader scrolls (static/app.js), so a 10,000-message thread
/// costs the same first paint as a 50-message one.
pub const PAGE_SIZE: u32 = 50;

pub async fn page(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(page): Query<PageQuery>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<Response, PageError> {
    let id: ConversationId = parse_id(&id, "conversation")?;
    let service = state.service();
    let window = page.window(PAGE_SIZE)?;
    let _turn = state.read_turn().await?;
    // Everything the page shows comes from the conversation's state, this server's settings
    // (model, options) and the sidebar (every conversation's name and size): 304 before the
    // thread is read or rendered when none of them moved.
    let (conversation, thread) = service.current_thread_header(id).await?;
    let sidebar = super::sidebar::sidebar(&state, Some(id)).await?;
    let tag = Tag::of(
        "page",
        &conversation,
        &thread,
        query.as_deref(),
        &format!("{}\n{}", server_facts(&state), sidebar.0),
    );
    if tag.matches(&headers) {
        return Ok(tag.not_modified());
    }
    let view = service.thread_page(ThreadRef::Current(id), window).await?;
    let entries = service.history(id).await?;
    // Once per page, for the badges: what made each message (edit, squash, mask).
    let operations = operations_of(service, &view).await?;
    let runs = runs_of(service, &view).await?;
    let current = view.thread.id;
    let can_undo = view.thread.original_thread_id.is_some();
    let has_whole_history = entries.iter().any(|e| e.thread.origin.is_whole_history());
    let can_redo = entries
        .iter()
        .any(|e| e.thread.original_thread_id == Some(current));
    let model = match state.model_choice() {
        ModelChoice::Ready(m) => Some(m.as_ref()),
        ModelChoice::Missing(_) => None,
    };
    let ai_ready = model.is_some();
    // Why AI actions are off, shown as their tooltip and read out as their description.
    let missing = match state.model_choice() {
        ModelChoice::Ready(_) => None,
        ModelChoice::Missing(reason) => Some(reason.as_str()),
    };
    let described = missing.map(|_| "ai-missing-reason");
    let meter = ContextMeter::of(&view, model, state.chat_options());
    let body = html! {
        main.conversation #conversation data-conversation=(id) data-ai=(if ai_ready { "ready" } else { "missing" }) {
            div.layout {
                section.thread-col {
                    div.toolbar #toolbar {
                        button #undo-btn type="button" disabled[!can_undo] title="Switch back to the thread this one came from" { "↶ Undo" }
                        button #redo-btn type="button" disabled[!can_redo] title="Switch forward to the newest thread made from this one" { "↷ Redo" }
                        button #history-btn type="button" aria-controls="history-panel" aria-expanded="false" { "History (" (entries.len()) ")" }
                        span.sep {}
                        span #selection-count.selection-count aria-live="polite" { "0 selected" }
                        button #clear-selection type="button" disabled { "Clear" }
                        details.range-select {
                            summary title="Select every message between two positions, loaded or not" { "Range…" }
                            form #range-form {
                                label { "From @" input name="from" type="number" min="1" max=(view.span.total.max(1)) required inputmode="numeric"; }
                                label { "to @" input name="to" type="number" min="1" max=(view.span.total.max(1)) required inputmode="numeric"; }
                                button type="submit" { "Select" }
                            }
                        }
                        div.menu #squash-menu-wrap {
                            button #squash-btn.primary type="button" aria-haspopup="menu" aria-expanded="false" disabled { "Squash ▾" }
                            div #squash-menu.menu-items role="menu" hidden {
                                button type="button" role="menuitem" data-squash="manual" { "Manual (Concatenate)" }
                                button type="button" role="menuitem" data-squash="ai" disabled[!ai_ready] title=[missing] aria-describedby=[described] { "AI Squash" }
                                button type="button" role="menuitem" data-squash="structured" disabled[!ai_ready] aria-describedby=[described]
                                    title=(missing.unwrap_or("Sections: goal, what was done, files, commands and results, errors and fixes, decisions, open items")) { "AI Squash (structured)" }
                                button type="button" role="menuitem" data-squash="extract" title="The facts of the selection, without a model: instant and exact" { "Extract facts (no model)" }
                                button type="button" role="menuitem" data-squash="custom" disabled[!ai_ready] title=[missing] aria-describedby=[described] { "Custom AI Squash…" }
                            }
                            @if let Some(reason) = missing {
                                span #ai-missing-reason hidden { "Needs a model: " (reason) }
                            }
                        }
                        (fit::button())
                        (resume::button())
                        button #delete-selected.danger type="button" disabled { "Delete selected" }
                    }
                    (context_meter(&meter))
                    div #flash.flash role="alert" hidden {}
                    section #progress.card.progress hidden aria-live="polite" {
                        div.progress-head {
                            span.spinner aria-hidden="true" {}
                            strong #progress-title { "AI squash running…" }
                            span #progress-model.muted {}
                            button #progress-cancel type="button" { "Cancel" }
                        }
                        pre #progress-text.stream {}
                    }
                    section #preview.card.preview hidden {}
                    (fit::done_card())
                    (thread_view(&view, &operations, &runs))
                    (composer(missing))
                }
                aside #history-panel.history-panel hidden {
                    (history::panel(&entries))
                }
            }
            dialog #provenance-dialog.dialog aria-labelledby="provenance-title" {
                (dialog::head("provenance-title", "Provenance"))
                div #provenance-body {}
            }
            dialog #custom-dialog.dialog aria-labelledby="custom-title" {
                form #custom-form method="dialog" {
                    div.dialog-head {
                        h2 #custom-title { "Custom AI Squash" }
                    }
                    p.muted { "Tell the model what to keep, drop or emphasise. The instructions are recorded with the squash." }
                    textarea #custom-instructions name="instructions" rows="5" placeholder="Keep every file path and error code; drop the small talk." {}
                    div.dialog-actions {
                        button.primary #custom-run type="submit" value="run" { "Squash" }
                        button #custom-cancel type="button" { "Cancel" }
                    }
                }
            }
            (fit::dialog(state.model_choice(), &view))
            (resume::dialog(missing, has_whole_history))
            (shortcuts::dialog())
        }
    };
    Ok(tag.stamp(
        layout::page_with_sidebar(
            &view.conversation.display_name,
            Some(state.model_choice()),
            sidebar,
            body,
        )
        .into_response(),
    ))
}

/// "48.2k / 200k tokens (24%)" with a bar: the current thread against the chat model's
/// window. A native `meter` (no inline style, which the CSP forbids), labelled for screen
/// readers with the exact numbers; yellow past half the window, red past 80%.
fn context_meter(meter: &ContextMeter) -> Markup {
    let how = match meter.counter {
        squash_app::TokenCounter::Estimate => "estimated",
        squash_app::TokenCounter::Tokenizer => "counted with the model's tokenizer",
    };
    let tokens = meter.tokens;
    html! {
        div #context-meter.context-meter data-tokens=(tokens) data-window=[meter.window] {
            @match (meter.window, meter.percent()) {
                (Some(window), Some(percent)) => {
                    @let window = u64::from(window);
                    label for="context-meter-bar" { "Context" }
                    meter #context-meter-bar min="0" max=(window) low=(window / 2) high=(window * 4 / 5) optimum="0" value=(tokens.min(window))
                        aria-valuetext={ (format_count(tokens)) " of " (format_count(window)) " tokens (" (percent) "%)" } {
                        (percent) "%"
                    }
                    span #context-meter-text title={ (format_count(tokens)) " tokens, " (how) } {
                        (format_compact(tokens)) " / " (format_compact(window)) " tokens (" (percent) "%)"
                    }
                }
                _ => {
                    span #context-meter-text title={ (format_count(tokens)) " tokens, " (how) "; no model is configured, so there is no window to compare with" } {
                        (format_compact(tokens)) " tokens"
                    }
                }
            }
        }
    }
}

/// The messages of one page of the current thread, for the script to add to the list as the
/// reader scrolls: `/ui/conversations/{id}/messages?before=P&limit=N` (or `after`, `around`,
/// `at`). The list carries the page's place in the thread, so the script can tell when the
/// thread changed under it.
pub async fn messages_fragment(
    State(state): State<AppState>,
    IdPath(id): IdPath<ConversationId>,
    Query(query): Query<PageQuery>,
) -> Result<Markup, ApiError> {
    let window = query.window(PAGE_SIZE)?;
    let _turn = state.read_turn().await?;
    let service = state.service();
    let view = service.thread_page(ThreadRef::Current(id), window).await?;
    let operations = operations_of(service, &view).await?;
    let runs = runs_of(service, &view).await?;
    Ok(thread_view(&view, &operations, &runs))
}

/// The operations that made the page's messages, for their badges: one read each, at most one
/// per message of the page, however many the conversation has (a fit can record thousands).
async fn operations_of(
    service: &ConversationService,
    view: &ThreadView,
) -> Result<Vec<SquashOperation>, ApiError> {
    let ids: std::collections::HashSet<_> = view
        .messages
        .iter()
        .filter_map(|m| m.squash_operation_id)
        .collect();
    let mut operations = Vec::with_capacity(ids.len());
    for id in ids {
        operations.push(service.operation(id).await?);
    }
    Ok(operations)
}

/// The sub-agent runs the page's calls started, for the fold under each.
async fn runs_of(
    service: &ConversationService,
    view: &ThreadView,
) -> Result<Vec<SubagentRun>, ApiError> {
    Ok(service
        .subagent_runs_of(view.conversation.id, &view.messages)
        .await?)
}

/// The list with a "load more" control at each end that has more. The controls are buttons, so
/// they work by keyboard and without scrolling; the script also presses them when they come
/// into view.
fn thread_view(view: &ThreadView, operations: &[SquashOperation], runs: &[SubagentRun]) -> Markup {
    let span = view.span;
    let before = span.first.saturating_sub(1);
    let after = span.total.saturating_sub(span.last());
    let ctx = message::Context::new(
        &view.messages,
        span.first as usize,
        operations,
        runs,
        squash_core::time::now(),
    );
    html! {
        div #thread-view.thread-view {
            button #load-before.load-more type="button" hidden[!span.has_before()] {
                "Load earlier messages (" span #load-before-count { (format_count(before)) } " more)"
            }
            ol #thread.messages data-thread=(view.thread.id) data-revision=(view.thread.revision)
                data-first=(span.first) data-last=(span.last()) data-total=(span.total)
                aria-label={ "Messages " (span.first) "–" (span.last()) " of " (span.total) } {
                @if span.total == 0 {
                    li.empty { "No messages yet. Write one below: send it to the model, or add it as it is." }
                }
                @for ((position, m), tokens) in (span.first as usize..).zip(&view.messages).zip(&view.message_tokens) {
                    (message::item(position, m, *tokens, &ctx))
                }
            }
            button #load-after.load-more type="button" hidden[!span.has_after()] {
                "Load later messages (" span #load-after-count { (format_count(after)) } " more)"
            }
        }
    }
}

/// The chat box; `missing` (why there is no model) turns "Send to model" off, while adding a
/// message without a reply still works.
fn composer(missing: Option<&str>) -> Markup {
    html! {
        section.card.composer {
            div #chat-sent.chat-sent hidden {
                div.role { "user" }
                div #chat-sent-text.chat-sent-text {}
            }
            div #chat-stream.chat-stream hidden {
                div.role { "assistant" }
                pre #chat-stream-text.stream {}
            }
            form #chat-form {
                textarea #chat-input name="text" rows="3" placeholder="Write a message… (Ctrl+Enter sends it to the model)" aria-label="Message" {}
                div.composer-actions {
                    button #chat-send.primary type="submit" disabled[missing.is_some()] title=[missing] aria-describedby=[missing.map(|_| "ai-missing-reason")] { "Send to model" }
                    span.sep {}
                    label.small { "or add as "
                        select #append-role name="role" aria-label="Role of the added message" {
                            option value="user" { "user" }
                            option value="assistant" { "assistant" }
                            option value="system" { "system" }
                        }
                    }
                    button #append-btn type="button" { "Add without reply" }
                }
            }
        }
    }
}
