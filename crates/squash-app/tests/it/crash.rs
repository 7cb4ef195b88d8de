//! Crash safety: a process running random operations on a SQLite file is killed (SIGKILL) at
//! 20 random moments; after each kill the file passes `PRAGMA integrity_check`, every
//! invariant holds, and every append the worker saw committed is still stored.
//!
//! The worker is this same test binary, re-executed with `SQUASH_CRASH_WORKER` set.

use squash_testkit::fixtures::new_conversation;
use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use rand::{Rng, SeedableRng};
use squash_app::{ConversationService, EditRequest, ManualSquashRequest, PartnerPolicy};
use squash_core::{ContentItem, Role};
use squash_store::sqlite::SqliteStore;
use squash_store::ConversationStore;

const KILLS: usize = 20;

/// The worker: random operations forever, logging each committed append's id.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crash_worker() {
    let Ok(db) = std::env::var("SQUASH_CRASH_WORKER") else {
        return; // only runs when re-executed by `killed_at_random_moments`
    };
    let log_path = format!("{db}.appends");
    let store: Arc<dyn ConversationStore> = Arc::new(SqliteStore::open(&db).unwrap());
    let service = ConversationService::new(store);
    let conv = match service.list_conversations(None).await.unwrap().first() {
        Some(c) => c.id,
        None => new_conversation(&service, "/tmp/crash", "crash").await.id,
    };
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log_path)
        .unwrap();
    let mut rng = rand::rngs::StdRng::from_entropy();
    loop {
        let links = service.current_links(conv).await.unwrap().links;
        let pick = |rng: &mut rand::rngs::StdRng| links[rng.gen_range(0..links.len())];
        match rng.gen_range(0..10) {
            0..=4 => {
                let (role, content) = squash_testkit::mixed_content(rng.gen_range(0..10));
                let (m, _) = service.append(conv, role, content).await.unwrap();
                writeln!(log, "{}", m.id).unwrap();
            }
            5 if links.len() > 2 => {
                let _ = service
                    .squash_manual(
                        conv,
                        ManualSquashRequest {
                            messages: vec![pick(&mut rng), pick(&mut rng), pick(&mut rng)],
                            ..Default::default()
                        },
                    )
                    .await;
            }
            6 if !links.is_empty() => {
                let _ = service
                    .edit(
                        conv,
                        EditRequest {
                            message: pick(&mut rng),
                            content: vec![ContentItem::text_for(Role::User, "edited")],
                        },
                    )
                    .await;
            }
            7 if !links.is_empty() => {
                let _ = service
                    .delete(conv, &[pick(&mut rng)], PartnerPolicy::Include)
                    .await;
            }
            8 => {
                let _ = service.undo(conv).await;
            }
            _ => {
                let _ = service.redo(conv).await;
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_at_random_moments() {
    if std::env::var("SQUASH_CRASH_WORKER").is_ok() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crash.db");
    let exe = std::env::current_exe().unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(20);
    for kill in 0..KILLS {
        let mut child = Command::new(&exe)
            .args([
                "--exact",
                "crash_worker",
                "--nocapture",
                "--test-threads",
                "1",
            ])
            .env("SQUASH_CRASH_WORKER", &db)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        tokio::time::sleep(Duration::from_millis(rng.gen_range(150..900))).await;
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();

        let conn = rusqlite::Connection::open(&db).unwrap();
        let check: String = conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .unwrap();
        assert_eq!(check, "ok", "after kill {kill}");
        drop(conn);

        let store = Arc::new(SqliteStore::open(&db).unwrap());
        let b = squash_testkit::Backend::from_sqlite(store.clone(), db.clone());
        let convs = b.service.list_conversations(None).await.unwrap();
        let Some(conv) = convs.first() else { continue };
        let bad = squash_testkit::violations(&b, conv.id).await;
        assert!(bad.is_empty(), "after kill {kill}: {bad:#?}");
        let stored: std::collections::HashSet<String> = store
            .all_messages(conv.id)
            .await
            .unwrap()
            .iter()
            .map(|m| m.id.to_string())
            .collect();
        let logged =
            std::fs::read_to_string(format!("{}.appends", db.display())).unwrap_or_default();
        // The last line may be torn by the kill; every complete one must be stored.
        let complete: Vec<&str> = logged.lines().filter(|l| l.len() == 36).collect();
        for id in &complete {
            assert!(
                stored.contains(*id),
                "after kill {kill}: committed append {id} is gone"
            );
        }
        eprintln!(
            "kill {kill}: ok ({} messages, {} logged appends)",
            stored.len(),
            complete.len()
        );
    }
}
