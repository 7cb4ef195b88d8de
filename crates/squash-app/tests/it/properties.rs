//! Random operation sequences keep every invariant: nothing lost, dense ordered positions,
//! undo restores exactly the previous list, every operation's messages exist — and every new
//! thread is exactly what the domain's planners (`squash_core::thread_ops`) say it must be: they are
//! the oracle for the store's in-database copy.

use squash_testkit::fixtures::new_conversation;
use std::collections::HashSet;

use proptest::prelude::*;
use squash_app::{EditRequest, ManualSquashRequest, PartnerPolicy, ServiceError};
use squash_core::thread_ops::{self, Selection};
use squash_core::{ContentItem, ConversationId, DomainError, MessageId, Role};
use squash_testkit::{mixed_content, Backend};

#[derive(Clone, Debug)]
enum Op {
    Append(usize),
    Edit(usize),
    Delete(Vec<usize>),
    Squash(Vec<usize>),
    Undo,
    Redo,
    Switch(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0usize..10).prop_map(Op::Append),
        1 => any::<usize>().prop_map(Op::Edit),
        1 => proptest::collection::vec(any::<usize>(), 1..3).prop_map(Op::Delete),
        2 => proptest::collection::vec(any::<usize>(), 2..5).prop_map(Op::Squash),
        1 => Just(Op::Undo),
        1 => Just(Op::Redo),
        1 => any::<usize>().prop_map(Op::Switch),
    ]
}

fn pick(links: &[MessageId], picks: &[usize]) -> Vec<MessageId> {
    let mut out: Vec<MessageId> = Vec::new();
    for p in picks {
        let id = links[p % links.len()];
        if !out.contains(&id) {
            out.push(id);
        }
    }
    out
}

/// The selection as the domain resolves it on `links`, with the store's tool closure.
async fn oracle_selection(
    b: &Backend,
    conv: ConversationId,
    links: &[MessageId],
    picked: &[MessageId],
) -> Result<Selection, DomainError> {
    let ordered = thread_ops::order_by_thread(links, picked)?;
    let refs = b.store.tool_refs_closure(conv, &ordered).await.unwrap();
    thread_ops::select_with_partners(links, &ordered, &refs, PartnerPolicy::Include)
}

/// The thread the planners say `op` must leave, given what it introduced (`result`) — or the
/// domain error they refuse it with.
async fn oracle(
    b: &Backend,
    conv: ConversationId,
    before: &[MessageId],
    op: &Op,
    result: Option<MessageId>,
) -> Option<Result<Vec<MessageId>, DomainError>> {
    match op {
        Op::Edit(i) => {
            let target = before[i % before.len()];
            let r = result?;
            Some(thread_ops::plan_edit(before, target).and_then(|e| e.apply(before, Some(r))))
        }
        Op::Delete(p) => {
            let sel = match oracle_selection(b, conv, before, &pick(before, p)).await {
                Ok(sel) => sel,
                Err(e) => return Some(Err(e)),
            };
            Some(thread_ops::plan_delete(before, &sel.ordered).and_then(|e| e.apply(before, None)))
        }
        Op::Squash(p) => {
            let sel = match oracle_selection(b, conv, before, &pick(before, p)).await {
                Ok(sel) => sel,
                Err(e) => return Some(Err(e)),
            };
            let edit = match thread_ops::plan_squash(before, &sel.ordered) {
                Ok(edit) => edit,
                Err(e) => return Some(Err(e)),
            };
            // A refused squash has no result; a fresh id stands in, the plan alone says it was
            // possible.
            let placeholder = MessageId::new();
            Some(edit.apply(before, Some(result.unwrap_or(placeholder))))
        }
        _ => None,
    }
}

