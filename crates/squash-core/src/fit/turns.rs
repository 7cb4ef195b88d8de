//! A thread read as turns: a user's request and the agent's run that answered it. Fitting
//! works turn by turn, and some of a thread is never touched: what comes before the first
//! request, the first request itself, every message a person typed, and the last turns.

use std::collections::HashSet;

use crate::message::{ContentItem, Instruction, Message, Role};

/// The parts of a thread a fit plan may change.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Turns {
    /// Thread positions of the runs a plan may squash or mask: the agent's messages between a
    /// request and the next one, in old turns only. Ascending, each at least one message.
    pub runs: Vec<Vec<usize>>,
    /// Positions no step may touch.
    pub protected: Vec<bool>,
    /// How many turns (requests) the thread has.
    pub turns: usize,
}

/// Whether a person typed this message: a user message with text and no tool results (an
/// agent's tool results travel as user messages too).
pub fn is_request(message: &Message) -> bool {
    message.role == Role::User
        && !message
            .content
            .iter()
            .any(|i| matches!(i, ContentItem::ToolResult { .. }))
        && message.content.iter().any(|i| match i {
            ContentItem::UserMessage { text } => !text.trim().is_empty(),
            _ => false,
        })
}

fn is_user_instruction(message: &Message) -> bool {
    message
        .instructions
        .iter()
        .any(|i| matches!(i, Instruction::UserInstruction { .. }))
}

/// Splits `messages` (a thread, in order) into turns and marks what is protected: everything up
/// to and including the first request, every request and tagged user instruction, and the last
/// `keep_last` turns whole (a turn starts at a request).
pub fn split(messages: &[&Message], keep_last: usize) -> Turns {
    let starts: Vec<usize> = (0..messages.len())
        .filter(|&i| is_request(messages[i]))
        .collect();
    let mut protected = vec![false; messages.len()];
    let first = starts.first().copied().unwrap_or(messages.len());
    // With no request at all, nothing is a turn: the whole thread stays as it is.
    protected[..first.saturating_add(1).min(messages.len())].fill(true);
    let tail_from = match starts.len().checked_sub(keep_last) {
        Some(k) if k < starts.len() => starts[k],
        Some(_) => messages.len(),
        None => first,
    };
    protected[tail_from..].fill(true);
    for (i, m) in messages.iter().enumerate() {
        if is_request(m) || is_user_instruction(m) {
            protected[i] = true;
        }
    }
    let runs = runs_of(messages, &protected);
    Turns {
        runs,
        protected,
        turns: starts.len(),
    }
}

/// Maximal unprotected stretches, cut at every request; a run whose tool calls and results are
/// not all inside it is left out (a squash must never separate a call from its result).
fn runs_of(messages: &[&Message], protected: &[bool]) -> Vec<Vec<usize>> {
    let mut runs = Vec::new();
    let mut current: Vec<usize> = Vec::new();
    for (i, &p) in protected.iter().enumerate() {
        if p {
            if !current.is_empty() {
                runs.push(std::mem::take(&mut current));
            }
        } else {
            current.push(i);
        }
    }
    if !current.is_empty() {
        runs.push(current);
    }
    runs.into_iter()
        .filter(|run| closed(messages, run))
        .collect()
}

/// Every call in `run` has its result in `run` and every result its call.
fn closed(messages: &[&Message], run: &[usize]) -> bool {
    let mut calls = HashSet::new();
    let mut results = HashSet::new();
    for &i in run {
        let refs = messages[i].tool_refs();
        calls.extend(refs.calls);
        results.extend(refs.results);
    }
    calls == results
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::ConversationId;
    use crate::message::ToolResultData;

    fn msg(role: Role, content: Vec<ContentItem>) -> Message {
        let mut m = Message::new(ConversationId::new(), role, content).expect("valid");
        m.created_at = chrono::DateTime::UNIX_EPOCH;
        m
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

    #[test]
    fn runs_are_the_agent_work_of_old_turns() {
        let thread = [
            msg(
                Role::System,
                vec![ContentItem::text_for(Role::System, "sys")],
            ),
            request("fix the build"),
            call("a"),
            result("a"),
            answer("fixed"),
            request("now the tests"),
            call("b"),
            result("b"),
            answer("green"),
            request("and docs"),
            answer("done"),
            request("thanks"),
            answer("bye"),
        ];
        let refs: Vec<&Message> = thread.iter().collect();
        let turns = split(&refs, 2);
        assert_eq!(turns.turns, 4);
        assert_eq!(turns.runs, vec![vec![2, 3, 4], vec![6, 7, 8]]);
        let protected: Vec<usize> = (0..thread.len()).filter(|&i| turns.protected[i]).collect();
        assert_eq!(protected, vec![0, 1, 5, 9, 10, 11, 12]);
    }

    #[test]
    fn a_run_with_a_call_answered_elsewhere_is_left_out() {
        let thread = [
            request("go"),
            call("a"),
            answer("waiting"),
            request("status?"),
            result("a"),
            answer("done"),
            request("last"),
        ];
        let refs: Vec<&Message> = thread.iter().collect();
        let turns = split(&refs, 1);
        assert_eq!(turns.runs, Vec::<Vec<usize>>::new());
    }

    #[test]
    fn tagged_instructions_and_threads_without_requests_are_protected() {
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
            answer("b"),
            request("two"),
        ];
        let refs: Vec<&Message> = thread.iter().collect();
        assert_eq!(split(&refs, 1).runs, vec![vec![1], vec![3]]);
        let no_requests = [answer("x"), answer("y")];
        let refs: Vec<&Message> = no_requests.iter().collect();
        let turns = split(&refs, 2);
        assert!(turns.runs.is_empty());
        assert!(turns.protected.iter().all(|p| *p));
    }
}
