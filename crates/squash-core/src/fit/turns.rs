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
    /// Before the first request (a system prompt, a harness's context), or everything when the
    /// thread has no request at all.
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
    /// Requests a person typed.
    pub requests: usize,
    /// Steps kept as the newest, and their tokens.
    pub recent_steps: usize,
    pub recent_tokens: u64,
}

/// Lays `s` (a thread's summaries, in order) out as steps and marks what is kept.
pub(crate) fn layout(s: &[MessageSummary], keep_recent: u64, keep_last: usize) -> Layout {
    let requests: Vec<usize> = (0..s.len())
        .filter(|&i| s[i].kind == MessageKind::Request)
        .collect();
    let mut keep = vec![Keep::No; s.len()];
    let first = requests.first().copied().unwrap_or(s.len());
    keep[..first.min(s.len())].fill(Keep::Prelude);
    for (i, m) in s.iter().enumerate() {
        match m.kind {
            MessageKind::Request => keep[i] = Keep::Request,
            MessageKind::Instruction => keep[i] = Keep::Instruction,
            MessageKind::Squashed if keep[i] == Keep::No => keep[i] = Keep::Squashed,
            _ => {}
        }
    }
    let mut steps = steps_of(s, first.saturating_add(1));
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
mod tests {
    use super::*;
    use crate::fit::summary::summarize;
    use crate::ids::ConversationId;
    use crate::message::{ContentItem, Instruction, Role, ToolResultData};

    fn msg(role: Role, content: Vec<ContentItem>) -> Message {
        Message::new(ConversationId::new(), role, content).expect("valid")
    }

    fn request(text: &str) -> Message {
        msg(
            Role::User,
            vec![ContentItem::UserMessage { text: text.into() }],
        )
    }

    fn call(id: &str) -> Message {
        msg(
            Role::Assistant,
            vec![ContentItem::ToolCall {
                id: id.into(),
                name: "Bash".into(),
                input: serde_json::json!({"command": "ls"}),
            }],
        )
    }

    fn result(id: &str) -> Message {
        msg(
            Role::User,
            vec![ContentItem::ToolResult {
                tool_use_id: id.into(),
                tool_name: "Bash".into(),
                result: vec![ToolResultData::Text {
                    text: "a\nb".into(),
                }],
                is_error: false,
            }],
        )
    }

    fn answer(text: &str) -> Message {
        msg(
            Role::Assistant,
            vec![ContentItem::text_for(Role::Assistant, text)],
        )
    }

    fn lay(thread: &[Message], keep_recent: u64, keep_last: usize) -> Layout {
        let refs: Vec<&Message> = thread.iter().collect();
        layout(&summarize(&refs), keep_recent, keep_last)
    }

    #[test]
    fn one_request_and_many_steps() {
        let mut thread = vec![
            msg(
                Role::System,
                vec![ContentItem::text_for(Role::System, "sys")],
            ),
            request("fix the build"),
        ];
        for i in 0..5 {
            thread.push(call(&format!("t{i}")));
            thread.push(result(&format!("t{i}")));
        }
        thread.push(answer("fixed"));
        let l = lay(&thread, 0, 0);
        assert_eq!(l.requests, 1);
        let spans: Vec<(usize, usize)> = l.steps.iter().map(|s| (s.first, s.last)).collect();
        assert_eq!(
            spans,
            vec![(2, 3), (4, 5), (6, 7), (8, 9), (10, 11), (12, 12)]
        );
        assert!(l.steps.iter().all(|s| s.removable));
        assert_eq!(&l.keep[..2], &[Keep::Prelude, Keep::Request]);
        // The newest steps up to the tokens asked for are kept.
        let two_steps: u64 = {
            let refs: Vec<&Message> = thread.iter().collect();
            summarize(&refs)[10..].iter().map(|m| m.cost).sum()
        };
        let l = lay(&thread, two_steps, 0);
        assert_eq!(l.recent_steps, 2, "{:?}", l.keep);
        assert_eq!(l.recent_tokens, two_steps);
        assert!(l.steps[3].removable && !l.steps[4].removable);
    }

    #[test]
    fn parallel_calls_are_one_step_and_dangling_ones_pin_theirs() {
        let mut both = call("a");
        both.content.push(ContentItem::ToolCall {
            id: "b".into(),
            name: "Bash".into(),
            input: serde_json::json!({"command": "pwd"}),
        });
        let thread = [
            request("go"),
            both,
            result("a"),
            call("c"),
            result("b"),
            result("c"),
            call("never"),
            answer("done"),
        ];
        let l = lay(&thread, 0, 0);
        let spans: Vec<(usize, usize, bool)> = l
            .steps
            .iter()
            .map(|s| (s.first, s.last, s.removable))
            .collect();
        assert_eq!(spans, vec![(1, 5, true), (6, 6, false), (7, 7, true)]);
    }

    #[test]
    fn instructions_harness_notes_and_last_turns() {
        let mut note = answer("remember: never push");
        note.instructions.push(Instruction::UserInstruction {
            id: "i1".into(),
            title: "rule".into(),
            description: "never push".into(),
        });
        let thread = [
            request("one"),
            answer("a"),
            note,
            request("<task-notification>\n<task-id>b1</task-id>\n</task-notification>"),
            request("two"),
            answer("b"),
        ];
        let l = lay(&thread, 0, 0);
        assert_eq!(l.requests, 2, "a harness note is not a request");
        assert_eq!(l.keep[2], Keep::Instruction);
        assert_eq!(l.keep[3], Keep::No);
        let l = lay(&thread, 0, 1);
        assert_eq!(&l.keep[4..], &[Keep::Request, Keep::LastTurns]);
        let no_requests = [answer("x"), answer("y")];
        let l = lay(&no_requests, 0, 0);
        assert!(l.steps.is_empty());
        assert!(l.keep.iter().all(|k| *k == Keep::Prelude));
    }
}
