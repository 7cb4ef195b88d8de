//! The ledger of the demo session (the coding-agent run `squash demo` squashes).

use serde::Deserialize;

use super::*;
use crate::ids::ConversationId;
use crate::message::{ContentItem, Message, Role};

#[derive(Deserialize)]
struct Session {
    messages: Vec<SessionMessage>,
}

#[derive(Deserialize)]
struct SessionMessage {
    role: Role,
    content: Vec<ContentItem>,
}

fn demo() -> Vec<Message> {
    let session: Session =
        serde_json::from_str(include_str!("../../../squash-cli/demo/session.json"))
            .expect("the demo session parses");
    let conversation = ConversationId::new();
    session
        .messages
        .into_iter()
        .map(|m| Message::new(conversation, m.role, m.content).expect("non-empty"))
        .collect()
}

fn texts(ledger: &Ledger, kind: FactKind) -> Vec<&str> {
    ledger
        .facts
        .iter()
        .filter(|f| f.kind == kind)
        .map(|f| f.text.as_str())
        .collect()
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
            &"Ran `cargo test -p config` → failed: test result: FAILED. 3 passed; 1 failed; \
              0 ignored, then failed"
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
    let fixes = texts(&ledger, FactKind::Fix);
    assert!(fixes.iter().any(|f| f.contains("E0425")), "{fixes:?}");
    assert!(
        fixes
            .iter()
            .any(|f| f.contains("tests::parses_minimal_file")
                && f.contains("by editing crates/config/src/lib.rs")),
        "{fixes:?}"
    );
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
    let extract = extract_text(&ledger, &all);
    let check = check_facts(&ledger, &extract);
    assert!(
        check.missing.is_empty(),
        "{:?}",
        ledger.subset(&check.missing)
    );
    // An empty answer states nothing.
    assert_eq!(check_facts(&ledger, "").kept.len(), 0);
}
