//! The fact ledger on the public sessions under testdata/sessions, imported by Squash's own
//! importer: the files, commands, errors and fixes a person reading them would name.

mod common;

use std::path::PathBuf;
use std::sync::Arc;

use squash_app::import::{ImportOptions, NoProgress};
use squash_core::ledger::{build_ledger, FactKind, Ledger};
use squash_core::Message;

async fn ledger_of(file: &str, from: usize, to: usize) -> Ledger {
    let b = common::sqlite().await;
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/sessions")
        .join(file);
    let summary = b
        .service
        .import_file(&path, &ImportOptions::default(), Arc::new(NoProgress))
        .await
        .unwrap();
    let conv = summary.conversations[0].conversation_id;
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
    // Run twice, before and after the fix. (What it printed, 344 then 345, is not kept: SWE-agent
    // appends "(Open file: …)" lines, so the output is not a short one — a known gap.)
    assert!(
        commands
            .iter()
            .any(|c| c.contains("python reproduce.py") && c.contains("ok, then ok")),
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
