//! The ledger of the demo session (the coding-agent run `squash demo` squashes).

use super::*;
use crate::ids::ConversationId;
use crate::message::{ContentItem, Message, Role};
use crate::test_messages::{demo, say};
use serde_json::json;

fn texts(ledger: &Ledger, kind: FactKind) -> Vec<&str> {
    ledger
        .facts
        .iter()
        .filter(|f| f.kind == kind)
        .map(|f| f.text.as_str())
        .collect()
}

#[test]
fn the_demo_runs_end_as_their_results_say() {
    let messages = demo();
    let selection: Vec<&Message> = messages[1..11].iter().collect();
    let ends: Vec<(String, Ended)> = run_ends(&selection)
        .into_iter()
        .map(|r| (r.command, r.ended))
        .collect();
    // The test run failed twice; the move and the run after it passed.
    assert_eq!(ends.len(), 3, "{ends:?}");
    assert_eq!(ends[0], ("cargo test -p config".to_owned(), Ended::Failed));
    assert_eq!(ends[1], ends[0]);
    assert!(
        ends[2].0.starts_with("python3 scripts/move_fn.py"),
        "{ends:?}"
    );
    assert_eq!(ends[2].1, Ended::Passed);
}

#[test]
fn demo_run_has_its_files_commands_and_fixes() {
    let messages = demo();
    // The demo squashes messages 2 to 11: the tool run without the request and the answer.
    let selection: Vec<&Message> = messages[1..11].iter().collect();
    let ledger = build_ledger(&selection);
    assert_eq!(
        texts(&ledger, FactKind::File),
        vec!["Edited crates/config/src/lib.rs (default_timeout_secs)"]
    );
    let commands = texts(&ledger, FactKind::Command);
    assert!(
        commands.contains(
            &"Ran `cargo test -p config 2>&1 | tail -20` → failed: test result: FAILED. 3 \
              passed; 1 failed; 0 ignored, then failed"
        ),
        "{commands:?}"
    );
    assert!(
        commands
            .iter()
            .any(|c| c.starts_with("Ran `python3 scripts/move_fn.py")
                && c.ends_with("→ ok: test result: ok. 4 passed; 0 failed; 0 ignored")),
        "{commands:?}"
    );
    // The command's two failures and what fixed them are one line, in order.
    let fixes = texts(&ledger, FactKind::Fix);
    assert_eq!(fixes.len(), 1, "{fixes:?}");
    let history = fixes[0];
    let at = |part: &str| {
        history
            .find(part)
            .unwrap_or_else(|| panic!("{part}: {history}"))
    };
    assert!(at("tests::parses_minimal_file") < at("→ edited crates/config/src/lib.rs"));
    assert!(at("→ edited crates/config/src/lib.rs") < at("E0425"));
    assert!(at("E0425") < at("→ ok after `python3 scripts/move_fn.py"));
    assert!(history.contains("cargo test -p config`…"), "{history}");
    assert!(texts(&ledger, FactKind::Error).is_empty());
    // Narration ("Let me run the failing test first.") is not a fact.
    assert!(ledger.facts.iter().all(|f| !f.text.starts_with("Let me")));
    // Every fact names the message it came from.
    let ids: Vec<_> = selection.iter().map(|m| m.id).collect();
    assert!(ledger.facts.iter().all(|f| ids.contains(&f.source)));
}

#[test]
fn requests_keep_their_constraints() {
    let messages = demo();
    let all: Vec<&Message> = messages.iter().collect();
    let ledger = build_ledger(&all);
    let requests: Vec<&Fact> = ledger
        .facts
        .iter()
        .filter(|f| f.kind == FactKind::Request)
        .collect();
    assert_eq!(requests.len(), 2);
    assert!(requests[0].anchors.contains(&"timeout_secs".to_owned()));
    assert!(requests[0].anchors.contains(&"30".to_owned()));
    assert!(requests[1].anchors.contains(&"retry_limit".to_owned()));
}

