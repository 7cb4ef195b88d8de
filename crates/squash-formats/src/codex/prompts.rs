//! User prompts recorded as events. Rollouts record what the person typed as a `response_item`
//! user message, as an `event_msg` (`user_message`, or `item_completed` of a `UserMessage` in
//! current releases), or both, in either order. A prompt recorded only as an event becomes a
//! user message; one recorded both ways becomes one message, the other record kept as metadata.
//! Two records are the same prompt when their texts match within one turn (before any
//! assistant item or tool output).

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};
use squash_core::{ContentItem, ImageSource, Role};

use super::build::note_on;
use super::content::prompt_text;
use super::{CodexParser, Envelope, Side};

/// The prompts of the current turn not yet matched with their second record.
#[derive(Debug, Default)]
pub(super) struct Prompts {
    /// Read as response items: (text, message index).
    from_items: Vec<(String, usize)>,
    /// Read as events only: (text, message index).
    from_events: Vec<(String, usize)>,
}

impl Prompts {
    /// A user message read from a response item, at `index` in the messages.
    pub(super) fn read_item(&mut self, items: &[ContentItem], index: usize) {
        let text = prompt_text(items);
        if !text.is_empty() {
            self.from_items.push((text, index));
        }
    }

    /// The model answered: a later record is a new prompt.
    pub(super) fn turn_moved_on(&mut self) {
        self.from_items.clear();
        self.from_events.clear();
    }

    fn take(list: &mut Vec<(String, usize)>, text: &str) -> Option<usize> {
        let at = list.iter().position(|(t, _)| t == text)?;
        Some(list.remove(at).1)
    }
}

/// The prompt an event records, if it records one: its text and attached images.
fn event_prompt_of(payload: &Value) -> Option<(String, Vec<String>)> {
    let urls = |v: Option<&Value>| -> Vec<String> {
        match v {
            Some(Value::Array(list)) => list
                .iter()
                .filter_map(|u| u.as_str().map(str::to_owned))
                .collect(),
            _ => Vec::new(),
        }
    };
    match payload.get("type").and_then(Value::as_str)? {
        "user_message" => {
            let text = payload.get("message")?.as_str()?.trim().to_owned();
            Some((text, urls(payload.get("images"))))
        }
        "item_completed" => {
            let item = payload.get("item")?;
            if item.get("type").and_then(Value::as_str) != Some("UserMessage") {
                return None;
            }
            let parts = item.get("content")?.as_array()?;
            let text: Vec<&str> = parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .map(str::trim)
                .collect();
            Some((text.join("\n"), Vec::new()))
        }
        _ => None,
    }
}

impl CodexParser {
    /// An `event_msg` line: `true` when it recorded a prompt not read otherwise, which is now
    /// a user message; `false` leaves the line to be kept as metadata.
    pub(super) fn event_prompt(
        &mut self,
        no: usize,
        time: DateTime<Utc>,
        payload: &Value,
        envelope: &Map<String, Value>,
    ) -> bool {
        let Some((text, images)) = event_prompt_of(payload) else {
            return false;
        };
        if text.is_empty() && images.is_empty() {
            return false;
        }
        if Prompts::take(&mut self.prompts.from_items, &text).is_some() {
            return false;
        }
        self.start(Side::User, Role::User, no, time);
        let mut items = vec![ContentItem::UserMessage { text: text.clone() }];
        items.extend(images.into_iter().map(|url| ContentItem::Image {
            source: ImageSource::Url { url },
        }));
        let count = items.len();
        for item in items {
            self.push_item(item);
        }
        self.note(no, time, payload.clone(), count, Some(envelope.clone()));
        self.open = None;
        self.prompts
            .from_events
            .push((text, self.messages.len() - 1));
        true
    }

    /// A user message item that repeats a prompt read from an event: kept as metadata of that
    /// message (`true`), else `false`.
    pub(super) fn prompt_already_read(
        &mut self,
        no: usize,
        time: DateTime<Utc>,
        items: &[ContentItem],
        rest: &Value,
        parts: &Value,
        envelope: &Envelope,
    ) -> bool {
        let text = prompt_text(items);
        if text.is_empty() {
            return false;
        }
        let Some(index) = Prompts::take(&mut self.prompts.from_events, &text) else {
            return false;
        };
        let mut payload = rest.clone();
        if let Some(obj) = payload.as_object_mut() {
            obj.insert("content".to_owned(), parts.clone());
        }
        if let Some(m) = self.messages.get_mut(index) {
            note_on(m, no, time, payload, 0, envelope.clone());
        }
        self.parsed.record_metadata();
        true
    }
}
