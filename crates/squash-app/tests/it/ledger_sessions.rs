//! The fact ledger on the public sessions under testdata/sessions, imported by Squash's own
//! importer: the files, commands, errors and fixes a person reading them would name.

use squash_core::ledger::{build_ledger, FactKind, Ledger};
use squash_core::{ConversationId, Message};

/// The session `file` of the test data, imported into a fresh SQLite store.
async fn imported(file: &str) -> (squash_testkit::Backend, ConversationId) {
    let b = squash_testkit::sqlite().await;
    let conv = squash_testkit::fixtures::import_session_data(&b, file).await;
    (b, conv)
}

async fn ledger_of(file: &str, from: usize, to: usize) -> Ledger {
    let (b, conv) = imported(file).await;
    let links = b.service.current_links(conv).await.unwrap().links;
    let messages = b.service.messages(&links[from - 1..to]).await.unwrap();
    let refs: Vec<&Message> = messages.iter().collect();
    build_ledger(&refs)
}

fn texts(ledger: &Ledger, kind: FactKind) -> Vec<String> {
    ledger
        .facts
        .iter()
        .filter(|f| f.kind == kind)
        .map(|f| f.text.clone())
        .collect()
}

#[tokio::test]
async fn swe_agent_trajectory() {
    // From reproducing the TimeDelta rounding bug to the fix (positions 3 to 22).
    let ledger = ledger_of("swe-agent-marshmallow-1867.traj", 3, 22).await;
    let commands = texts(&ledger, FactKind::Command);
    // Run twice, before and after the fix, with what it printed: 344, then 345.
    assert!(
        commands.iter().any(|c| c.contains("python reproduce.py")
            && c.contains("ok: 344")
            && c.contains("then ok: 345")),
        "{commands:#?}"
    );
    assert!(
        commands.iter().any(|c| c.contains("rm reproduce.py")),
        "{commands:#?}"
    );
    // The editor's refused edit (a syntax error it reports without an error flag), then the
    // edit that worked.
    let fixes = texts(&ledger, FactKind::Fix);
    assert!(
        fixes
            .iter()
            .any(|f| f.contains("IndentationError") || f.contains("syntax error")),
        "{fixes:#?}"
    );
    assert!(ledger
        .facts
        .iter()
        .any(|f| f.anchors.iter().any(|a| a.contains("fields.py"))));
}

#[tokio::test]
async fn claude_code_init_session() {
    let ledger = ledger_of("claude-code-linear-1af7fc5e.jsonl", 2, 21).await;
    let requests = texts(&ledger, FactKind::Request);
    assert!(
        requests.iter().any(|r| r.contains("CLAUDE.md")),
        "{requests:#?}"
    );
    // The write Claude Code was not allowed to do is an error, with its path.
    let errors = texts(&ledger, FactKind::Error);
    assert!(
        errors.iter().any(|e| e.contains("/path/to/Demo/CLAUDE.md")),
        "{errors:#?}"
    );
    let commands = texts(&ledger, FactKind::Command);
    assert!(
        commands.iter().any(|c| c.contains("ls -la")),
        "{commands:#?}"
    );
    // Narration is not a fact; every fact names a message of the selection.
    assert!(ledger.facts.iter().all(|f| !f.text.starts_with("Let me")));
}

/// The first request's run of the Claude Code 2.1.39 session with a compaction: dozens of
/// commands, file reads and edits.
#[tokio::test]
async fn every_command_of_a_long_agent_run_is_in_its_extract() {
    let file = "claude-code-compacted-258c7280/258c7280-ae70-4798-800f-63464d01a85d.jsonl";
    let (b, conv) = imported(file).await;
    // The history before the compaction: the longest thread but the whole history.
    let history = b.service.history(conv).await.unwrap();
    let longest = history
        .iter()
        .filter(|e| !e.thread.origin.is_whole_history())
        .max_by_key(|e| e.thread.message_count)
        .unwrap()
        .thread
        .id;
    let view = b.service.thread_view(longest).await.unwrap();
    let range: Vec<&Message> = view.messages[1..120].iter().collect();
    let ledger = build_ledger(&range);
    let extract = squash_core::note::extract_text(&ledger, &range);
    let mut commands = Vec::new();
    for m in &range {
        for item in &m.content {
            if let squash_core::ContentItem::ToolCall { name, input, .. } = item {
                if name == "Bash" {
                    let first = input["command"].as_str().unwrap().lines().next().unwrap();
                    commands.push(first.split_whitespace().collect::<Vec<_>>().join(" "));
                }
            }
        }
    }
    assert!(commands.len() >= 20, "{}", commands.len());
    for c in &commands {
        let shown: String = c.chars().take(100).collect();
        assert!(extract.contains(&shown), "{shown} is not in\n{extract}");
    }
    // Narration is not an open item.
    for open in texts(&ledger, FactKind::OpenItem) {
        assert!(
            !open.starts_with("Now") && !open.contains("Let me"),
            "{open}"
        );
    }
    // Every file the run read or edited is a fact.
    let files = texts(&ledger, FactKind::File);
    assert!(
        files
            .iter()
            .any(|f| f.contains("annotation_message_ref.ex")),
        "{files:#?}"
    );
}
