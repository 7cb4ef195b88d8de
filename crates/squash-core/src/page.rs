//! Pages of a thread: which positions a read returns when a thread is too long to read whole.
//!
//! Positions here are 1-based, as people see them (`@1` is the first message). A cursor names a
//! position and the page lies strictly before or after it, so paging on from a page's first or
//! last position never repeats a message. The rule is pure and shared by both stores: they
//! resolve the window against the thread's length, then read that range.

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};

use crate::ids::MessageId;

/// The most messages one read returns. A page bigger than this is cut to it, and the answer
/// says so through its [`PageSpan`]: never a silent truncation.
pub const MAX_PAGE: u32 = 2_000;

/// Where a page lies in its thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PageAnchor {
    /// The last `limit` messages: where a conversation continues.
    Last,
    /// The first `limit` messages.
    First,
    /// The `limit` messages before this position (exclusive).
    Before { position: u64 },
    /// The `limit` messages after this position (exclusive).
    After { position: u64 },
    /// `limit` messages with this position about a third of the way down, so that what led up
    /// to it is visible too.
    Around { position: u64 },
    /// As `Around`, at the position of this message in the thread.
    AroundMessage { message: MessageId },
}

/// A request for part of a thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageWindow {
    pub anchor: PageAnchor,
    /// Capped to [`MAX_PAGE`]; 0 reads nothing (the header and totals only).
    pub limit: u32,
}

impl PageWindow {
    pub fn last(limit: u32) -> PageWindow {
        PageWindow {
            anchor: PageAnchor::Last,
            limit,
        }
    }

    /// The whole thread if it has at most [`MAX_PAGE`] messages, else its last [`MAX_PAGE`].
    pub fn whole() -> PageWindow {
        PageWindow::last(MAX_PAGE)
    }

    fn limit(&self) -> u64 {
        u64::from(self.limit.min(MAX_PAGE))
    }

    /// The positions this window covers in a thread of `total` messages, given the position
    /// of the anchoring message for [`PageAnchor::AroundMessage`] (which the store looks up).
    /// `None` when the window holds nothing.
    pub fn resolve(
        &self,
        total: u64,
        message_position: Option<u64>,
    ) -> Option<RangeInclusive<u64>> {
        let limit = self.limit();
        if limit == 0 || total == 0 {
            return None;
        }
        let (first, last) = match self.anchor {
            PageAnchor::Last => (total.saturating_sub(limit) + 1, total),
            PageAnchor::First => (1, limit.min(total)),
            PageAnchor::Before { position } => {
                let end = position.saturating_sub(1).min(total);
                (end.saturating_sub(limit) + 1, end)
            }
            PageAnchor::After { position } => {
                let start = position.saturating_add(1);
                (start, start.saturating_add(limit - 1).min(total))
            }
            PageAnchor::Around { position } => around(position, limit, total),
            PageAnchor::AroundMessage { .. } => around(message_position?, limit, total),
        };
        (first >= 1 && first <= last).then_some(first..=last)
    }
}

fn around(position: u64, limit: u64, total: u64) -> (u64, u64) {
    let position = position.clamp(1, total);
    let before = limit / 3;
    let first = position.saturating_sub(before).max(1);
    let last = first.saturating_add(limit - 1).min(total);
    // Near the end, the page still holds `limit` messages where the thread has them.
    let first = last.saturating_sub(limit - 1).max(1);
    (first, last)
}

/// What part of the thread a page holds, for the reader to page on from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageSpan {
    /// The position of the page's first message; with `count` 0, where it would have been.
    pub first: u64,
    pub count: u64,
    /// The thread's length.
    pub total: u64,
}

impl PageSpan {
    pub fn of(range: Option<&RangeInclusive<u64>>, total: u64) -> PageSpan {
        match range {
            Some(r) => PageSpan {
                first: *r.start(),
                count: r.end() - r.start() + 1,
                total,
            },
            None => PageSpan {
                first: total + 1,
                count: 0,
                total,
            },
        }
    }

