use thiserror::Error;

use crate::ids::MessageId;

/// Why a thread operation cannot be computed. Each variant is the caller's mistake (bad input);
/// nothing was changed.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum DomainError {
    #[error("a squash needs at least 2 distinct messages, got {0}")]
    TooFewMessages(usize),
    #[error("message {0} was selected more than once")]
    DuplicateMessage(MessageId),
    #[error("message {0} is not in the current thread")]
    NotInThread(MessageId),
    #[error("no message selected")]
    EmptySelection,
    #[error("the text is empty")]
    EmptyText,
    #[error("message content is empty")]
    EmptyContent,
    #[error(
        "message {message} holds the tool {side} of `{tool_use_id}`, whose {partner_side} is in message {partner}; \
         select both or neither"
    )]
    SplitToolPair {
        message: MessageId,
        partner: MessageId,
        tool_use_id: String,
        side: &'static str,
        partner_side: &'static str,
    },
    #[error("the edit drops tool call `{tool_use_id}`, whose result is in message {partner}")]
    EditBreaksToolPair {
        tool_use_id: String,
        partner: MessageId,
    },
    #[error("dropped positions must be strictly ascending")]
    DropsNotAscending,
    #[error("position {position} is past the thread's {count} links")]
    PositionPastEnd { position: u64, count: u64 },
    #[error("position {0} is both replaced and dropped")]
    ReplacedAndDropped(u64),
    #[error("a replaced position needs the operation's new message")]
    ReplacementMissing,
}
