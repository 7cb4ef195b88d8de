//! Recall: the original messages behind a reference a fit or an AI squash wrote into its result
//! (`[ref 12]`, see `squash_core::recall`), verbatim and a page of lines at a time. Nothing a
//! squash takes out is deleted; this is how the agent that resumes a fitted session (through
//! `squash mcp`) or a person gets it back in one step.

use serde::Serialize;
use squash_core::operation::KindTag;
use squash_core::{ConversationId, RecallRef, SquashOperationId};
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
    /// The page's first line (from 0).
    pub offset: usize,
    /// How many lines the originals have in all, when the page reached their end (a page of
    /// a digest of thousands of messages reads only as far as it shows).
    pub total_lines: Option<usize>,
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
        let target = match self.store().recall_target(conversation, recall).await {
            Err(StoreError::NotFound(Entity::Operation, _)) => {
                return Err(self.unknown_ref(conversation, recall).await)
            }
            read => read?,
        };
        let mut page_text = Pager::new(page.offset, limit);
        let n = target.sources;
        let mut at = 0u64;
        // A full page reads no further sources; the lines of those it read are counted.
        while at < n && !page_text.full {
            let ids = self
                .store()
                .operation_source_ids(target.id, at, READ_CHUNK)
                .await?;
            if ids.is_empty() {
                break;
            }
            let first = at;
            for (i, m) in self.store().messages(&ids).await?.iter().enumerate() {
                let number = first + i as u64 + 1;
                if number > 1 {
                    page_text.line("");
                }
                page_text.line(&format!("[{} · message {number} of {n}]", m.role));
                for line in squash_core::render::message_text(m).lines() {
                    page_text.line(line);
                }
            }
            // Counted by the ids read, so that the loop moves on whatever the store returned.
            at += ids.len() as u64;
        }
        let read_all = at >= n;
        let (text, next_offset, total_lines) = page_text.finish(read_all);
        if text.is_empty() && page.offset > 0 {
            let lines = total_lines.unwrap_or(page.offset);
            return Err(ServiceError::Invalid(format!(
                "{recall} has {lines} lines; a page starts at 0 to {}, not {}",
                lines.saturating_sub(1),
                page.offset
            )));
        }
        Ok(Recalled {
            conversation_id: conversation,
            recall_ref: recall,
            operation_id: target.id,
            kind: target.kind,
            messages: n as usize,
            text,
            offset: page.offset,
            total_lines,
            next_offset,
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

/// Sources read from the store at a time: a page of a digest of thousands of messages reads
/// only as far as it shows.
const READ_CHUNK: u32 = 32;

/// Lines of the originals, in order, kept from `offset` on until the page holds `limit` lines
/// or [`MAX_RECALL_CHARS`] (never fewer than one line).
struct Pager {
    offset: usize,
    limit: usize,
    /// Lines counted, and the first one the page did not take.
    seen: usize,
    next: usize,
    text: String,
    taken: usize,
    full: bool,
}

impl Pager {
    fn new(offset: usize, limit: usize) -> Pager {
        Pager {
            offset,
            limit,
            seen: 0,
            next: 0,
            text: String::new(),
            taken: 0,
            full: false,
        }
    }

    /// Counts the next line, and keeps it when the page has room.
    fn line(&mut self, line: &str) {
        if self.seen >= self.offset && !self.full {
            let over = self.taken == self.limit
                || (self.taken > 0 && self.text.len() + line.len() + 1 > MAX_RECALL_CHARS);
            if over {
                self.full = true;
            } else {
                if self.taken > 0 {
                    self.text.push('\n');
                }
                self.text.push_str(line);
                self.taken += 1;
            }
        }
        if !self.full {
            self.next = self.seen + 1;
        }
        self.seen += 1;
    }

    /// The page, where the next one starts, and how many lines there are in all when every line
    /// was counted (`read_all`).
    fn finish(self, read_all: bool) -> (String, Option<usize>, Option<usize>) {
        let total = read_all.then_some(self.seen);
        let next = (self.full || !read_all).then_some(self.next);
        (self.text, next, total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(lines: &[&str], offset: usize, limit: usize) -> (String, Option<usize>, Option<usize>) {
        let mut p = Pager::new(offset, limit);
        for l in lines {
            p.line(l);
        }
        p.finish(true)
    }

    #[test]
    fn a_page_stops_at_its_limit_or_its_characters_never_below_one_line() {
        let lines: Vec<String> = (0..10).map(|i| format!("line {i}")).collect();
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        assert_eq!(
            page(&lines, 0, 3),
            ("line 0\nline 1\nline 2".into(), Some(3), Some(10))
        );
        assert_eq!(
            page(&lines, 8, 5),
            ("line 8\nline 9".into(), None, Some(10))
        );
        assert_eq!(
            page(&lines, 7, 3),
            ("line 7\nline 8\nline 9".into(), None, Some(10))
        );
        assert_eq!(page(&lines, 12, 3), (String::new(), None, Some(10)));
        let long = "x".repeat(MAX_RECALL_CHARS * 2);
        let big = [long.as_str(), "next"];
        let (text, next, total) = page(&big, 0, 10);
        assert_eq!((text.len(), next, total), (long.len(), Some(1), Some(2)));
        // Not every line counted: where the next page starts, not how many there are.
        let mut p = Pager::new(0, 2);
        for l in &lines[..5] {
            p.line(l);
        }
        assert_eq!(p.finish(false), ("line 0\nline 1".into(), Some(2), None));
    }
}
