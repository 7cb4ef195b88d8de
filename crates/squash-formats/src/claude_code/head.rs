//! A user or assistant line of a streamed read, read for the structure alone.
//!
//! A streamed import makes its messages later, by reading their lines again, so its first pass
//! needs of a message line only its links, flags, time and [`Facts`]. Read into borrowed fields,
//! such a line makes no JSON tree and copies none of its text: the first pass is the serial
//! part of an import, and a 1 GB session's temporaries were what its memory was made of.
//! Whatever this reading is not sure to see as the full one does (another line type, a
//! compaction, an image, a field of an unexpected type, a repeated key) is left to the full
//! reading ([`convert`](super::lines::convert)): [`message_line`] answers `None`.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;
use squash_core::Role;

use super::keys::Keys;
use super::lines::{text_digest, Body, Facts, ItemFact, LineAt, LineRecord, MessageLine};
use crate::anthropic_json::ToolNames;
use crate::fields::parse_time_text;

/// What a line says of itself, beyond its message.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Head<'a> {
    #[serde(rename = "type", borrow)]
    kind: Option<Cow<'a, str>>,
    #[serde(borrow)]
    uuid: Option<Cow<'a, str>>,
    #[serde(borrow)]
    parent_uuid: Option<Cow<'a, str>>,
    #[serde(borrow)]
    agent_id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    session_id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    subtype: Option<Cow<'a, str>>,
    is_sidechain: Option<bool>,
    is_meta: Option<bool>,
    is_compact_summary: Option<bool>,
    #[serde(borrow)]
    timestamp: Option<Cow<'a, str>>,
    #[serde(borrow)]
    cwd: Option<Cow<'a, str>>,
    #[serde(borrow)]
    message: Option<MessageHead<'a>>,
}

#[derive(Deserialize)]
struct MessageHead<'a> {
    #[serde(borrow)]
    id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    content: Option<Content<'a>>,
}

/// A message's `content`: a text or blocks (anything else is the full reading's to report).
enum Content<'a> {
    Text(Cow<'a, str>),
    Blocks(Vec<Block<'a>>),
}

/// A content block's fields that decide its item; the rest (a result's output, a call's
/// input other than a sub-agent's prompt) is skipped unread.
#[derive(Deserialize)]
struct Block<'a> {
    #[serde(rename = "type", borrow)]
    kind: Option<Cow<'a, str>>,
    #[serde(borrow)]
    text: Option<Cow<'a, str>>,
    thinking: Option<AnyText>,
    #[serde(borrow)]
    id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    tool_use_id: Option<Cow<'a, str>>,
    is_error: Option<bool>,
    #[serde(borrow)]
    input: Option<Input<'a>>,
}

/// What [`Facts`] keep of a call's input: a sub-agent's prompt and description.
#[derive(Deserialize)]
struct Input<'a> {
    #[serde(borrow)]
    prompt: Option<Cow<'a, str>>,
    #[serde(borrow)]
    description: Option<Cow<'a, str>>,
}

/// A text whose content does not matter, read without being kept.
struct AnyText;

/// What [`message_line`] read: the record, and the session the line names.
pub(super) struct HeadLine<'a> {
    pub record: LineRecord,
    pub session_id: Option<Cow<'a, str>>,
}

