//! One message of a thread as the conversation page shows it: its head (selection, position,
//! role, what made it, size, time, actions), its content and its edit form.
//!
//! A page renders its messages with one [`Context`], built once from the page's messages and
//! the conversation's operations: the badges and the tool calls' results are looked up in it,
//! never queried per message.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use maud::{html, Markup};
use squash_app::SubagentRun;
use squash_core::prompt::SquashStyle;
use squash_core::tokens::format_count;
use squash_core::{ContentItem, Message, OperationKind, Role, SquashOperation, SquashOperationId};

use super::content::{message_body_with, Tools};
use super::when;

/// What the page needs beside a message to render it.
pub struct Context<'a> {
    pub now: DateTime<Utc>,
    /// What made each shown message that an operation made, and how many messages it replaced.
    made: HashMap<SquashOperationId, (Badge, usize)>,
    pub tools: Tools<'a>,
}

impl<'a> Context<'a> {
    /// `messages` are the ones the page shows, the first at position `first_position`
    /// (1-based); `operations` those of the conversation (only the ones that made a shown
    /// message are kept); `runs` the sub-agent runs its calls started.
    pub fn new(
        messages: &'a [Message],
        first_position: usize,
        operations: &[SquashOperation],
        runs: &'a [SubagentRun],
        now: DateTime<Utc>,
    ) -> Context<'a> {
        let shown: std::collections::HashSet<SquashOperationId> = messages
            .iter()
            .filter_map(|m| m.squash_operation_id)
            .collect();
        let made = operations
            .iter()
            .filter(|op| shown.contains(&op.id))
            .map(|op| (op.id, (Badge::of(op), op.source_message_ids.len())))
            .collect();
        Context {
            now,
            made,
            tools: Tools::of(messages, first_position).with_runs(runs),
        }
    }

    /// This context for messages shown under another (originals, a sub-agent's run), numbered
    /// in their own list.
    pub fn nested(mut self) -> Context<'a> {
        self.tools = self.tools.nested();
        self
    }
}

/// What made a message, as its badge says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Badge {
    /// One message rewritten by hand.
    Edited,
    /// A fit's observation masking: the tool output replaced by a placeholder.
    Masked,
    /// Two or more messages made one: by concatenation, by a model, or by fact extraction.
    Squashed {
        ai: bool,
        style: Option<SquashStyle>,
    },
    /// The operation is not among those read (it should be; kept readable if not).
    Unknown,
}

impl Badge {
    pub fn of(op: &SquashOperation) -> Badge {
        match &op.kind {
            OperationKind::Mask => Badge::Masked,
            // A fit's single-message extract is a squash of that message, not a person's edit.
            OperationKind::Edit => Badge::Edited,
            kind => Badge::Squashed {
                ai: kind.performed_by_agent(),
                style: kind.style(),
            },
        }
    }

    pub fn label(self) -> String {
        match self {
            Badge::Edited => "✎ edited".to_owned(),
            Badge::Masked => "▨ trimmed".to_owned(),
            Badge::Squashed { ai: true, style } => match style {
                Some(style) => format!("◆ squashed · AI, {}", style.as_str()),
                None => "◆ squashed · AI".to_owned(),
            },
            Badge::Squashed {
                ai: false,
                style: Some(SquashStyle::Extract),
            } => "◆ squashed · extract".to_owned(),
            Badge::Squashed { ai: false, .. } => "◆ squashed · manual".to_owned(),
            Badge::Unknown => "◆ squashed".to_owned(),
        }
    }

    pub fn class(self) -> &'static str {
        match self {
            Badge::Edited => "badge-edited",
            Badge::Masked => "badge-masked",
            Badge::Squashed { ai: true, .. } => "badge-ai",
            Badge::Squashed { ai: false, .. } | Badge::Unknown => "badge-squashed",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Badge::Edited => "Edited by hand: show the original and the edit",
            Badge::Masked => {
                "Trimmed to the lines that carry facts, to fit a budget: show the original"
            }
            Badge::Squashed { ai: true, .. } => {
                "Made by an AI squash: show the sources, the model and the prompt"
            }
            _ => "Made by a squash: show the source messages",
        }
    }
}