#[test]
fn the_ledger_checks_its_own_extract() {
    let messages = demo();
    let all: Vec<&Message> = messages.iter().collect();
    let ledger = build_ledger(&all);
    let extract = sections_text(&ledger);
    let check = check_facts(&ledger, &extract);
    assert!(
        check.missing.is_empty(),
        "{:?}",
        ledger.subset(&check.missing)
    );
    // An empty answer states nothing.
    assert_eq!(check_facts(&ledger, "").kept.len(), 0);
}

fn m(role: Role, content: Vec<ContentItem>) -> Message {
    Message::new(ConversationId::new(), role, content).expect("non-empty")
}

fn call(id: &str, name: &str, input: serde_json::Value) -> Message {
    m(
        Role::Assistant,
        vec![ContentItem::tool_call(id, name, input)],
    )
}

fn result(id: &str, text: &str, is_error: bool) -> Message {
    m(
        Role::User,
        vec![ContentItem::ToolResult {
            tool_use_id: id.into(),
            tool_name: String::new(),
            result: vec![crate::message::ToolResultData::Text { text: text.into() }],
            is_error,
        }],
    )
}

fn ledger(messages: &[Message]) -> Ledger {
    let refs: Vec<&Message> = messages.iter().collect();
    build_ledger(&refs)
}

#[test]
fn the_answer_to_a_question_is_a_fact_without_a_path_or_number() {
    let chat = [
        say(
            Role::User,
            "What is the average distance between two random points on a unit segment?",
        ),
        say(
            Role::Assistant,
            "Integrate |x − y| over the unit square. The average distance is 1/3.",
        ),
        say(
            Role::User,
            "Is the problem solvable in closed form for a disk?",
        ),
        say(
            Role::Assistant,
            "Yes, it is: the mean distance in a unit disk is exactly 128/(45π).",
        ),
        say(Role::User, "And for a random polygon?"),
        say(
            Role::Assistant,
            "That is not possible in closed form in general.",
        ),
    ];
    let l = ledger(&chat);
    let answers = texts(&l, FactKind::Answer);
    assert!(answers.iter().any(|a| a.contains("1/3")), "{answers:?}");
    assert!(
        answers.iter().any(|a| a.contains("128/(45π)")),
        "{answers:?}"
    );
    assert!(
        answers.iter().any(|a| a.contains("not possible")),
        "{answers:?}"
    );
    // Every answer is checkable and its own extract states it.
    let extract = sections_text(&l);
    assert!(check_facts(&l, &extract).missing.is_empty(), "{extract}");
    assert!(l.facts.iter().all(|f| !f.anchors.is_empty()), "{l:?}");
}

#[test]
fn numbers_that_configure_the_work_are_facts() {
    let run = [
        say(Role::User, "Estimate it with a Monte Carlo run"),
        call(
            "c1",
            "python",
            serde_json::json!({"code": "import random\nN_SAMPLES = 10000\nhits = sum(abs(random.random() - random.random()) for _ in range(N_SAMPLES))\nprint(hits / N_SAMPLES)"}),
        ),
        result("c1", "0.3329", false),
        say(
            Role::Assistant,
            "With 10,000 samples the estimate is 0.3329, against the theoretical 0.3333.",
        ),
    ];
    let l = ledger(&run);
    let values = texts(&l, FactKind::Value);
    assert!(
        values.iter().any(|v| v.contains("N_SAMPLES = 10000")),
        "{:?}",
        l.facts
    );
    let answers = texts(&l, FactKind::Answer);
    assert!(answers.iter().any(|a| a.contains("0.3333")), "{answers:?}");
}

