use super::*;
use crate::fit::summary::summarize;
use crate::ids::ConversationId;
use crate::message::{ContentItem, Instruction, Role};

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
        vec![ContentItem::tool_call(
            id,
            "Bash",
            serde_json::json!({"command": "ls"}),
        )],
    )
}

fn result(id: &str) -> Message {
    msg(
        Role::User,
        vec![ContentItem::tool_result(id, "Bash", "a\nb", false)],
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
    layout(&summarize(&refs), keep_recent, keep_last, 0)
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
    both.content.push(ContentItem::tool_call(
        "b",
        "Bash",
        serde_json::json!({"command": "pwd"}),
    ));
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

#[test]
fn the_agents_own_context_before_the_first_request_is_a_step_a_system_prompt_is_kept() {
    let mut context = msg(
        Role::System,
        vec![ContentItem::text_for(
            Role::System,
            "<permissions instructions>sandbox</permissions instructions>",
        )],
    );
    context.instructions = vec![Instruction::Source {
        source: crate::message::InstructionSource::Agent,
    }];
    let thread = vec![
        msg(
            Role::System,
            vec![ContentItem::text_for(Role::System, "Answer in French.")],
        ),
        context,
        request("fix the build"),
        call("t0"),
        result("t0"),
        answer("fixed"),
    ];
    let l = lay(&thread, 0, 0);
    assert_eq!(l.keep[0], Keep::Prelude, "a prompt the person set stays");
    assert_eq!(l.keep[1], Keep::No, "Codex writes its permissions again");
    assert_eq!(l.keep[2], Keep::Request);
    let first = l.steps.first().expect("steps");
    assert_eq!((first.first, first.removable), (1, true), "{:?}", l.steps);
}