async fn run_sequence(b: &Backend, ops: Vec<Op>) {
    let s = &b.service;
    let conv = new_conversation(s, "/tmp/prop", "prop").await;
    let mut ever: HashSet<MessageId> = HashSet::new();
    for n in 0..4 {
        let (role, content) = mixed_content(n);
        ever.insert(s.append(conv.id, role, content).await.unwrap().0.id);
    }
    for (step, op) in ops.into_iter().enumerate() {
        let before = s.current_links(conv.id).await.unwrap().links;
        let outcome = match &op {
            Op::Append(kind) => {
                let (role, content) = mixed_content(*kind + step);
                let (m, appended) = s.append(conv.id, role, content).await.unwrap();
                ever.insert(m.id);
                assert_eq!(appended.position, thread_ops::plan_append(&before));
                let mut expected = before.clone();
                expected.push(m.id);
                assert_eq!(s.current_links(conv.id).await.unwrap().links, expected);
                None
            }
            Op::Edit(i) if !before.is_empty() => Some(
                s.edit(
                    conv.id,
                    EditRequest {
                        message: before[i % before.len()],
                        content: vec![ContentItem::text_for(Role::User, format!("edit {step}"))],
                    },
                )
                .await,
            ),
            Op::Delete(p) if !before.is_empty() => Some(
                s.delete(conv.id, &pick(&before, p), PartnerPolicy::Include)
                    .await,
            ),
            Op::Squash(p) if !before.is_empty() => Some(
                s.squash_manual(
                    conv.id,
                    ManualSquashRequest {
                        messages: pick(&before, p),
                        ..Default::default()
                    },
                )
                .await,
            ),
            Op::Undo => {
                let _ = s.undo(conv.id).await;
                None
            }
            Op::Redo => {
                let _ = s.redo(conv.id).await;
                None
            }
            Op::Switch(i) => {
                let threads = s.store().threads(conv.id).await.unwrap();
                s.switch_thread(conv.id, threads[i % threads.len()].id)
                    .await
                    .unwrap();
                None
            }
            _ => None,
        };
        match outcome {
            Some(Ok(o)) => {
                if let Some(m) = &o.message {
                    ever.insert(m.id);
                }
                let after = s.current_links(conv.id).await.unwrap().links;
                let expected = oracle(b, conv.id, &before, &op, o.message.as_ref().map(|m| m.id))
                    .await
                    .expect("every copy-on-write operation has a plan");
                assert_eq!(
                    Ok(after.clone()),
                    expected,
                    "{op:?}: store and planner disagree"
                );
                // Undo restores exactly the previous list; redo returns to the result.
                s.undo(conv.id).await.unwrap();
                assert_eq!(
                    s.current_links(conv.id).await.unwrap().links,
                    before,
                    "undo after {op:?}"
                );
                s.redo(conv.id).await.unwrap();
                assert_eq!(
                    s.current_links(conv.id).await.unwrap().links,
                    after,
                    "redo after {op:?}"
                );
            }
            // Refused requests (an edit that would orphan a tool result, a squash whose
            // selection is one message, ...) must leave the thread as it was.
            Some(Err(e)) => {
                assert!(
                    matches!(e, ServiceError::Invalid(_) | ServiceError::Domain(_)),
                    "{op:?}: {e}"
                );
                // A selection the planners refuse is refused with their words.
                if let (Op::Delete(_) | Op::Squash(_), ServiceError::Domain(d)) = (&op, &e) {
                    let planned = oracle(b, conv.id, &before, &op, None).await;
                    assert_eq!(planned.map(|p| p.err()), Some(Some(d.clone())), "{op:?}");
                }
                assert_eq!(
                    s.current_links(conv.id).await.unwrap().links,
                    before,
                    "{op:?} failed but changed the thread"
                );
            }
            None => {}
        }
    }
    let stored: HashSet<MessageId> = b
        .store
        .all_messages(conv.id)
        .await
        .unwrap()
        .iter()
        .map(|m| m.id)
        .collect();
    assert!(ever.is_subset(&stored), "a message was lost from storage");
    let bad = squash_testkit::violations(b, conv.id).await;
    assert!(bad.is_empty(), "{bad:#?}");
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_sequences_keep_invariants_on_sqlite(ops in proptest::collection::vec(op(), 1..30)) {
        let rt = runtime();
        rt.block_on(async {
            let b = squash_testkit::sqlite().await;
            run_sequence(&b, ops).await;
            b.cleanup().await;
        });
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_sequences_keep_invariants_on_postgres(ops in proptest::collection::vec(op(), 1..30)) {
        let rt = runtime();
        rt.block_on(async {
            let Some(b) = squash_testkit::postgres().await else { return };
            run_sequence(&b, ops).await;
            b.cleanup().await;
        });
    }
}