#[test]
fn narration_is_neither_a_fact_nor_an_open_item() {
    let run = [
        say(Role::User, "Run the migration"),
        say(
            Role::Assistant,
            "I'll help you with that. Now I'll execute the remaining steps.",
        ),
        call(
            "c1",
            "Bash",
            serde_json::json!({"command": "mix ecto.migrate"}),
        ),
        result("c1", "== Migrated 20260211203856 in 0.0s", false),
        say(
            Role::Assistant,
            "Migration ran cleanly. The login test still fails on CI.",
        ),
    ];
    let l = ledger(&run);
    let open = texts(&l, FactKind::OpenItem);
    assert_eq!(open, vec!["The login test still fails on CI."]);
    assert!(
        l.facts.iter().all(|f| !f.text.contains("I'll")),
        "{:?}",
        l.facts
    );
    assert!(texts(&l, FactKind::Answer).contains(&"Migration ran cleanly."));
}

#[test]
fn repeated_exploration_is_grouped_and_every_command_kept() {
    let mut run = vec![say(Role::User, "Find the config loader")];
    let finds = [
        "find . -name '*.toml' | head -20",
        "find crates -name config.rs",
        "find . -path '*/config/*' -type f | head",
        "find src -name '*.rs' | head -5",
        "find . -name loader.rs",
    ];
    for (i, f) in finds.iter().enumerate() {
        let id = format!("f{i}");
        run.push(call(&id, "Bash", serde_json::json!({ "command": f })));
        run.push(result(
            &id,
            &format!("./crates/a/config_{i}.rs\n./crates/b/config_{i}.rs"),
            false,
        ));
    }
    run.push(call(
        "t",
        "Bash",
        serde_json::json!({"command": "cargo test -p config"}),
    ));
    run.push(result("t", "test result: ok. 4 passed; 0 failed", false));
    let l = ledger(&run);
    let commands = texts(&l, FactKind::Command);
    let grouped: Vec<&&str> = commands.iter().filter(|c| c.contains("×5")).collect();
    assert_eq!(grouped.len(), 1, "{commands:#?}");
    for f in finds {
        assert!(grouped[0].contains(f), "{f} in {}", grouped[0]);
    }
    assert!(
        grouped[0].contains("10 files, e.g. ./crates/a/config_0.rs"),
        "{}",
        grouped[0]
    );
    assert!(commands
        .iter()
        .any(|c| c.contains("cargo test -p config") && c.contains("4 passed")));
}

#[test]
fn a_sub_agent_report_stays_with_the_call_that_started_it() {
    let run = [
        say(Role::User, "Explore the codebase first"),
        call(
            "a1",
            "Task",
            serde_json::json!({"description": "Explore existing codebase", "prompt": "Find the hook controllers", "subagent_type": "Explore"}),
        ),
        result(
            "a1",
            "The hooks live in lib/spotter_web/controllers/hooks_controller.ex. Session start is POST /api/hooks/session-start. There are 3 hook scripts.",
            false,
        ),
    ];
    let l = ledger(&run);
    let commands = texts(&l, FactKind::Command);
    let report = commands
        .iter()
        .find(|c| c.starts_with("Task `Explore existing codebase` reported:"))
        .unwrap_or_else(|| panic!("{commands:#?}"));
    assert!(report.contains("hooks_controller.ex") && report.contains("/api/hooks/session-start"));
}

#[test]
fn an_answer_cut_out_of_its_conversation_is_still_an_answer() {
    // A fit extracts each step on its own: the answer without the request before it.
    for (answer, says) in [
        (
            "Day 1: Belém and the riverside. Day 2: Alfama, Baixa and a fado evening.",
            vec!["Belém", "fado"],
        ),
        (
            "Call `has_headers(false)` on a ReaderBuilder.",
            vec!["has_headers(false)"],
        ),
        (
            "I can't see the data behind the image; please upload the CSV.",
            vec!["upload the CSV"],
        ),
    ] {
        let alone = say(Role::Assistant, answer);
        let observations = Observer::new().observe(&alone);
        let refs: Vec<&Observation> = observations.iter().collect();
        let l = ledger_of(&refs);
        let answers = texts(&l, FactKind::Answer).join(" ");
        for s in says {
            assert!(answers.contains(s), "{s:?} in {:?}", l.facts);
        }
        // A selection of it alone continues what it answered: the squash of a selection is
        // not asked to restate it.
        let selected = ledger(std::slice::from_ref(&alone));
        assert!(
            texts(&selected, FactKind::Answer).is_empty(),
            "{selected:?}"
        );
    }
}

