//! How the answers both interfaces print are serialized: `squash --json` and the HTTP API
//! serialize the same types ([`OperationOutcome`], [`ThreadView`], [`crate::SquashResult`],
//! [`crate::ChatTurn`]), so the two give the same shape.

use std::time::Duration;

use serde::ser::SerializeSeq;
use serde::{Serialize, Serializer};
use squash_core::page::PageSpan;
use squash_core::thread_ops::PartnerAdded;
use squash_core::{Conversation, ConversationId, Message, MessageId, SquashOperation, Thread};

use crate::conversations::OperationOutcome;
use crate::reading::ThreadView;

/// `{conversation, thread, tokens, page, messages}`, each message with its own `tokens` and
/// its 1-based `position` in the thread; `page` says which part of the thread `messages` are.
impl<M: Serialize> Serialize for ThreadView<M> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct View<'a, M> {
            conversation: &'a Conversation,
            thread: &'a Thread,
            tokens: u64,
            page: Page,
            messages: Positioned<'a, M>,
        }
        #[derive(Serialize)]
        struct Page {
            #[serde(flatten)]
            span: PageSpan,
            has_before: bool,
            has_after: bool,
        }
        View {
            conversation: &self.conversation,
            thread: &self.thread,
            tokens: self.tokens,
            page: Page {
                span: self.span,
                has_before: self.span.has_before(),
                has_after: self.span.has_after(),
            },
            messages: Positioned {
                first: self.span.first,
                messages: &self.messages,
                tokens: &self.message_tokens,
            },
        }
        .serialize(s)
    }
}

/// Messages as `[{...message, position, tokens}]`.
struct Positioned<'a, M> {
    first: u64,
    messages: &'a [M],
    tokens: &'a [u64],
}

impl<M: Serialize> Serialize for Positioned<'_, M> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct MessageWithTokens<'a, M> {
            #[serde(flatten)]
            message: &'a M,
            position: u64,
            tokens: u64,
        }
        let mut seq = s.serialize_seq(Some(self.messages.len()))?;
        for ((position, message), &tokens) in (self.first..).zip(self.messages).zip(self.tokens) {
            seq.serialize_element(&MessageWithTokens {
                message,
                position,
                tokens,
            })?;
        }
        seq.end()
    }
}

/// `{conversation_id, thread, message, operation, sources, added_partners, reapplied}`.
impl Serialize for OperationOutcome {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Outcome<'a> {
            conversation_id: ConversationId,
            thread: &'a Thread,
            message: &'a Option<Message>,
            operation: &'a Option<SquashOperation>,
            sources: &'a [MessageId],
            #[serde(serialize_with = "partners")]
            added_partners: &'a [PartnerAdded],
            reapplied: u32,
        }
        Outcome {
            conversation_id: self.conversation_id,
            thread: &self.thread,
            message: &self.message,
            operation: &self.operation,
            sources: &self.sources,
            added_partners: &self.added_partners,
            reapplied: self.reapplied,
        }
        .serialize(s)
    }
}

/// Tool partners as `[{message, partner_of, tool_use_id, side}]`.
pub(crate) fn partners<S: Serializer>(list: &[PartnerAdded], s: S) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Partner<'a> {
        message: MessageId,
        partner_of: MessageId,
        tool_use_id: &'a str,
        side: &'a str,
    }
    let mut seq = s.serialize_seq(Some(list.len()))?;
    for p in list {
        seq.serialize_element(&Partner {
            message: p.message,
            partner_of: p.partner_of,
            tool_use_id: &p.tool_use_id,
            side: p.side,
        })?;
    }
    seq.end()
}

/// A duration as whole milliseconds.
pub(crate) fn as_millis<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u64(u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}
