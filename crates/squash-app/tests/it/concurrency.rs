//! 8 writers, 2,000 operations on one conversation: every append survives (in the current
//! thread, or squashed into a message of it), no operation is half-applied, and conflicts are
//! re-applied or reported.

use squash_testkit::fixtures::new_conversation;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use rand::{Rng, SeedableRng};
use squash_app::{AppError, ErrorCode, PartnerPolicy, ServiceError, SquashApplication};
use squash_core::{ContentItem, MessageId, Role};
use squash_testkit::{mixed_content, Backend};

const WRITERS: usize = 8;
const OPS_PER_WRITER: usize = 250;

#[derive(Default)]
struct Tally {
    appends: AtomicU32,
    squashes: AtomicU32,
    reapplied: AtomicU32,
    conflicts: AtomicU32,
}

async fn writers(b: &Backend) {
    let conv = new_conversation(&b.service, "/tmp/concurrency", "8 writers").await;
    let tally = Arc::new(Tally::default());
    let mut tasks = Vec::new();
    for w in 0..WRITERS {
        let service = b.service.clone();
        let tally = tally.clone();
        tasks.push(tokio::spawn(async move {
            let mut rng = rand::rngs::StdRng::seed_from_u64(w as u64);
            let mut mine = Vec::new();
            for i in 0..OPS_PER_WRITER {
                // Squash a random pair now and then; mostly append (the common case).
                if i % 5 == 4 {
                    let snap = service.current_links(conv.id).await.unwrap();
                    if snap.links.len() < 4 {
                        continue;
                    }
                    let a = rng.gen_range(0..snap.links.len());
                    let c = (a + 1 + rng.gen_range(0..3)) % snap.links.len();
                    let app = SquashApplication {
                        messages: vec![snap.links[a], snap.links[c]],
                        content: vec![ContentItem::text_for(
                            Role::User,
                            format!("squash by writer {w} op {i}"),
                        )],
                        role: Role::User,
                        policy: PartnerPolicy::Include,
                        kind: squash_core::OperationKind::Manual,
                        computed_on: Some((snap.thread.id, snap.thread.revision)),
                    };
                    match service.apply_squash(conv.id, app).await {
                        Ok(o) => {
                            tally.squashes.fetch_add(1, Ordering::Relaxed);
                            tally.reapplied.fetch_add(o.reapplied, Ordering::Relaxed);
                        }
                        // A source was squashed away by another writer meanwhile.
                        Err(ServiceError::Conflict(_)) => {
                            tally.conflicts.fetch_add(1, Ordering::Relaxed);
                        }
                        // The pair grew past two with partners and then lost one... any other
                        // refusal must be bad input, never a storage failure.
                        Err(e) => assert_eq!(e.code(), ErrorCode::InvalidInput, "writer {w}: {e}"),
                    }
                } else {
                    let (role, content) = mixed_content(rng.gen_range(0..10));
                    let content = match role {
                        // Keep tool pairs out: a pair split across writers is not this test's subject.
                        _ if content.iter().any(|c| {
                            matches!(
                                c,
                                ContentItem::ToolCall { .. } | ContentItem::ToolResult { .. }
                            )
                        }) =>
                        {
                            vec![ContentItem::text_for(
                                Role::User,
                                format!("writer {w} message {i}"),
                            )]
                        }
                        _ => content,
                    };
                    let (m, _) = service.append(conv.id, role, content).await.unwrap();
                    tally.appends.fetch_add(1, Ordering::Relaxed);
                    mine.push(m.id);
                }
            }
            mine
        }));
    }
    let mut appended = Vec::new();
    for t in tasks {
        appended.extend(t.await.unwrap());
    }

    // Every append is in the final current thread, or a (transitive) source of a message in it.
    let current = b.service.current_links(conv.id).await.unwrap().links;
    let ops = b.service.operations(conv.id).await.unwrap();
    let sources_of: HashMap<MessageId, Vec<MessageId>> = ops
        .iter()
        .map(|o| (o.result_message_id, o.source_message_ids.clone()))
        .collect();
    let mut reachable: HashSet<MessageId> = HashSet::new();
    let mut stack: Vec<MessageId> = current.clone();
    while let Some(id) = stack.pop() {
        if reachable.insert(id) {
            if let Some(srcs) = sources_of.get(&id) {
                stack.extend(srcs);
            }
        }
    }
    let lost: Vec<_> = appended
        .iter()
        .filter(|id| !reachable.contains(id))
        .collect();
    assert!(
        lost.is_empty(),
        "{} appends unreachable from the current thread: {lost:?}",
        lost.len()
    );

    let bad = squash_testkit::violations(b, conv.id).await;
    assert!(bad.is_empty(), "{bad:#?}");
    let squashes = tally.squashes.load(Ordering::Relaxed);
    assert_eq!(
        ops.len() as u32,
        squashes,
        "every applied squash has exactly one record"
    );
    let threads = b.store.threads(conv.id).await.unwrap().len() as u32;
    assert_eq!(threads, squashes + 1, "no thread without its operation");
    eprintln!(
        "{}: {} appends, {} squashes ({} re-applied on a newer thread), {} conflicts reported",
        b.name,
        tally.appends.load(Ordering::Relaxed),
        squashes,
        tally.reapplied.load(Ordering::Relaxed),
        tally.conflicts.load(Ordering::Relaxed)
    );
    assert!(squashes > 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn eight_writers_on_sqlite() {
    let b = squash_testkit::sqlite().await;
    writers(&b).await;
    b.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn eight_writers_on_postgres() {
    let Some(b) = squash_testkit::postgres().await else {
        return;
    };
    writers(&b).await;
    b.cleanup().await;
}
