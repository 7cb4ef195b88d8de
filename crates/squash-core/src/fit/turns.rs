//! A thread read as the agent's steps, and what of it a fit keeps. The unit is the step — a
//! message, or a tool call with its result (and whatever came between them) — not the user's
//! turn: most real sessions are one request followed by hundreds of tool calls. Kept as they
//! are: what comes before the first request, every request a person typed (their long pastes
//! aside), the user's instructions, earlier squash results, the newest steps up to
//! `keep_recent` tokens, and the last `keep_last` turns whole when asked for.

use std::collections::HashSet;

use serde::Serialize;

use super::summary::{MessageKind, MessageSummary};
use crate::message::Message;

/// Whether a person typed this message (not tool results, not a note the agent's harness
/// inserted).
pub fn is_request(message: &Message) -> bool {
    crate::ledger::typed_text(message).is_some()
}

/// Why a message is kept as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Keep {
    /// A fit may change it.
    No,
    /// Before the first request (a system prompt), or everything when the thread has no
    /// request at all; not the context the agent's harness writes there itself
    /// ([`MessageKind::Context`]), which a fit may take like the agent's work.
    Prelude,
    /// A person typed it (its long pastes may still be trimmed).
    Request,
    Instruction,
    /// The result of an earlier squash or fit.
    Squashed,
    /// Among the newest steps, up to `keep_recent` tokens.
    Recent,
    /// In the last `keep_last` turns.
    LastTurns,
}

/// One step of the agent, as thread positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    pub first: usize,
    pub last: usize,
    /// The step may be replaced whole (its one-line extract, a run's extract): every call in
    /// it has its result in it, and nothing in it is kept.
    pub removable: bool,
}

impl Step {
    pub fn positions(&self) -> std::ops::RangeInclusive<usize> {
        self.first..=self.last
    }
}

/// The thread as steps, with what is kept.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    pub steps: Vec<Step>,
    pub keep: Vec<Keep>,
    /// Requests a person typed, and how many of the oldest are not kept.
    pub requests: usize,
    pub folded: usize,
    /// Steps kept as the newest, and their tokens.
    pub recent_steps: usize,
    pub recent_tokens: u64,
}

/// Lays `s` (a thread's summaries, in order) out as steps and marks what is kept; the oldest
/// `folded` requests are not kept but steps like the agent's, so that a digest of their work
/// can take them in.
pub(crate) fn layout(
    s: &[MessageSummary],
    keep_recent: u64,
    keep_last: usize,
    folded: usize,
) -> Layout {
    let requests: Vec<usize> = (0..s.len())
        .filter(|&i| s[i].kind == MessageKind::Request)
        .collect();
    let mut keep = vec![Keep::No; s.len()];
    let first = requests.first().copied().unwrap_or(s.len());
    for (k, m) in keep[..first].iter_mut().zip(s) {
        if m.kind != MessageKind::Context {
            *k = Keep::Prelude;
        }
    }
    for (i, m) in s.iter().enumerate() {
        match m.kind {
            MessageKind::Request => keep[i] = Keep::Request,
            MessageKind::Instruction => keep[i] = Keep::Instruction,
            MessageKind::Squashed if keep[i] == Keep::No => keep[i] = Keep::Squashed,
            _ => {}
        }
    }
    for &i in requests.iter().take(folded) {
        keep[i] = Keep::No;
    }
    let from = if folded > 0 { first } else { first + 1 };
    // The steps start where the agent's own context before the first request does.
    let from = s[..first]
        .iter()
        .position(|m| m.kind == MessageKind::Context)
        .map_or(from, |c| c.min(from));
    let mut steps = steps_of(s, from);
    let (recent_steps, recent_tokens) = keep_newest(s, &steps, &mut keep, keep_recent);
    if keep_last > 0 {
        if let Some(&from) = requests.get(requests.len().saturating_sub(keep_last)) {
            for k in &mut keep[from..] {
                if *k == Keep::No {
                    *k = Keep::LastTurns;
                }
            }
        }
    }
    for step in &mut steps {
        step.removable &= step.positions().all(|i| keep[i] == Keep::No);
    }
    Layout {
        steps,
        keep,
        requests: requests.len(),
        folded: folded.min(requests.len()),
        recent_steps,
        recent_tokens,
    }
}

/// Steps from position `from` on: a step ends where no call it opened waits for its result. A
/// call whose result the thread lacks (or a result without its call) pins its step: it may be
/// trimmed, never removed.
fn steps_of(s: &[MessageSummary], from: usize) -> Vec<Step> {
    let results: HashSet<&str> = s
        .iter()
        .flat_map(|m| m.results.iter().map(String::as_str))
        .collect();
    let mut steps = Vec::new();
    let mut i = from;
    while i < s.len() {
        let first = i;
        let mut open: HashSet<&str> = HashSet::new();
        let mut pinned = false;
        loop {
            let m = &s[i];
            for c in &m.calls {
                if results.contains(c.as_str()) {
                    open.insert(c);
                } else {
                    pinned = true;
                }
            }
            for r in &m.results {
                // A result without its call in this step: its call is missing, or answered twice.
                pinned |= !open.remove(r.as_str());
            }
            if open.is_empty() || i + 1 == s.len() {
                pinned |= !open.is_empty();
                break;
            }
            i += 1;
        }
        steps.push(Step {
            first,
            last: i,
            removable: !pinned,
        });
        i += 1;
    }
    steps
}

/// Marks the newest agent steps whose tokens add up to at most `budget` as kept; returns how
/// many and their tokens. Kept messages between them (requests) neither count nor stop it.
fn keep_newest(
    s: &[MessageSummary],
    steps: &[Step],
    keep: &mut [Keep],
    budget: u64,
) -> (usize, u64) {
    let mut tokens = 0;
    let mut count = 0;
    for step in steps.iter().rev() {
        if step.positions().all(|i| keep[i] != Keep::No) {
            continue;
        }
        let cost: u64 = step.positions().map(|i| s[i].cost).sum();
        if tokens + cost > budget {
            break;
        }
        tokens += cost;
        count += 1;
        for i in step.positions() {
            if keep[i] == Keep::No {
                keep[i] = Keep::Recent;
            }
        }
    }
    (count, tokens)
}

#[cfg(test)]
#[path = "turns_tests.rs"]
mod tests;