/// Message `m` at position `n`, whose stored token estimate is `tokens`.
pub fn item(n: usize, m: &Message, tokens: u64, ctx: &Context) -> Markup {
    let (editable, edit_text) = edit_form_value(m);
    let attached = ctx.tools.attached(n, m);
    let class = if attached {
        format!("msg role-{} attached", m.role.as_str())
    } else {
        format!("msg role-{}", m.role.as_str())
    };
    html! {
        li id={ "m-" (m.id) } class=(class) data-id=(m.id) data-pos=(n) {
            div.msg-head {
                label.select {
                    input.select-box type="checkbox" aria-label={ "Select message " (n) };
                    span.pos { "@" (n) }
                }
                @if attached {
                    span.role.tool-role title="This message holds only tool results; each is shown with its call above. It stays a message of its own: select, squash or delete it like any other." { "↳ tool result" }
                } @else {
                    span.role { (m.role.as_str()) }
                }
                (made_by(m, ctx))
                span.msg-tokens.muted.small title="Estimated tokens a model reads for this message" { (format_count(tokens)) " tokens" }
                (time_view(&m.created_at, ctx.now))
                span.actions {
                    button.edit-btn type="button" { "Edit" }
                    button.delete-btn type="button" { "Delete" }
                }
            }
            div.msg-body { (message_body_with(m, n, &ctx.tools)) }
            (originals_slot(m))
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

/// What made `m`, when an operation did: its badge (which opens the provenance) and the
/// control that opens, under the message, the messages it stands for.
pub fn made_by(m: &Message, ctx: &Context) -> Markup {
    let Some(op) = m.squash_operation_id else {
        return html! {};
    };
    let (badge, sources) = ctx.made.get(&op).copied().unwrap_or((Badge::Unknown, 0));
    html! {
        button type="button" class={ "badge prov-badge " (badge.class()) } data-message=(m.id) title=(badge.title()) { (badge.label()) }
        (show_original(op, sources))
    }
}

/// Where the originals of `m` open (see [`made_by`]), when an operation made it.
pub fn originals_slot(m: &Message) -> Markup {
    html! {
        @if m.squash_operation_id.is_some() {
            div.originals hidden {}
        }
    }
}

/// "Show the original": the sources of operation `op` (`sources` of them), loaded under the
/// message by the page script (static/originals.js), a page at a time.
fn show_original(op: SquashOperationId, sources: usize) -> Markup {
    let count = match sources {
        0 | 1 => String::new(),
        n => format!(" ({} messages)", format_count(n as u64)),
    };
    let show = format!("Show the original{count}");
    let hide = format!("Hide the original{count}");
    html! {
        button.show-original type="button" aria-expanded="false" data-src={ "/ui/operations/" (op) "/sources" }
            data-show=(show) data-hide=(hide)
            title="Open, under this message, the messages it stands for, as they were" { (show) }
    }
}

/// "3 min ago", with the exact time as its title and machine-readable in `datetime` (the
/// page script keeps the words current while the page stays open).
pub fn time_view(at: &DateTime<Utc>, now: DateTime<Utc>) -> Markup {
    html! {
        time.rel.muted.small datetime=(at.to_rfc3339()) title=(when(at)) { (relative_time(at, now)) }
    }
}

/// How long ago `at` was, in the words people use; past a week, the date.
pub fn relative_time(at: &DateTime<Utc>, now: DateTime<Utc>) -> String {
    let seconds = (now - *at).num_seconds();
    let minutes = seconds / 60;
    let hours = minutes / 60;
    let days = hours / 24;
    match seconds {
        // A clock a little ahead of ours is still "now".
        s if s < 45 && s > -60 => "just now".to_owned(),
        s if s < 0 => at.format("%Y-%m-%d").to_string(),
        s if s < 90 => "1 min ago".to_owned(),
        _ if minutes < 60 => format!("{minutes} min ago"),
        _ if hours < 24 => format!("{hours} h ago"),
        _ if days == 1 => "yesterday".to_owned(),
        _ if days < 7 => format!("{days} days ago"),
        _ => at.format("%Y-%m-%d").to_string(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use squash_core::operation::{FlatProvenance, FlatStyle};
    use squash_core::{ConversationId, MessageId};

    /// An operation as an older record would have described it: a flag and a style.
    fn op(sources: usize, agent: bool, style: Option<FlatStyle>) -> SquashOperation {
        let flat = FlatProvenance {
            model: agent.then(|| "m".to_owned()),
            style,
            ..FlatProvenance::default()
        };
        SquashOperation::new(
            SquashOperationId::new(),
            ConversationId::new(),
            (0..sources).map(|_| MessageId::new()).collect(),
            MessageId::new(),
            OperationKind::from_legacy(agent, sources, flat),
            None,
        )
    }

    #[test]
    fn badges_say_what_happened() {
        assert_eq!(Badge::of(&op(1, false, None)).label(), "✎ edited");
        assert_eq!(
            Badge::of(&op(1, false, Some(FlatStyle::Mask))).label(),
            "▨ trimmed"
        );
        assert_eq!(
            Badge::of(&op(3, false, None)).label(),
            "◆ squashed · manual"
        );
        assert_eq!(
            Badge::of(&op(3, true, Some(FlatStyle::Structured))).label(),
            "◆ squashed · AI, structured"
        );
        assert_eq!(
            Badge::of(&op(3, false, Some(FlatStyle::Extract))).label(),
            "◆ squashed · extract"
        );
        // A fit's extract of one message is no edit.
        assert_eq!(
            Badge::of(&op(1, false, Some(FlatStyle::Extract))).label(),
            "◆ squashed · extract"
        );
    }

    #[test]
    fn relative_times() {
        let now = Utc.with_ymd_and_hms(2026, 11, 30, 12, 0, 0).unwrap();
        let ago = |s: i64| relative_time(&(now - chrono::Duration::seconds(s)), now);
        assert_eq!(ago(5), "just now");
        assert_eq!(ago(-20), "just now");
        assert_eq!(ago(60), "1 min ago");
        assert_eq!(ago(3 * 60 + 10), "3 min ago");
        assert_eq!(ago(2 * 3600 + 5), "2 h ago");
        assert_eq!(ago(30 * 3600), "yesterday");
        assert_eq!(ago(3 * 86400), "3 days ago");
        assert_eq!(ago(30 * 86400), "2026-10-31");
        assert_eq!(ago(-2 * 86400), "2026-12-02");
    }

    #[test]
    fn cards_show_relative_time_with_the_full_one_in_the_title() {
        let now = Utc.with_ymd_and_hms(2026, 11, 30, 12, 0, 0).unwrap();
        let at = now - chrono::Duration::minutes(3);
        let out = time_view(&at, now).into_string();
        assert!(out.contains(">3 min ago</time>"), "{out}");
        assert!(out.contains("title=\"2026-11-30 11:57:00 UTC\""), "{out}");
        assert!(
            out.contains("datetime=\"2026-11-30T11:57:00+00:00\""),
            "{out}"
        );
    }
}
