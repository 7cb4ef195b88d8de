//! The conversation page: the current thread's messages, selection, the Squash menu, AI
//! progress and preview, undo/redo, the history panel, provenance, edit/delete, and chat.

use axum::extract::{Path, State};
use maud::{html, Markup};
use squash_app::{ContextMeter, ThreadView};
use squash_core::tokens::{format_compact, format_count, message_tokens};
use squash_core::{ContentItem, ConversationId, Message, Role};

use super::content::message_body;
use super::errors::PageError;
use super::{fit, history, layout, when};
use crate::api::parse_id;
use crate::state::{AppState, ModelChoice};

pub async fn page(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Markup, PageError> {
    let id: ConversationId = parse_id(&id, "conversation")?;
    let service = state.service();
    let view = service.current_thread(id).await?;
    let entries = service.history(id).await?;
    let current = view.thread.id;
    let can_undo = view.thread.original_thread_id.is_some();
    let can_redo = entries
        .iter()
        .any(|e| e.thread.original_thread_id == Some(current));
    let model = match state.model_choice() {
        ModelChoice::Ready(m) => Some(m.as_ref()),
        ModelChoice::Missing(_) => None,
    };
    let ai_ready = model.is_some();
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
                        div.menu #squash-menu-wrap {
                            button #squash-btn.primary type="button" aria-haspopup="menu" aria-expanded="false" disabled { "Squash ▾" }
                            div #squash-menu.menu-items role="menu" hidden {
                                button type="button" role="menuitem" data-squash="manual" { "Manual (Concatenate)" }
                                button type="button" role="menuitem" data-squash="ai" { "AI Squash" }
                                button type="button" role="menuitem" data-squash="structured" title="Sections: goal, what was done, files, commands and results, errors and fixes, decisions, open items" { "AI Squash (structured)" }
                                button type="button" role="menuitem" data-squash="extract" title="The facts of the selection, without a model: instant and exact" { "Extract facts (no model)" }
                                button type="button" role="menuitem" data-squash="custom" { "Custom AI Squash…" }
                            }
                        }
                        (fit::button())
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
                    (thread_list(&view))
                    (composer())
                }
                aside #history-panel.history-panel hidden {
                    (history::panel(&entries))
                }
            }
            dialog #provenance-dialog.dialog aria-labelledby="provenance-title" {
                div.dialog-head {
                    h2 #provenance-title { "Provenance" }
                    button.close-dialog type="button" aria-label="Close" { "✕" }
                }
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
        }
    };
    Ok(layout::page_with_sidebar(
        &view.conversation.display_name,
        Some(state.model_choice()),
        super::sidebar::sidebar(&state, Some(id)).await?,
        body,
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

fn thread_list(view: &ThreadView) -> Markup {
    html! {
        ol #thread.messages data-thread=(view.thread.id) data-count=(view.messages.len()) {
            @if view.messages.is_empty() {
                li.empty { "No messages yet. Write one below: send it to the model, or add it as it is." }
            }
            @for (i, m) in view.messages.iter().enumerate() {
                (message_item(i + 1, m))
            }
        }
    }
}

fn message_item(n: usize, m: &Message) -> Markup {
    let (editable, edit_text) = edit_form_value(m);
    html! {
        li id={ "m-" (m.id) } class={ "msg role-" (m.role.as_str()) } data-id=(m.id) data-pos=(n) {
            div.msg-head {
                label.select {
                    input.select-box type="checkbox" aria-label={ "Select message " (n) };
                    span.pos { "@" (n) }
                }
                span.role { (m.role.as_str()) }
                @if m.squash_operation_id.is_some() {
                    button.badge.prov-badge type="button" data-message=(m.id) title="Show where this message came from" { "◆ squashed" }
                }
                span.msg-tokens.muted.small title="Estimated tokens a model reads for this message" { (format_count(message_tokens(m))) " tokens" }
                time.muted.small datetime=(m.created_at.to_rfc3339()) { (when(&m.created_at)) }
                span.actions {
                    button.edit-btn type="button" { "Edit" }
                    button.delete-btn type="button" { "Delete" }
                }
            }
            div.msg-body { (message_body(m)) }
            form.edit-form data-mode=(editable) hidden {
                @if editable == "json" {
                    p.muted.small { "This message holds more than text; edit its content as JSON." }
                }
                textarea name="text" rows="6" aria-label={ "Edit message " (n) } { (edit_text) }
                div.edit-actions {
                    button.primary type="submit" { "Save" }
                    button.cancel-edit type="button" { "Cancel" }
                    span.muted.small { "Saving makes a new thread; Undo brings the original back." }
                }
            }
        }
    }
}

/// How a message is edited: its text when it is one text item, else its content as JSON.
fn edit_form_value(m: &Message) -> (&'static str, String) {
    match m.content.as_slice() {
        [ContentItem::UserMessage { text }] => ("text", text.clone()),
        [ContentItem::AssistantMessage { structured }] => ("text", structured.full_text.clone()),
        [ContentItem::System { content, .. }] if m.role == Role::System => {
            ("text", content.clone())
        }
        content => (
            "json",
            serde_json::to_string_pretty(content).unwrap_or_default(),
        ),
    }
}

fn composer() -> Markup {
    html! {
        section.card.composer {
            div #chat-stream.chat-stream hidden {
                div.role { "assistant" }
                pre #chat-stream-text.stream {}
            }
            form #chat-form {
                textarea #chat-input name="text" rows="3" placeholder="Write a message… (Ctrl+Enter sends it to the model)" aria-label="Message" {}
                div.composer-actions {
                    button #chat-send.primary type="submit" { "Send to model" }
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
