//! One message of a thread as the conversation page shows it: its head (selection, position,
//! role, provenance badge, size, time, actions), its content and its edit form.

use maud::{html, Markup};
use squash_core::tokens::{format_count, message_tokens};
use squash_core::{ContentItem, Message, Role};

use super::content::message_body;
use super::when;

pub fn item(n: usize, m: &Message) -> Markup {
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
pub fn edit_form_value(m: &Message) -> (&'static str, String) {
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
