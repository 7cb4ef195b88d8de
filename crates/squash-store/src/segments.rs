//! How a thread's links are stored: **segments** (runs of the links kept by the threads that
//! first held them) plus a **tail** of its own — the tables, the SQL both backends read them
//! with, and how a derived thread's segments are cut from its base's. What a derived thread
//! holds is the domain's copy-on-write rule ([`LinkEdit`], computed in `squash-core`); this
//! module only stores it, written once here and run by SQLite and PostgreSQL alike.
//!
//! # Storage
//!
//! Each link is stored once, in the **own storage** of the thread that first held it: rows
//! `thread_messages(thread_key, position, message_key)`, where `position` is an *offset* in that
//! thread's own storage (dense from 0), not necessarily a position in any thread.
//!
//! A thread's positions `0..message_count` are, in order:
//!
//! 1. its **segments** (`thread_segments(thread_key, start, length, source_thread_key,
//!    source_offset)`): positions `start..start+length` are the links at offsets
//!    `source_offset..source_offset+length` of `source_thread_key`'s own storage — a run the
//!    thread shares with the thread that stored it (an ancestor, or itself);
//! 2. its **tail** (`threads.tail_start`, `threads.tail_offset`): positions
//!    `tail_start..message_count` are its own offsets from `tail_offset` on.
//!
//! An initial thread is all tail (`tail_start = tail_offset = 0`, no segments), which is also
//! what every thread stored before this layout is, so existing databases migrate by adding the
//! two columns with a default of 0 and the empty table: nothing is copied.
//!
//! # The operations and what they cost
//!
//! * **Append** writes the link at offset `tail_offset + (message_count - tail_start)` of the
//!   current thread's own storage and bumps the count: one row, as before.
//! * **Squash, edit, delete** ([`LinkEdit`]) derive a thread from the base's runs (its segments
//!   and its tail, read as one list) by [`derive`]: each run is cut where a position is dropped
//!   or replaced; a replaced position becomes the new thread's own offset 0 (the new message).
//!   The new thread stores its runs as segments and starts an empty tail after them. The work
//!   and the rows written are O(segments of the base + positions changed), whatever the
//!   thread's length: a squash of 3 messages of a 100,000-message imported thread writes a
//!   thread row, 4–5 segment rows and 1 link.
//! * Every derivation adds at most two segments, so a thread that went through many operations
//!   has many. Past [`MAX_SEGMENTS`] the derived thread is **copied** instead
//!   ([`Derived::Copied`]): its own storage receives every link, range by range
//!   (`INSERT … SELECT` inside the database), and it has no segments. That costs the thread's
//!   length once per [`MAX_SEGMENTS`]/2 operations at least, and bounds the reads below.
//! * A whole new list ([`crate::NewLinks::List`], an import) is stored as own links: a tail.
//!
//! # Reads
//!
//! * A thread, or a range of its positions (a page): the `thread_links` SQL below joins
//!   the runs that overlap the range to the own-storage rows of their sources, each run an
//!   index range scan clipped to the range; the order is (run start, offset).
//! * The position of a message in a thread (`@N`, a page around a message, a reply's question,
//!   a search hit): the message's own-storage rows (`thread_messages_by_message`, mostly one
//!   row), each mapped through the thread's tail or the one segment of its source that could
//!   cover it (`thread_segments_by_source`: the last segment of that source starting at or
//!   before the offset) — two index probes, whatever the thread's length.
//! * Search keeps one index row per stored link, not per thread link: a derived thread adds no
//!   search rows.
//! * Provenance (operations, their sources and threads) does not depend on the layout.
//!
//! Threads never change except the current thread's tail by appends, so a segment's source
//! rows never move: a segment stays valid for as long as the database lives (a conversation is
//! deleted with all its threads, segments and own storage together).

use squash_core::LinkEdit;

/// The runs of the thread whose key is the SQL expression `$t`: its segments, then its tail,
/// as rows `(start, length, src, off)`. Plain SQL, the same in both dialects.
macro_rules! thread_runs {
    ($t:literal) => {
        concat!(
            "(SELECT s.start AS start, s.length AS length, s.source_thread_key AS src, \
                     s.source_offset AS off \
              FROM thread_segments s WHERE s.thread_key = ",
            $t,
            " UNION ALL SELECT r.tail_start, r.message_count - r.tail_start, r.key, r.tail_offset \
              FROM threads r WHERE r.key = ",
            $t,
            " AND r.message_count > r.tail_start)"
        )
    };
}

