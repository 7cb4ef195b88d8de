//! Recall references: the short number a fit or an AI squash writes where it took something
//! out of the thread, so that whoever reads the thread — the resumed agent through the `recall`
//! tool of `squash mcp`, or a person through `squash recall` and the web — can ask for the
//! original messages behind it in one step. Nothing is deleted by a squash; the reference is
//! what makes that true for the agent too.
//!
//! References count per conversation from 1 (the store keeps them unique there), so they stay
//! one or two tokens where a UUID would cost twenty. The first mark of a fitted thread also
//! says, once, how to use them.

use crate::ids::RecallRef;
use crate::message::{ContentItem, Role};
use crate::tokens::estimate_tokens;

/// How a result carries its reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    pub recall: RecallRef,
    /// The first mark of a thread (in thread order) also says how to use references.
    pub first: bool,
}

/// Said once, with the first mark of a thread.
const HOW: &str = "shortened by Squash: the recall tool returns the original of any [ref N] \
                   verbatim, and search looks through everything said before";

impl Mark {
    /// What a text result ends with: ` [ref 12]`, or on the first mark of a thread the
    /// reference with how to use it, on a line of its own.
    pub fn suffix(&self) -> String {
        if self.first {
            format!("\n[{}: {HOW}]", self.recall)
        } else {
            format!(" [{}]", self.recall)
        }
    }

    /// `text` with the mark after it.
    pub fn apply(&self, text: &str) -> String {
        format!("{}{}", text.trim_end(), self.suffix())
    }

    /// What a trim's marker ends with in place of "the full text stays in the history".
    pub fn inline(&self) -> String {
        if self.first {
            format!("{}: {HOW}", self.recall)
        } else {
            self.recall.to_string()
        }
    }
}

impl Mark {
    /// The mark plans price: a plain one, as wide as references get.
    pub const PRICED: Mark = Mark {
        recall: RecallRef::PRICED,
        first: false,
    };

    /// Marks for results whose first positions in the thread are `positions` (in any order):
    /// references counted from `next` in thread order, the earliest one the thread's first mark.
    pub fn assign(positions: &[usize], next: RecallRef) -> Vec<Mark> {
        let mut order: Vec<usize> = (0..positions.len()).collect();
        order.sort_by_key(|&i| positions[i]);
        let mut marks = vec![
            Mark {
                recall: next,
                first: false,
            };
            positions.len()
        ];
        for (rank, &i) in order.iter().enumerate() {
            let n = next.get().saturating_add(rank as u32);
            marks[i] = Mark {
                recall: RecallRef::new(n).unwrap_or(next),
                first: rank == 0,
            };
        }
        marks
    }
}

/// `content` (a result of `role`) with `mark` after its last text, or as a text of its own
/// when it has none.
pub fn marked(content: &[ContentItem], role: Role, mark: Mark) -> Vec<ContentItem> {
    let mut out = content.to_vec();
    let last_text = out.iter_mut().rev().find_map(|item| match item {
        ContentItem::UserMessage { text } => Some(text),
        ContentItem::AssistantMessage { structured } => Some(&mut structured.full_text),
        _ => None,
    });
    match last_text {
        Some(text) => *text = mark.apply(text),
        None => out.push(ContentItem::text_for(role, mark.suffix().trim_start())),
    }
    out
}

/// The most a plain mark costs, for plans made before references are given.
pub fn mark_tokens() -> u64 {
    estimate_tokens(&Mark::PRICED.suffix())
}

/// What the first mark costs beyond a plain one: said once per fitted thread.
pub fn how_tokens() -> u64 {
    let first = Mark {
        first: true,
        ..Mark::PRICED
    };
    estimate_tokens(&first.suffix()).saturating_sub(mark_tokens())
}

/// The references a text holds, in order, each once (`[ref 12]`, and `ref 12` inside a trim's
/// marker).
pub fn refs_in(text: &str) -> Vec<RecallRef> {
    let mut out: Vec<RecallRef> = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("ref ") {
        let after = &rest[at + 4..];
        let digits: &str = &after[..after
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(after.len())];
        let preceded = rest[..at]
            .chars()
            .next_back()
            .is_none_or(|c| c == '[' || c == ' ' || c == ';');
        if preceded {
            if let Some(r) = digits.parse().ok().and_then(RecallRef::new) {
                if !out.contains(&r) {
                    out.push(r);
                }
            }
        }
        rest = &rest[at + 4..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reference_reads_in_every_form_a_thread_shows() {
        for s in [
            "12",
            "ref 12",
            "[ref 12]",
            " [ref 12] ",
            "#12",
            "r12",
            "ref:12",
        ] {
            assert_eq!(
                s.parse::<RecallRef>(),
                Ok(RecallRef::new(12).unwrap()),
                "{s}"
            );
        }
        for s in ["", "0", "ref", "-3", "12a", "ref 1.5", "99999999999"] {
            assert!(s.parse::<RecallRef>().is_err(), "{s}");
        }
    }

    #[test]
    fn the_first_mark_says_how_and_the_others_are_a_few_tokens() {
        let r = RecallRef::new(7).unwrap();
        let plain = Mark {
            recall: r,
            first: false,
        };
        assert_eq!(
            plain.apply("Ran `cargo test` → ok  "),
            "Ran `cargo test` → ok [ref 7]"
        );
        assert!(estimate_tokens(&plain.suffix()) <= mark_tokens());
        let first = Mark {
            recall: r,
            first: true,
        };
        let text = first.apply("Ran it");
        assert!(text.contains("[ref 7: shortened by Squash") && text.contains("recall tool"));
        assert!(estimate_tokens(&first.suffix()) <= mark_tokens() + how_tokens());
        assert_eq!(refs_in(&text), vec![r]);
    }

    #[test]
    fn marks_count_in_thread_order_and_the_earliest_says_how() {
        let marks = Mark::assign(&[30, 4, 12], RecallRef::new(7).unwrap());
        let refs: Vec<u32> = marks.iter().map(|m| m.recall.get()).collect();
        assert_eq!(refs, vec![9, 7, 8]);
        let firsts: Vec<bool> = marks.iter().map(|m| m.first).collect();
        assert_eq!(firsts, vec![false, true, false]);
        assert!(Mark::assign(&[], RecallRef::FIRST).is_empty());
    }

    #[test]
    fn refs_are_found_in_marks_and_trim_markers_only() {
        let text = "a [ref 3] b; ref 4] prefer 5 [ref 3] xref 9 [ref 0]";
        assert_eq!(
            refs_in(text),
            vec![RecallRef::new(3).unwrap(), RecallRef::new(4).unwrap()]
        );
    }
}
