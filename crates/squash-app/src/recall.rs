//! Recall: the original messages behind a reference a fit or an AI squash wrote into its result
//! (`[ref 12]`, see `squash_core::recall`), verbatim and a page of lines at a time. Nothing a
//! squash takes out is deleted; this is how the agent that resumes a fitted session (through
//! `squash mcp`) or a person gets it back in one step.

use serde::Serialize;
use squash_core::operation::KindTag;
use squash_core::{ConversationId, Message, RecallRef, SquashOperationId};
use squash_store::{Entity, StoreError};

use crate::conversations::ConversationService;
use crate::error::ServiceError;

type Result<T, E = ServiceError> = std::result::Result<T, E>;

/// Lines per page when the caller names no limit: a few thousand tokens, well inside what the
/// agents accept from one tool call.
pub const DEFAULT_RECALL_LINES: usize = 200;
/// The most lines one page holds.
pub const MAX_RECALL_LINES: usize = 2_000;
/// The most characters one page holds, whatever its lines: one line can be a whole minified file.
pub const MAX_RECALL_CHARS: usize = 40_000;

/// Which lines of the originals to return.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinePage {
    /// The first line, from 0.
    pub offset: usize,
    /// How many lines at most; `None` for [`DEFAULT_RECALL_LINES`].
    pub limit: Option<usize>,
}

/// The originals behind a reference, one page of their text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Recalled {
    pub conversation_id: ConversationId,
    pub recall_ref: RecallRef,
    pub operation_id: SquashOperationId,
    /// How the result was made (`mask`: a trimmed output, `extract`: a step's or a run's
    /// extract or a digest, `ai`: a model's squash).
    pub kind: KindTag,
    /// How many original messages the reference stands for.
    pub messages: usize,
    /// The page: each original under a line naming its role and place, in thread order.
    pub text: String,
    /// The page's first line (from 0), and how many lines the originals have in all.
    pub offset: usize,
    pub total_lines: usize,
    /// Where the next page starts, when there is one.
    pub next_offset: Option<usize>,
}

impl ConversationService {
    /// The originals behind `recall` in `conversation`: the sources of the operation whose
    /// result carries it, rendered whole (tool calls with their input, outputs in full), a page
    /// of lines at a time. An unknown reference, conversation or a page past the end is refused.
    pub async fn recall(
        &self,
        conversation: ConversationId,
        recall: RecallRef,
        page: LinePage,
    ) -> Result<Recalled> {
        let limit = page.limit.unwrap_or(DEFAULT_RECALL_LINES);
        if limit == 0 || limit > MAX_RECALL_LINES {
            return Err(ServiceError::Invalid(format!(
                "a page of recalled lines holds 1 to {MAX_RECALL_LINES} lines, not {limit}"
            )));
        }
        let operation = match self.store().operation_by_ref(conversation, recall).await {
            Err(StoreError::NotFound(Entity::Operation, _)) => {
                return Err(self.unknown_ref(conversation, recall).await)
            }
            read => read?,
        };
        let sources = self.store().messages(&operation.source_message_ids).await?;
        let text = originals_text(&sources);
        let lines: Vec<&str> = text.lines().collect();
        if page.offset >= lines.len().max(1) {
            return Err(ServiceError::Invalid(format!(
                "{recall} has {} lines; a page starts at 0 to {}, not {}",
                lines.len(),
                lines.len().saturating_sub(1),
                page.offset
            )));
        }
        let (taken, end) = page_of(&lines, page.offset, limit);
        Ok(Recalled {
            conversation_id: conversation,
            recall_ref: recall,
            operation_id: operation.id,
            kind: operation.kind.tag(),
            messages: sources.len(),
            text: taken,
            offset: page.offset,
            total_lines: lines.len(),
            next_offset: (end < lines.len()).then_some(end),
        })
    }

    /// The error for a reference `conversation` does not hold, saying which it does.
    async fn unknown_ref(&self, conversation: ConversationId, recall: RecallRef) -> ServiceError {
        match self.store().next_recall_ref(conversation).await {
            Ok(next) => ServiceError::UnknownRecallRef {
                recall,
                highest: RecallRef::new(next.get() - 1),
            },
            Err(e) => e.into(),
        }
    }
}

/// The originals as one text: each under `[role · message N of M]`, whole.
fn originals_text(sources: &[Message]) -> String {
    let n = sources.len();
    sources
        .iter()
        .enumerate()
        .map(|(i, m)| {
            format!(
                "[{} · message {} of {n}]\n{}",
                m.role,
                i + 1,
                squash_core::render::message_text(m)
            )
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// Up to `limit` lines from `offset`, cut earlier at [`MAX_RECALL_CHARS`] (never below one
/// line), and where the page ends.
fn page_of(lines: &[&str], offset: usize, limit: usize) -> (String, usize) {
    let mut out = String::new();
    let mut end = offset;
    for line in lines.iter().skip(offset).take(limit) {
        if end > offset && out.len() + line.len() + 1 > MAX_RECALL_CHARS {
            break;
        }
        if end > offset {
            out.push('\n');
        }
        out.push_str(line);
        end += 1;
    }
    (out, end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_stops_at_its_limit_or_its_characters_never_below_one_line() {
        let lines: Vec<String> = (0..10).map(|i| format!("line {i}")).collect();
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        assert_eq!(page_of(&lines, 0, 3), ("line 0\nline 1\nline 2".into(), 3));
        assert_eq!(page_of(&lines, 8, 5), ("line 8\nline 9".into(), 10));
        let long = "x".repeat(MAX_RECALL_CHARS * 2);
        let big = [long.as_str(), "next"];
        let (text, end) = page_of(&big, 0, 10);
        assert_eq!((text.len(), end), (long.len(), 1));
    }
}