/// The record of the user or assistant line `text` at `at`, as [`convert`](super::lines::convert)
/// makes it with its content dropped; `None` when the line is for the full reading.
pub(super) fn message_line<'a>(
    at: LineAt,
    text: &'a str,
    names: &mut ToolNames,
    keys: &mut Keys,
) -> Option<HeadLine<'a>> {
    let head: Head<'a> = serde_json::from_str(text).ok()?;
    let role = match head.kind.as_deref()? {
        "user" => Role::User,
        "assistant" => Role::Assistant,
        _ => return None,
    };
    if head.uuid.is_none() || head.subtype.as_deref() == Some("compact_boundary") {
        return None;
    }
    let message = head.message?;
    let items = items_of(role, message.content.as_ref())?;
    for item in &items {
        if let ItemFact::Call { id, name, .. } = item {
            names.insert((*id).to_owned(), (*name).to_owned());
        }
    }
    let injected = head.is_meta == Some(true) || head.is_compact_summary == Some(true);
    let facts = Facts::from_items(items.into_iter(), injected, head.cwd.as_deref());
    let mut key = |k: &Option<Cow<str>>| k.as_deref().map(|t| keys.intern(t));
    let record = LineRecord {
        no: at.no,
        uuid: key(&head.uuid),
        parent: key(&head.parent_uuid),
        boundary: None,
        sidechain: head.is_sidechain == Some(true),
        agent_id: key(&head.agent_id),
        is_meta: head.is_meta == Some(true),
        timestamp: head.timestamp.as_deref().and_then(parse_time_text),
        body: Body::Message(Box::new(MessageLine {
            role,
            api_id: message.id.as_deref().map(text_digest),
            at,
            facts,
            content: None,
        })),
    };
    Some(HeadLine {
        record,
        session_id: head.session_id,
    })
}

/// The items' facts as [`content_to_items`](crate::anthropic_json::content_to_items) and
/// [`block_to_item`](crate::anthropic_json::block_to_item) would make the items; `None` for an
/// image, whose item depends on its source's shape.
fn items_of<'c>(role: Role, content: Option<&'c Content<'_>>) -> Option<Vec<ItemFact<'c>>> {
    let text = |t: &'c str| match role {
        Role::User => ItemFact::UserText(t),
        _ => ItemFact::Other,
    };
    let blocks = match content {
        None => return Some(Vec::new()),
        Some(Content::Text(t)) => return Some(vec![text(t)]),
        Some(Content::Blocks(blocks)) => blocks,
    };
    blocks
        .iter()
        .map(|b| {
            Some(match b.kind.as_deref() {
                Some("text") => b.text.as_deref().map_or(ItemFact::Unknown, text),
                Some("thinking") if b.thinking.is_some() => ItemFact::Thinking,
                Some("tool_use") => match (b.id.as_deref(), b.name.as_deref()) {
                    (Some(id), Some(name)) => {
                        let input = b.input.as_ref();
                        ItemFact::Call {
                            id,
                            name,
                            prompt: input.and_then(|i| i.prompt.as_deref()).unwrap_or(""),
                            description: input.and_then(|i| i.description.as_deref()).unwrap_or(""),
                        }
                    }
                    _ => ItemFact::Unknown,
                },
                Some("tool_result") => match b.tool_use_id.as_deref() {
                    Some(id) => ItemFact::Result {
                        id,
                        is_error: b.is_error == Some(true),
                    },
                    None => ItemFact::Unknown,
                },
                Some("image") => return None,
                _ => ItemFact::Unknown,
            })
        })
        .collect()
}

impl<'de: 'a, 'a> Deserialize<'de> for Content<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ContentVisitor;
        impl<'de> Visitor<'de> for ContentVisitor {
            type Value = Content<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a text or an array of content blocks")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Content::Text(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Content::Text(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(Content::Text(Cow::Owned(v)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut blocks = Vec::with_capacity(seq.size_hint().unwrap_or(0));
                while let Some(block) = seq.next_element()? {
                    blocks.push(block);
                }
                Ok(Content::Blocks(blocks))
            }
        }
        d.deserialize_any(ContentVisitor)
    }
}

impl<'de> Deserialize<'de> for AnyText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct TextVisitor;
        impl Visitor<'_> for TextVisitor {
            type Value = AnyText;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a text")
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<AnyText, E> {
                Ok(AnyText)
            }
        }
        d.deserialize_str(TextVisitor)
    }
}

#[cfg(test)]
#[path = "head_tests.rs"]
mod tests;