    /// The position of the page's last message (`first - 1` for an empty page).
    pub fn last(&self) -> u64 {
        (self.first + self.count).saturating_sub(1)
    }

    /// Whether messages come before this page.
    pub fn has_before(&self) -> bool {
        self.count > 0 && self.first > 1
    }

    /// Whether messages come after this page.
    pub fn has_after(&self) -> bool {
        self.count > 0 && self.last() < self.total
    }

    /// Whether the page is the whole thread.
    pub fn is_whole(&self) -> bool {
        self.count == self.total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(anchor: PageAnchor, limit: u32) -> PageWindow {
        PageWindow { anchor, limit }
    }

    #[test]
    fn last_and_first() {
        assert_eq!(
            PageWindow::last(100).resolve(10_000, None),
            Some(9_901..=10_000)
        );
        assert_eq!(PageWindow::last(100).resolve(7, None), Some(1..=7));
        assert_eq!(window(PageAnchor::First, 3).resolve(7, None), Some(1..=3));
        assert_eq!(PageWindow::last(100).resolve(0, None), None);
        assert_eq!(PageWindow::last(0).resolve(10, None), None);
    }

    #[test]
    fn before_and_after_are_exclusive_and_clamped() {
        let before = |p| window(PageAnchor::Before { position: p }, 10);
        assert_eq!(before(50).resolve(100, None), Some(40..=49));
        assert_eq!(before(5).resolve(100, None), Some(1..=4));
        assert_eq!(before(1).resolve(100, None), None);
        assert_eq!(before(500).resolve(100, None), Some(91..=100));
        let after = |p| window(PageAnchor::After { position: p }, 10);
        assert_eq!(after(0).resolve(100, None), Some(1..=10));
        assert_eq!(after(95).resolve(100, None), Some(96..=100));
        assert_eq!(after(100).resolve(100, None), None);
        assert_eq!(after(u64::MAX).resolve(100, None), None);
    }

    #[test]
    fn paging_on_never_repeats_or_skips() {
        let total = 1_234;
        let mut seen = Vec::new();
        let mut range = PageWindow::last(100).resolve(total, None);
        while let Some(r) = range {
            seen.extend(r.clone().rev());
            range = window(
                PageAnchor::Before {
                    position: *r.start(),
                },
                100,
            )
            .resolve(total, None);
        }
        seen.reverse();
        assert_eq!(seen, (1..=total).collect::<Vec<_>>());
    }

    #[test]
    fn around_shows_what_led_up_and_stays_full_near_the_ends() {
        let around = |p| window(PageAnchor::Around { position: p }, 30);
        assert_eq!(around(500).resolve(1_000, None), Some(490..=519));
        assert_eq!(around(2).resolve(1_000, None), Some(1..=30));
        assert_eq!(around(999).resolve(1_000, None), Some(971..=1_000));
        assert_eq!(around(0).resolve(10, None), Some(1..=10));
        let at = window(
            PageAnchor::AroundMessage {
                message: MessageId::new(),
            },
            30,
        );
        assert_eq!(at.resolve(1_000, Some(500)), Some(490..=519));
        assert_eq!(at.resolve(1_000, None), None);
    }

    #[test]
    fn limits_are_capped() {
        let r = PageWindow::last(u32::MAX).resolve(1_000_000, None);
        assert_eq!(r, Some(1_000_000 - u64::from(MAX_PAGE) + 1..=1_000_000));
    }

    #[test]
    fn spans() {
        let s = PageSpan::of(Some(&(41..=50)), 100);
        assert_eq!((s.first, s.count, s.last()), (41, 10, 50));
        assert!(s.has_before() && s.has_after() && !s.is_whole());
        let whole = PageSpan::of(Some(&(1..=3)), 3);
        assert!(!whole.has_before() && !whole.has_after() && whole.is_whole());
        let empty = PageSpan::of(None, 0);
        assert!(empty.is_whole() && !empty.has_before());
    }
}