/// The dialect's (`sqlite` or `postgres`) two-argument maximum.
macro_rules! greatest {
    (sqlite) => {
        "max"
    };
    (postgres) => {
        "GREATEST"
    };
}

/// The dialect's two-argument minimum.
macro_rules! least {
    (sqlite) => {
        "min"
    };
    (postgres) => {
        "LEAST"
    };
}

/// The links at positions `$low..=$high` of the thread whose key is `$t`, as rows
/// `(position, message_key)`, in the SQL of `$dialect` (`sqlite` or `postgres`): each
/// overlapping run an index range scan of its source's own storage, clipped to the range.
/// Unordered: the caller orders by `position`.
macro_rules! thread_links {
    ($dialect:ident, $t:literal, $low:literal, $high:literal) => {
        concat!(
            "(SELECT ru.start + tm.position - ru.off AS position, tm.message_key AS message_key \
              FROM ",
            $crate::segments::thread_runs!($t),
            " ru JOIN thread_messages tm ON tm.thread_key = ru.src \
               AND tm.position BETWEEN ru.off + ",
            $crate::segments::greatest!($dialect),
            "(",
            $low,
            " - ru.start, 0) AND ru.off + ",
            $crate::segments::least!($dialect),
            "(",
            $high,
            " - ru.start, ru.length - 1) \
              WHERE ru.start <= ",
            $high,
            " AND ru.start + ru.length > ",
            $low,
            ")"
        )
    };
}

/// Every link of the thread whose key is `$t` (see [`thread_links`]).
macro_rules! all_thread_links {
    ($dialect:ident, $t:literal) => {
        $crate::segments::thread_links!($dialect, $t, "0", "9223372036854775807")
    };
}

pub(crate) use {all_thread_links, greatest, least, thread_links, thread_runs};

/// Beyond this many segments a derived thread is stored as a copy (see the module docs): reads
/// and the next derivation stay bounded by it, and at a few dozen bytes a segment row, so does
/// the growth of one operation.
pub(crate) const MAX_SEGMENTS: usize = 256;

/// Whose own storage holds a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    /// A stored thread, by key.
    Stored(i64),
    /// The thread being derived, whose key is not known before it is written.
    New,
}

impl Source {
    /// The thread key, the derived thread's being `new_key`.
    pub(crate) fn key(self, new_key: i64) -> i64 {
        match self {
            Source::Stored(key) => key,
            Source::New => new_key,
        }
    }
}

/// `len` links stored at offsets `offset..offset+len` of `source`'s own storage, at positions
/// `start..start+len` of the thread that has the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Run {
    pub start: u64,
    pub len: u64,
    pub source: Source,
    pub offset: u64,
}

impl Run {
    fn end(&self) -> u64 {
        self.start + self.len
    }

    /// The run's piece starting `skip` links in, `len` long, moved to position `start`.
    fn piece(&self, skip: u64, len: u64, start: u64) -> Run {
        Run {
            start,
            len,
            source: self.source,
            offset: self.offset + skip,
        }
    }
}

/// A stored thread's runs, from rows `(start, length, source, offset)` as both backends'
/// `thread_runs` SQL reads them (its segments, then its tail) ordered by start; checked to
/// tile the thread's `message_count` positions. What a backend reads wrong otherwise is
/// corrupt data, not something to read past.
pub(crate) fn runs_from_rows(
    thread_key: i64,
    rows: Vec<(i64, i64, i64, i64)>,
    message_count: u64,
) -> crate::Result<Vec<Run>> {
    let corrupt =
        |what: String| crate::StoreError::Corrupt(format!("thread key {thread_key}: {what}"));
    let mut next = 0u64;
    let mut runs = Vec::with_capacity(rows.len());
    for (start, len, source, offset) in rows {
        let (Ok(start), Ok(len), Ok(offset)) = (
            u64::try_from(start),
            u64::try_from(len),
            u64::try_from(offset),
        ) else {
            return Err(corrupt(format!(
                "a run ({start}, {len}, {offset}) is negative"
            )));
        };
        if start != next || len == 0 {
            return Err(corrupt(format!(
                "a run at position {start} where {next} was expected"
            )));
        }
        next += len;
        runs.push(Run {
            start,
            len,
            source: Source::Stored(source),
            offset,
        });
    }
    if next != message_count {
        return Err(corrupt(format!(
            "runs end at {next} of {message_count} links"
        )));
    }
    Ok(runs)
}

