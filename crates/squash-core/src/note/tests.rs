use super::*;
use crate::ledger::{build_ledger, check_facts, sections_text};
use crate::message::{Message, Role};
use crate::test_messages::{demo, say};

#[test]
fn the_note_states_every_fact_in_fewer_lines_than_the_sections() {
    let messages = demo();
    let refs: Vec<&Message> = messages.iter().collect();
    let ledger = build_ledger(&refs);
    let note = compose_note(&ledger, None, &refs, NoteForm::Whole);
    let sections = sections_text(&ledger);
    assert_eq!(
        check_facts(&ledger, &note).missing,
        Vec::<usize>::new(),
        "{note}"
    );
    assert!(note.len() < sections.len(), "{note}\n---\n{sections}");
    // Each fact once: the command's failures, the edit and the fixing run are one line, and
    // no line repeats another.
    assert_eq!(
        note.lines().filter(|l| l.contains("E0425")).count(),
        1,
        "{note}"
    );
    let lines: Vec<&str> = note.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        for (j, other) in lines.iter().enumerate() {
            assert!(
                i == j || !other.contains(line.trim_start_matches("- ")),
                "{note}"
            );
        }
    }
}

#[test]
fn what_the_gist_states_is_not_listed_again() {
    let messages = [
        say(Role::User, "Should the cache live in Redis or in memory?"),
        say(
            Role::Assistant,
            "Decided: use Redis at redis://cache.internal:6379/2, so the 4 replicas share it.",
        ),
    ];
    let refs: Vec<&Message> = messages.iter().collect();
    let ledger = build_ledger(&refs);
    let gist =
        "The cache moves to Redis (redis://cache.internal:6379/2) so the 4 replicas share it.";
    let note = compose_note(&ledger, Some(gist), &refs, NoteForm::Whole);
    assert!(note.starts_with(gist), "{note}");
    assert_eq!(note.matches("cache.internal").count(), 1, "{note}");
    assert!(check_facts(&ledger, &note).missing.is_empty(), "{note}");
}

#[test]
fn a_gist_loses_headings_lists_questions_copies_and_a_cut_sentence() {
    let source = "User: To put it simply, and I want to be really clear here, the build is red.\n\
                  Assistant: The build fails in config.rs.";
    let answer = "What was wanted? To find why the build fails.\n\
                  To put it simply, and I want to be really clear here, the build is red.\n\
                  The build fails in config.rs because a field is missing.\n\
                  Details:\n- Ran cargo test\nThe assistant then ran `python3 scripts/move_fn.py";
    let gist = clean_gist(answer, source, GIST_MAX_SENTENCES).expect("a gist is left");
    assert_eq!(
        gist,
        "To find why the build fails. The build fails in config.rs because a field is missing."
    );
}

#[test]
fn a_gist_of_only_talk_about_the_task_is_none() {
    let source = "User: hi\nAssistant: hello";
    assert_eq!(
        clean_gist("No preamble, no comments.\nHere is the summary:", source, 3),
        None
    );
    assert_eq!(clean_gist("Requests:\n- User: hi", source, 3), None);
}

#[test]
fn meta_phrases_the_conversation_uses_are_not_meta() {
    let source = "We need a summary of the release for the board.";
    assert_eq!(
        meta_phrases("The summary of the release is due. No preamble.", source),
        vec!["no preamble"]
    );
}