fn ledger_text(messages: &[Message]) -> String {
    let selection: Vec<&Message> = messages.iter().collect();
    let ledger = build_ledger(&selection);
    ledger
        .facts
        .iter()
        .map(|f| f.text.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn an_answer_the_agent_takes_back_is_not_stated_as_one() {
    let messages = vec![
        say(
            Role::User,
            "The orders query takes 4.8 seconds. What should I do?",
        ),
        say(
            Role::Assistant,
            "Add an index on the sort column: CREATE INDEX orders_created_at_idx ON orders \
             (created_at). Then Postgres can stop after 20 rows.",
        ),
        say(Role::User, "No change, it still does a Parallel Seq Scan."),
        say(
            Role::Assistant,
            "That plan changes my answer: the created_at index was the wrong fix. Create \
             orders_customer_created_idx on (customer_id, created_at DESC) instead.",
        ),
    ];
    let text = ledger_text(&messages);
    assert!(!text.contains("Add an index on the sort column"), "{text}");
    assert!(!text.contains("stop after 20 rows"), "{text}");
    assert!(text.contains("orders_customer_created_idx"), "{text}");
    assert!(text.contains("wrong fix"), "{text}");

    // Without the retraction, the first answer stays.
    let mut kept = messages.clone();
    kept[3] = say(
        Role::Assistant,
        "Then also create orders_customer_created_idx on (customer_id, created_at DESC).",
    );
    assert!(ledger_text(&kept).contains("stop after 20 rows"));
}

#[test]
fn an_answer_with_code_keeps_what_it_says_after_the_code_and_what_the_code_defines() {
    let mut body = String::from("Here is the refactored version:\n\n```python\n");
    for n in 0..30 {
        body.push_str(&format!("value_{n} = compute_{n}(value_{n})\n"));
    }
    body.push_str("def send_message_to_room(message: str) -> None:\n    pass\n```\n\n");
    body.push_str("I removed the commented out sync_forever call and follow PEP-8 now.");
    let messages = vec![
        say(Role::User, "Refactor my matrix bot script."),
        say(Role::Assistant, &body),
    ];
    let text = ledger_text(&messages);
    assert!(text.contains("sync_forever"), "{text}");
    assert!(text.contains("def send_message_to_room"), "{text}");
    assert!(!text.contains("value_3 = compute_3"), "{text}");
}

#[test]
fn a_long_request_keeps_the_constraint_it_ends_with() {
    let request = "Some of the comments seem almost like English versions of the line below \
                   them, especially when printing or logging is involved, and that makes the \
                   file twice as long as it needs to be for anyone who reads it later on. Can \
                   you make it a bit less redundant and shorter overall? Also, can you add \
                   documentation and typing to comply with pydocstyle and mypy?";
    let messages = vec![say(Role::User, request)];
    let text = ledger_text(&messages);
    assert!(text.starts_with("User: Some of the comments"), "{text}");
    assert!(text.contains("pydocstyle and mypy"), "{text}");
    assert!(
        text.chars().count() < request.chars().count() + 10,
        "{text}"
    );
}

#[test]
fn every_point_of_a_listed_answer_stays_even_in_short_words() {
    let messages = vec![
        say(
            Role::User,
            "My tongue has a sore at the tip. How do I help it heal?",
        ),
        say(
            Role::Assistant,
            "You can take several steps:\n\n1. Rinse your mouth with salt water a few times a \
             day.\n2. Avoid spicy and acidic foods.\n3. If it does not heal after a week, see \
             a dentist.",
        ),
    ];
    let text = ledger_text(&messages);
    assert!(text.contains("salt water"), "{text}");
    assert!(text.contains("Avoid spicy and acidic foods"), "{text}");
}

#[test]
fn a_long_request_says_what_it_asks_without_its_filler() {
    let request = "Okay so, to put it simply, and I really want to be clear here because last \
                   time it went wrong: our team has a standup every day at 9:30 and I keep \
                   missing it because my calendar shows it in UTC, not in Berlin time. How do I \
                   fix that in Google Calendar?";
    let text = ledger_text(&[say(Role::User, request)]);
    assert!(!text.contains("to put it simply"), "{text}");
    assert!(!text.contains("I really want to be clear"), "{text}");
    for kept in ["standup", "9:30", "UTC", "Berlin", "Google Calendar"] {
        assert!(text.contains(kept), "{kept}: {text}");
    }
    // A short request is read whole.
    let short = "Okay so, to put it simply: what is 9:30 UTC in Berlin?";
    assert!(ledger_text(&[say(Role::User, short)]).contains("to put it simply"));
}

#[test]
fn a_list_items_number_does_not_make_its_first_word_a_name() {
    let messages = [
        say(
            Role::User,
            "What types of credit card information do scammers try to get?",
        ),
        say(
            Role::Assistant,
            "Here are some common approaches:\n\n1) Using a spoofed phone number and sending text \
             messages to the owner of a credit card number asking them to authorize a payment\n\n\
             2) Calling a company customer service line and asking for the password of an account",
        ),
    ];
    let selection: Vec<&Message> = messages.iter().collect();
    let answers = texts(&build_ledger(&selection), FactKind::Answer).join("\n");
    // "Using" after "1)" opens the item: were it a name, only the clause holding it would stay.
    assert!(answers.contains("sending text messages"), "{answers}");
    assert!(answers.contains("asking for the password"), "{answers}");
}

#[test]
fn an_answer_says_again_what_the_requests_line_leaves_out() {
    let towns = [
        "Lexington",
        "Frankfort",
        "Bowling Green",
        "Paducah",
        "Covington",
        "Owensboro",
        "Richmond",
        "Florence",
    ];
    let extras = [
        "pecans",
        "country ham",
        "pimentos",
        "cheddar",
        "sourdough",
        "tomatoes",
        "Gruyère",
        "mustard",
    ];
    let context: String = towns
        .iter()
        .zip(extras)
        .map(|(town, extra)| format!("In {town} the sandwich is often served with {extra}. "))
        .collect();
    let request = format!(
        "What is a Louisville hot brown?\n\n{context}It was created in 1926 by Fred K. Schmidt \
         at the Brown Hotel, covered in Mornay sauce."
    );
    let messages = [
        say(Role::User, &request),
        say(
            Role::Assistant,
            "It is Kentucky's best-known hot sandwich, with roasted turkey. Fred Schmidt \
             created it in 1926 and covered it in Mornay sauce.",
        ),
    ];
    let selection: Vec<&Message> = messages.iter().collect();
    let ledger = build_ledger(&selection);
    let line = texts(&ledger, FactKind::Request).join("\n");
    assert!(
        !line.contains("Schmidt"),
        "the request's line is cut: {line}"
    );
    let answers = texts(&ledger, FactKind::Answer).join("\n");
    assert!(answers.contains("Schmidt"), "{answers}");
    assert!(answers.contains("Mornay"), "{answers}");
}

#[test]
fn a_code_mode_script_is_read_for_the_commands_and_patches_it_runs() {
    // Codex's code mode: `exec` runs JavaScript that calls the tools; the result of a nested
    // command comes back as its JSON.
    let session = [
        call(
            "c1",
            "exec",
            json!(r#"text(await tools.exec_command({cmd:"cargo test -p config 2>&1 | tail -5",max_output_tokens:1000}));"#),
        ),
        result(
            "c1",
            r#"{"chunk_id":"6bd49c","exit_code":101,"output":"error[E0425]: cannot find value `timeout` in this scope\n --> src/lib.rs:4:9\n"}"#,
            true,
        ),
        call(
            "c2",
            "exec",
            json!("await tools.apply_patch(\"*** Begin Patch\\n*** Update File: crates/config/src/lib.rs\\n@@\\n-x\\n+y\\n*** End Patch\\n\");"),
        ),
        result("c2", "Success. Updated the following files:\nM crates/config/src/lib.rs", false),
        call(
            "c3",
            "exec",
            json!("const f = load('file'); text(await tools.exec_command({cmd: 'wc -l ' + f}));"),
        ),
        result("c3", r#"{"exit_code":0,"output":"12 x\n"}"#, false),
    ];
    let l = ledger(&session);
    let commands = texts(&l, FactKind::Command).join("\n");
    assert!(commands.contains("cargo test -p config"), "{commands}");
    assert!(commands.contains("failed (exit 101)"), "{commands}");
    let all: Vec<&str> = l.facts.iter().map(|f| f.text.as_str()).collect();
    let all = all.join("\n");
    assert!(all.contains("E0425"), "{all}");
    assert!(!all.contains("chunk_id"), "{all}");
    // A command the script builds at run time is not guessed.
    assert!(!commands.contains("wc -l"), "{commands}");
    let files = texts(&l, FactKind::File).join("\n");
    assert!(files.contains("crates/config/src/lib.rs"), "{files}");
}

#[test]
fn a_command_polled_until_it_ends_is_told_with_how_it_ended() {
    // Codex returns from a long run while it goes on; the agent polls it by its session id.
    let session = [
        call("c1", "exec_command", json!({"cmd": "cargo test --workspace"})),
        result(
            "c1",
            "Chunk ID: a1\nWall time: 10.0 seconds\nProcess running with session ID 7\nOriginal token count: 3\nOutput:\n   Compiling config v0.1.0\n",
            false,
        ),
        call("c2", "write_stdin", json!({"session_id": 7, "chars": "", "yield_time_ms": 30000})),
        result(
            "c2",
            "Chunk ID: a2\nWall time: 12.5 seconds\nProcess exited with code 101\nOriginal token count: 9\nOutput:\ntest config::tests::reads_timeout ... FAILED\ntest result: FAILED. 41 passed; 1 failed\n",
            false,
        ),
    ];
    let l = ledger(&session);
    let commands = texts(&l, FactKind::Command).join("\n");
    assert!(commands.contains("cargo test --workspace"), "{commands}");
    assert!(commands.contains("failed (exit 101)"), "{commands}");
    assert!(commands.contains("41 passed; 1 failed"), "{commands}");
    assert!(!commands.contains("write_stdin"), "{commands}");
    assert!(!commands.contains("still running"), "{commands}");
}

#[test]
fn a_steps_answer_is_its_sentences_not_its_labels_nor_a_tables_header() {
    // A fit's step, the answer a long piece of work ended with: a label, a bold heading and a
    // table's header row name what follows; the sentences and the rows are the answer.
    let answer = say(
        Role::Assistant,
        "All 12 commands are implemented. Here's a summary of what was done:\n\n\
         What we know:\n\
         Each CLI invocation is a fresh process:\n\n\
         **Previously missing commands (now implemented):**\n\n\
         | Command | Implementation |\n|---|---|\n\
         | `enable` | runs `entire enable --agent <name>` |\n\
         | `clean` | runs `entire clean --dry-run` first |\n",
    );
    let observations = Observer::new().observe(&answer);
    let refs: Vec<&Observation> = observations.iter().collect();
    let l = ledger_of(&refs);
    let answers = texts(&l, FactKind::Answer);
    // A sentence that ends with a colon and says something ("… a fresh process:") stays.
    for said in [
        "entire enable --agent",
        "entire clean --dry-run",
        "a fresh process",
    ] {
        assert!(
            answers.iter().any(|a| a.contains(said)),
            "{said:?} in {answers:?}"
        );
    }
    let all: Vec<&str> = l.facts.iter().map(|f| f.text.as_str()).collect();
    for label in [
        "summary of what was done",
        "now implemented",
        "| Command | Implementation |",
    ] {
        assert!(
            !all.iter().any(|f| f.contains(label)),
            "{label:?} in {all:?}"
        );
    }
    assert!(
        !answers.iter().any(|a| a.contains("What we know")),
        "{answers:?}"
    );
}

#[test]
fn a_run_whose_tally_counts_failures_failed_whatever_its_pipe_returned() {
    // `| tail -20` returns tail's status: the harness reports no error, the tests failed.
    let vitest = " FAIL  src/lib/workflow/state-utils.test.ts > state-utils > discovers worktrees\n\
                  Error: Test timed out in 5000ms.\n\
                  If this is a long-running test, pass a timeout value as the last argument.\n\
                  \n Test Files  1 failed | 54 passed (55)\n      Tests  1 failed | 1444 passed (1445)\n";
    let passing = " Test Files  55 passed (55)\n      Tests  1445 passed (1445)\n";
    let session = [
        call("c1", "Bash", json!({"command": "npm test 2>&1 | tail -20"})),
        result("c1", vitest, false),
        call(
            "c2",
            "Bash",
            json!({"command": "npx vitest run 2>&1 | tail -5"}),
        ),
        result("c2", passing, false),
    ];
    let l = ledger(&session);
    let commands = texts(&l, FactKind::Command).join("\n");
    let npm = commands
        .lines()
        .find(|c| c.contains("npm test"))
        .unwrap_or_default();
    assert!(npm.contains("→ failed"), "{commands}");
    assert!(npm.contains("1 failed | 1444 passed"), "{commands}");
    // And what failed, as a failed run's errors are.
    let errors = texts(&l, FactKind::Error).join("\n");
    assert!(errors.contains("`npm test` failed"), "{errors}");
    assert!(errors.contains("Test timed out in 5000ms"), "{errors}");
    // A tally of no failure is a run that went well.
    let vitest = commands
        .lines()
        .find(|c| c.contains("npx vitest"))
        .unwrap_or_default();
    assert!(vitest.contains("→ ok: "), "{commands}");
}

#[test]
fn a_run_whose_toolchain_says_it_failed_failed_whatever_its_pipe_returned() {
    // `| head -30` returns head's status; Go printed that the build failed, and why.
    let build = "# entire.io/cli/cmd/entire/cli [entire.io/cli/cmd/entire/cli.test]\n\
                 cmd/entire/cli/explain_test.go:2062:12: undefined: scopeTranscriptForCheckpoint\n\
                 FAIL\tentire.io/cli/cmd/entire/cli [build failed]\n";
    // A Go test's own message points at a line of its file, with no column.
    let test = "Exit code 1\n=== RUN   TestFormatCheckpointOutput_Verbose\n    \
                explain_test.go:1032: verbose output should show prompts\n\
                --- FAIL: TestFormatCheckpointOutput_Verbose (0.00s)\nFAIL\n";
    let session = [
        call(
            "c1",
            "Bash",
            json!({"command": "go test ./cmd/entire/cli/... -run TestScope -v 2>&1 | head -30"}),
        ),
        result("c1", build, false),
        call(
            "c2",
            "Bash",
            json!({"command": "go test ./cmd/entire/cli/... -run TestFormatCheckpointOutput_Verbose -v 2>&1"}),
        ),
        result("c2", test, true),
    ];
    let l = ledger(&session);
    let commands = texts(&l, FactKind::Command).join("\n");
    assert!(
        commands
            .lines()
            .find(|c| c.contains("TestScope"))
            .is_some_and(|c| c.contains("→ failed")),
        "{commands}"
    );
    let errors = texts(&l, FactKind::Error).join("\n");
    assert!(
        errors.contains("undefined: scopeTranscriptForCheckpoint"),
        "{errors}"
    );
    assert!(
        errors.contains("explain_test.go:1032: verbose output should show prompts"),
        "{errors}"
    );
}