/// The key of the message a replaced position points to: a commit that replaces a position
/// brings the message that replaces it.
pub(crate) fn replacement(key: Option<i64>) -> crate::Result<i64> {
    key.ok_or_else(|| {
        crate::StoreError::Invalid("a replaced position needs the commit's message".into())
    })
}

/// How a derived thread is stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Derived {
    /// As segments (written as they are; the new thread's own offset 0 holds the replacement,
    /// if any) and an empty tail at `tail_start = message_count`, `tail_offset` = the number of
    /// own links (0 or 1).
    Shared {
        segments: Vec<Run>,
        message_count: u64,
        tail_offset: u64,
    },
    /// As own links at offsets equal to positions: each run copied to offsets
    /// `start..start+len` (a run whose source is the new thread is the replacement); no
    /// segments, `tail_start = tail_offset = 0`.
    Copied { runs: Vec<Run>, message_count: u64 },
}

/// How a commit's new thread is stored: a whole list of its own links (all tail), or derived
/// from its base.
pub(crate) enum NewThread<'a> {
    List(&'a [squash_core::MessageId]),
    Derived(Derived),
}

impl NewThread<'_> {
    /// The new thread's `(tail_start, tail_offset)`, written with its row.
    pub(crate) fn tail(&self) -> (u64, u64) {
        match self {
            NewThread::List(_) => (0, 0),
            NewThread::Derived(d) => d.tail(),
        }
    }
}

impl Derived {
    /// The derived thread's `(tail_start, tail_offset)`, written with its row.
    pub(crate) fn tail(&self) -> (u64, u64) {
        match self {
            Derived::Shared {
                message_count,
                tail_offset,
                ..
            } => (*message_count, *tail_offset),
            Derived::Copied { .. } => (0, 0),
        }
    }

    pub(crate) fn message_count(&self) -> u64 {
        match self {
            Derived::Shared { message_count, .. } | Derived::Copied { message_count, .. } => {
                *message_count
            }
        }
    }
}

