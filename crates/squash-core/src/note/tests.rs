use super::*;
use crate::ledger::{build_ledger, check_facts, sections_text, Ended, FactKind, RunEnd};
use crate::message::{Message, Role};
use crate::test_messages::{demo, say};

/// The ledger of `messages` and their note without a gist, in `form`.
fn note_of(messages: &[Message], form: NoteForm) -> (crate::ledger::Ledger, String) {
    let refs: Vec<&Message> = messages.iter().collect();
    let ledger = build_ledger(&refs);
    let note = compose_note(&ledger, None, &refs, form);
    (ledger, note)
}

/// The ledger of `messages` and their note without a gist.
fn extract_of(messages: &[Message]) -> (crate::ledger::Ledger, String) {
    note_of(messages, NoteForm::Whole)
}

#[test]
fn the_note_states_every_fact_in_fewer_lines_than_the_sections() {
    let messages = demo();
    let (ledger, note) = extract_of(&messages);
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
fn the_fixing_run_ends_the_command_history_instead_of_a_line_of_its_own() {
    let messages = demo();
    let refs: Vec<&Message> = messages[1..11].iter().collect();
    let ledger = build_ledger(&refs);
    // The ledger has both lines (a fit's extract keeps them); the note tells the run once.
    assert!(ledger
        .facts
        .iter()
        .any(|f| f.kind == FactKind::Command && f.text.starts_with("Ran `python3")));
    let note = compose_note(&ledger, None, &refs, NoteForm::Whole);
    assert!(!note.contains("Ran `python3"), "{note}");
    let history = note
        .lines()
        .find(|l| l.contains("E0425"))
        .expect("the history line");
    assert!(
        history.contains("→ ok after `python3 scripts/move_fn.py")
            && history.ends_with(": test result: ok. 4 passed; 0 failed; 0 ignored"),
        "{history}"
    );
    assert!(check_facts(&ledger, &note).missing.is_empty(), "{note}");
}

#[test]
fn an_answer_keeps_each_clause_that_says_something_new_and_not_its_filler() {
    let messages = [
        say(
            Role::User,
            "Explain what a Rust lifetime is. I come from Python.",
        ),
        say(
            Role::Assistant,
            "Great question, and a very common one for people coming from Python! In Python \
             you never think about it, because the garbage collector keeps every object alive. \
             Rust has no garbage collector. A reference (&T) lets you look at a value. A \
             lifetime is the stretch of code during which a reference is valid. The borrow \
             checker makes sure no reference outlives its value, so you never get a dangling \
             pointer. I hope this helps!",
        ),
    ];
    let (ledger, note) = extract_of(&messages);
    // Past the answer's fourth sentence too.
    for kept in ["garbage collector", "borrow checker", "dangling"] {
        assert!(note.contains(kept), "{kept}: {note}");
    }
    for filler in ["Great question", "I hope this helps", "Rust has no garbage"] {
        assert!(!note.contains(filler), "{filler}: {note}");
    }
    // A clause is left out where the request or an earlier clause said it all.
    assert!(
        note.contains("… because the garbage collector keeps every object alive."),
        "{note}"
    );
    assert!(check_facts(&ledger, &note).missing.is_empty(), "{note}");
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
    let gist = clean_gist(answer, source, &[], GIST_MAX_SENTENCES).expect("a gist is left");
    assert_eq!(
        gist,
        "To find why the build fails. The build fails in config.rs because a field is missing."
    );
}

#[test]
fn a_gist_of_only_talk_about_the_task_is_none() {
    let source = "User: hi\nAssistant: hello";
    assert_eq!(
        clean_gist(
            "No preamble, no comments.\nHere is the summary:",
            source,
            &[],
            3
        ),
        None
    );
    assert_eq!(clean_gist("Requests:\n- User: hi", source, &[], 3), None);
}

#[test]
fn meta_phrases_the_conversation_uses_are_not_meta() {
    let source = "We need a summary of the release for the board.";
    assert_eq!(
        meta_phrases("The summary of the release is due. No preamble.", source),
        vec!["no preamble"]
    );
}

#[test]
fn a_gist_sentence_that_tells_a_run_otherwise_than_its_result_is_dropped() {
    let runs = [
        RunEnd {
            command: "cargo test -p config".into(),
            ended: Ended::Failed,
        },
        RunEnd {
            command: "python3 scripts/move_fn.py && cargo test -p config".into(),
            ended: Ended::Passed,
        },
    ];
    // "a failing test" describes the problem, not a run; the second sentence tells the
    // passing run as a failure.
    let answer = "The user asked for help with a failing test. The assistant ran `cargo test \
                  -p config 2>&1 | tail -20`, which failed due to an error related to missing \
                  fields. It then ran another command that updated the struct, but it was not \
                  successful.";
    assert_eq!(
        clean_gist(answer, "", &runs, GIST_MAX_SENTENCES).as_deref(),
        Some(
            "The user asked for help with a failing test. The assistant ran `cargo test -p \
             config 2>&1 | tail -20`, which failed due to an error related to missing fields."
        )
    );
    // Told as the results say, both stay: the named run failed, the last one passed.
    let told = "The first `cargo test -p config` failed. After the move, the tests passed.";
    assert_eq!(
        clean_gist(told, "", &runs, GIST_MAX_SENTENCES).as_deref(),
        Some(told)
    );
    // A run named by a span cut short is held against that run.
    let cut = "Then `python3 scripts/move_fn.py` failed.";
    assert_eq!(clean_gist(cut, "", &runs, GIST_MAX_SENTENCES), None);
    // Without runs, nothing is held against them.
    assert_eq!(
        clean_gist(cut, "", &[], GIST_MAX_SENTENCES).as_deref(),
        Some(cut)
    );
}

/// The tight note of `messages`, with their ledger.
fn tight_of(messages: &[Message]) -> (crate::ledger::Ledger, String) {
    note_of(messages, NoteForm::Tight)
}

#[test]
fn a_question_its_answer_restates_goes_in_the_tight_form() {
    let messages = vec![
        say(Role::User, "How many bytes is a u32 in Rust?"),
        say(
            Role::Assistant,
            "Four bytes: a u32 is 32 bits, so std::mem::size_of::<u32>() returns 4.",
        ),
    ];
    let (_, whole) = extract_of(&messages);
    assert!(whole.contains("How many bytes"), "{whole}");
    let (ledger, tight) = tight_of(&messages);
    assert_eq!(
        tight,
        "Four bytes: a u32 is 32 bits, so std::mem::size_of::<u32>() returns 4."
    );
    assert!(check_facts(&ledger, &tight).missing.is_empty());
    let text: u64 = messages
        .iter()
        .map(|m| crate::tokens::estimate_tokens(&crate::render::message_text(m)))
        .sum();
    assert!(crate::tokens::estimate_tokens(&tight) < text);
}

#[test]
fn a_question_that_asks_more_than_its_answer_says_stays() {
    let messages = vec![
        say(
            Role::User,
            "What is the fine structure constant and how does it relate to the speed of light?",
        ),
        say(
            Role::Assistant,
            "The fine structure constant is a dimensionless number, about 1/137, that measures \
             the strength of the electromagnetic interaction.",
        ),
    ];
    let (_, tight) = tight_of(&messages);
    assert!(
        tight.starts_with("User: What is the fine structure constant"),
        "{tight}"
    );
    assert!(tight.contains("speed of light"), "{tight}");
}

#[test]
fn the_tight_form_runs_each_exchange_on_as_one_line_in_the_conversations_order() {
    let messages = vec![
        say(
            Role::User,
            "Plan the move of the sessions table to PostgreSQL 16. It has 38 million rows.",
        ),
        say(
            Role::Assistant,
            "Plan: copy with pg_dump in 4 parallel jobs, then switch reads with the SESSIONS_DB \
             flag. We chose logical replication rather than a dump-and-restore window, so the \
             cutover is under 5 minutes.",
        ),
        say(Role::User, "What about the expires_at index?"),
        say(
            Role::Assistant,
            "Build it CONCURRENTLY after the copy. Open question: do we keep sessions older \
             than 90 days?",
        ),
    ];
    let (ledger, whole) = extract_of(&messages);
    // The whole form lists by kind: both requests first.
    assert!(
        whole
            .lines()
            .nth(1)
            .is_some_and(|l| l.contains("expires_at")),
        "{whole}"
    );
    let (_, tight) = tight_of(&messages);
    let lines: Vec<&str> = tight.lines().collect();
    assert_eq!(lines.len(), 2, "{tight}");
    assert!(lines[0].starts_with("User: Plan the move"), "{tight}");
    assert!(lines[0].contains("SESSIONS_DB") && lines[0].contains("logical replication"));
    assert!(
        lines[1].starts_with("The expires_at index: Build it"),
        "{tight}"
    );
    assert!(lines[1].contains("90 days"), "{tight}");
    assert!(check_facts(&ledger, &tight).missing.is_empty());
    assert!(tight.len() < whole.len());
}

#[test]
fn a_line_of_code_keeps_a_line_of_its_own_in_the_tight_form() {
    let messages = vec![
        say(
            Role::User,
            "What's the crontab line for 02:30 on the first seven days of the month?",
        ),
        say(
            Role::Assistant,
            "Use the day-of-month field:\n\n30 2 1-7 * * /opt/reports/monthly.sh\n\nIt logs \
             nothing unless you redirect its output to /var/log/monthly.log.",
        ),
    ];
    let (_, tight) = tight_of(&messages);
    assert!(
        tight
            .lines()
            .any(|l| l.trim() == "30 2 1-7 * * /opt/reports/monthly.sh"),
        "{tight}"
    );
}

#[test]
fn a_follow_up_that_names_its_topic_is_told_as_the_answer_under_that_name() {
    let messages = vec![
        say(
            Role::User,
            "Plan the move of the sessions table to PostgreSQL 16.",
        ),
        say(Role::Assistant, "Copy with pg_dump in 4 parallel jobs."),
        say(Role::User, "What about the expires_at index?"),
        say(Role::Assistant, "Build it CONCURRENTLY after the copy."),
        say(Role::User, "And how about sequences?"),
    ];
    let (ledger, note) = note_of(&messages, NoteForm::Tight);
    assert!(
        note.contains("The expires_at index: Build it CONCURRENTLY after the copy."),
        "{note}"
    );
    assert!(!note.contains("What about"), "{note}");
    // A follow-up no answer comes after stays as it was asked.
    assert!(note.contains("User: And how about sequences?"), "{note}");
    assert_eq!(
        check_facts(&ledger, &note).missing,
        Vec::<usize>::new(),
        "{note}"
    );
}

#[test]
fn a_gist_is_cut_to_its_room_between_sentences() {
    use super::gist_within;
    let gist = "The report tests failed on a missing field. Adding it to Config made them pass.";
    assert_eq!(gist_within(gist, 1_000).as_deref(), Some(gist));
    assert_eq!(
        gist_within(gist, 12).as_deref(),
        Some("The report tests failed on a missing field.")
    );
    assert_eq!(gist_within(gist, 3), None);
}