/// The layout of the thread derived by `edit` from a base whose runs are `base` (the edit
/// checked against the base by the caller with [`LinkEdit::check`]). A replaced position
/// becomes a run of the new thread ([`Source::New`]) at offset 0; runs that continue each other
/// in the same source are merged.
pub(crate) fn derive(base: &[Run], edit: &LinkEdit) -> Derived {
    let mut out: Vec<Run> = Vec::with_capacity(base.len() + 3);
    let mut push = |run: Run| match out.last_mut() {
        Some(last) if last.source == run.source && last.offset + last.len == run.offset => {
            last.len += run.len
        }
        _ => out.push(run),
    };
    // Cut points: every dropped or replaced position, ascending.
    let mut cuts: Vec<(u64, bool)> = edit.dropped.iter().map(|p| (*p, false)).collect();
    if let Some(r) = edit.replaced {
        let at = cuts.partition_point(|(p, _)| *p < r);
        cuts.insert(at, (r, true));
    }
    let mut cuts = cuts.into_iter().peekable();
    let mut next = 0u64;
    for run in base.iter().copied() {
        let mut done = 0u64;
        while let Some(&(position, replaced)) = cuts.peek().filter(|(p, _)| *p < run.end()) {
            cuts.next();
            let skip = position - run.start;
            if skip > done {
                push(run.piece(done, skip - done, next));
                next += skip - done;
            }
            if replaced {
                push(Run {
                    start: next,
                    len: 1,
                    source: Source::New,
                    offset: 0,
                });
                next += 1;
            }
            done = skip + 1;
        }
        if run.len > done {
            push(run.piece(done, run.len - done, next));
            next += run.len - done;
        }
    }
    if out.len() > MAX_SEGMENTS {
        return Derived::Copied {
            runs: out,
            message_count: next,
        };
    }
    Derived::Shared {
        segments: out,
        message_count: next,
        tail_offset: u64::from(edit.replaced.is_some()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The runs of a thread `key` with `segments`, then a tail at (start, offset), `count` long.
    fn runs(key: i64, segments: Vec<Run>, tail: (u64, u64), count: u64) -> Vec<Run> {
        let mut rows: Vec<(i64, i64, i64, i64)> = segments
            .iter()
            .map(|r| {
                (
                    r.start as i64,
                    r.len as i64,
                    r.source.key(key),
                    r.offset as i64,
                )
            })
            .collect();
        if count > tail.0 {
            rows.push((tail.0 as i64, (count - tail.0) as i64, key, tail.1 as i64));
        }
        runs_from_rows(key, rows, count).unwrap()
    }

    /// A run of stored thread `source`; source 0 stands for the new thread.
    fn run(start: u64, len: u64, source: i64, offset: u64) -> Run {
        Run {
            start,
            len,
            source: match source {
                0 => Source::New,
                key => Source::Stored(key),
            },
            offset,
        }
    }

    /// The links a layout stands for, each as (source, offset), given the replacement.
    fn resolve(runs: &[Run]) -> Vec<(Source, u64)> {
        runs.iter()
            .flat_map(|r| (0..r.len).map(move |i| (r.source, r.offset + i)))
            .collect()
    }

    fn edit(dropped: &[u64], replaced: Option<u64>) -> LinkEdit {
        LinkEdit {
            dropped: dropped.to_vec(),
            replaced,
        }
    }

    #[test]
    fn a_squash_of_an_initial_thread_is_four_segments() {
        let base = runs(1, vec![], (0, 0), 100);
        let Derived::Shared {
            segments,
            message_count,
            tail_offset,
        } = derive(&base, &edit(&[40, 81], Some(10)))
        else {
            panic!("three changes do not copy");
        };
        assert_eq!(message_count, 98);
        assert_eq!(tail_offset, 1);
        assert_eq!(
            segments,
            vec![
                run(0, 10, 1, 0),
                run(10, 1, 0, 0),
                run(11, 29, 1, 11),
                run(40, 40, 1, 41),
                run(80, 18, 1, 82)
            ]
        );
    }

    #[test]
    fn derivations_resolve_to_the_edited_list() {
        // Base: two segments of an ancestor, then a tail of its own.
        let base = runs(5, vec![run(0, 3, 1, 0), run(3, 2, 2, 0)], (5, 1), 9);
        let before = resolve(&base);
        for (dropped, replaced) in [
            (vec![], Some(0)),
            (vec![0, 1, 2, 3, 4], None),
            (vec![2, 3], Some(8)),
            (vec![8], Some(4)),
            (vec![0, 8], None),
        ] {
            let e = edit(&dropped, replaced);
            let Derived::Shared { segments, .. } = derive(&base, &e) else {
                panic!("small edits share");
            };
            let mut expected: Vec<(Source, u64)> = Vec::new();
            for (p, link) in before.iter().enumerate() {
                let p = p as u64;
                if dropped.contains(&p) {
                    continue;
                }
                expected.push(if Some(p) == replaced {
                    (Source::New, 0)
                } else {
                    *link
                });
            }
            assert_eq!(resolve(&segments), expected, "{e:?}");
            let n = expected.len() as u64;
            let tiled: Vec<_> = segments
                .iter()
                .map(|r| {
                    (
                        r.start as i64,
                        r.len as i64,
                        r.source.key(7),
                        r.offset as i64,
                    )
                })
                .collect();
            runs_from_rows(7, tiled, n).unwrap();
            // Adjacent runs of one source that continue each other are one run.
            assert!(segments
                .windows(2)
                .all(|w| w[0].source != w[1].source || w[0].offset + w[0].len != w[1].offset));
        }
    }

    #[test]
    fn too_many_segments_copy() {
        let base = runs(1, vec![], (0, 0), 10_000);
        let dropped: Vec<u64> = (0..MAX_SEGMENTS as u64 + 1).map(|i| i * 3 + 1).collect();
        match derive(&base, &edit(&dropped, None)) {
            Derived::Copied {
                runs,
                message_count,
            } => {
                assert_eq!(message_count, 10_000 - dropped.len() as u64);
                assert_eq!(runs.len(), MAX_SEGMENTS + 2);
            }
            other => panic!("expected a copy, got {other:?}"),
        }
    }

    #[test]
    fn a_broken_tiling_is_corrupt() {
        let gap = vec![(0, 2, 1, 0), (3, 1, 1, 2)];
        assert!(runs_from_rows(3, gap, 4).is_err());
        let short = vec![(0, 2, 1, 0), (2, 1, 3, 0)];
        assert!(runs_from_rows(3, short, 4).is_err());
        let negative = vec![(0, -2, 1, 0)];
        assert!(runs_from_rows(3, negative, 0).is_err());
    }
}
