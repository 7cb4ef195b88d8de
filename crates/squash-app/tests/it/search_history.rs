//! The search over a conversation's whole history, one story on every backend: a squash, an
//! edit and a delete take messages out of the current thread; the history search still finds
//! them and says which operation took each out (the newest one whose sources hold it) or that
//! none did, and which operation made a result; the current-thread search does not find them.
//! Paging, ranking, scope, and clear errors for a bad query, limit, offset or conversation.

use std::collections::BTreeSet;

use squash_app::{
    ConversationService, EditRequest, ExchangeSide, HistoryFound, HistoryMatch, HistoryPlace,
    ManualSquashRequest, OperationOutcome, OperationRef, PartnerPolicy, ServiceError,
};
use squash_core::operation::KindTag;
use squash_core::{ContentItem, ConversationId, MessageId, Role, SquashOperation};
use squash_testkit::fixtures::{append, append_output, append_text, new_conversation};
use squash_testkit::{on_every_backend, Backend};

async fn history(b: &Backend, conv: ConversationId, q: &str) -> HistoryFound {
    b.service
        .search_history(conv, q, None, None)
        .await
        .unwrap_or_else(|e| panic!("{}: history {q:?}: {e}", b.name))
}

fn hit(r: &HistoryFound, id: MessageId) -> &HistoryMatch {
    r.hits
        .iter()
        .find(|h| h.message_id == id)
        .unwrap_or_else(|| panic!("{id} is not among {:?}", r.hits))
}

fn ids(r: &HistoryFound) -> BTreeSet<MessageId> {
    r.hits.iter().map(|h| h.message_id).collect()
}

/// Where a message stands that `op` took out of the thread (`None`: a delete did).
fn out_by(op: Option<OperationRef>) -> HistoryPlace {
    HistoryPlace::OutOfThread { taken_out_by: op }
}

fn by(op: &Option<SquashOperation>, kind: KindTag) -> Option<OperationRef> {
    let op = op.as_ref().expect("the outcome has its operation");
    Some(OperationRef {
        id: op.id,
        kind,
        recall_ref: op.recall_ref,
    })
}

/// Squashes `messages` of `conv` by hand into an assistant message saying `text`.
async fn squash(
    s: &ConversationService,
    conv: ConversationId,
    messages: Vec<MessageId>,
    text: &str,
) -> OperationOutcome {
    let request = ManualSquashRequest {
        messages,
        text: Some(text.into()),
        content: None,
        role: Some(Role::Assistant),
        policy: PartnerPolicy::Include,
    };
    s.squash_manual(conv, request).await.unwrap()
}

async fn history_story(b: &Backend) {
    let s = &b.service;
    let conv = new_conversation(s, "/tmp/history", "History").await.id;
    let other = new_conversation(s, "/tmp/history-other", "Other").await.id;
    let say = |c: ConversationId, text: &str| {
        let text = text.to_owned();
        async move {
            s.append(c, Role::User, vec![ContentItem::UserMessage { text }])
                .await
                .unwrap()
                .0
                .id
        }
    };
    let ask = say(
        conv,
        "Why does the zeppelin parser fail on the harbour config?",
    )
    .await;
    let read = say(
        conv,
        "Reading the zeppelin config: harbour timeout is 30 seconds",
    )
    .await;
    let seen = say(conv, "The harbour section has no retry count").await;
    let aside = say(conv, "Unrelated: the lighthouse keeps blinking").await;
    let answer = say(conv, "The zeppelin parser needs a retry count").await;
    say(other, "another zeppelin over another harbour").await;

    // A squash takes two messages out: the history finds them and names the squash; the
    // current thread's search finds only the result, which names it as what made it.
    let squashed = squash(s, conv, vec![read, seen], "Config read: a timeout of 30 s.").await;
    let result = squashed.message.as_ref().unwrap().id;
    let manual = by(&squashed.operation, KindTag::Manual);
    let r = history(b, conv, "harbour").await;
    assert_eq!(ids(&r), BTreeSet::from([ask, read, seen]), "{}", b.name);
    assert_eq!(r.total, 3);
    assert_eq!(
        hit(&r, ask).place,
        HistoryPlace::InCurrentThread { position: 1 }
    );
    for gone in [read, seen] {
        assert_eq!(hit(&r, gone).place, out_by(manual), "{}", b.name);
        assert_eq!(hit(&r, gone).result_of, None);
    }
    let current = s.search("harbour", Some(conv), None).await.unwrap();
    assert_eq!(
        current
            .hits
            .iter()
            .map(|h| h.message_id)
            .collect::<Vec<_>>(),
        vec![ask],
        "{}: the current thread's search does not find what the squash took out",
        b.name
    );
    let r = history(b, conv, "timeout").await;
    assert_eq!(ids(&r), BTreeSet::from([read, result]), "{}", b.name);
    assert_eq!(
        hit(&r, result).place,
        HistoryPlace::InCurrentThread { position: 2 }
    );
    assert_eq!(hit(&r, result).result_of, manual, "{}", b.name);
    let marked: Vec<&str> = hit(&r, read)
        .snippet
        .iter()
        .filter(|p| p.hit)
        .map(|p| p.text.as_str())
        .collect();
    assert_eq!(marked, ["timeout"], "{}", b.name);

    // The newest operation whose sources hold a message is the one named: squashing the
    // result again takes it out too, while its own sources stay with the first squash.
    let again = squash(
        s,
        conv,
        vec![ask, result],
        "Asked about the parser; a timeout.",
    )
    .await;
    let second = by(&again.operation, KindTag::Manual);
    let r = history(b, conv, "timeout").await;
    assert_eq!(hit(&r, result).place, out_by(second), "{}", b.name);
    assert_eq!(hit(&r, result).result_of, manual);
    assert_eq!(hit(&r, read).place, out_by(manual));

    // An edit takes the edited message out; a delete takes one out with no operation.
    let edited = s
        .edit(
            conv,
            EditRequest {
                message: answer,
                content: vec![ContentItem::UserMessage {
                    text: "The zeppelin parser needs a retry count of 3".into(),
                }],
            },
        )
        .await
        .unwrap();
    let edit = by(&edited.operation, KindTag::Edit);
    let new_answer = edited.message.as_ref().unwrap().id;
    s.delete(conv, &[aside], PartnerPolicy::Include)
        .await
        .unwrap();
    let r = history(b, conv, "zeppelin").await;
    assert_eq!(
        ids(&r),
        BTreeSet::from([ask, read, answer, new_answer]),
        "{}",
        b.name
    );
    assert_eq!(hit(&r, answer).place, out_by(edit));
    assert_eq!(hit(&r, new_answer).result_of, edit);
    assert_eq!(
        hit(&r, new_answer).place,
        HistoryPlace::InCurrentThread { position: 2 }
    );
    let r = history(b, conv, "lighthouse").await;
    assert_eq!(hit(&r, aside).place, out_by(None), "{}", b.name);
    assert!(s
        .search("lighthouse", Some(conv), None)
        .await
        .unwrap()
        .hits
        .is_empty());
    // Undo brings it back into the thread, and the history says so.
    s.undo(conv).await.unwrap();
    let r = history(b, conv, "lighthouse").await;
    assert_eq!(
        hit(&r, aside).place,
        HistoryPlace::InCurrentThread { position: 2 }
    );

    // Pages, best first, with the total on each.
    for n in 0..7 {
        let words = "needle ".repeat(n + 1);
        say(conv, &format!("{words} in a haystack number {n}")).await;
    }
    let all = s
        .search_history(conv, "needle", Some(200), None)
        .await
        .unwrap();
    assert_eq!(
        (all.hits.len(), all.total, all.more),
        (7, 7, false),
        "{}",
        b.name
    );
    assert!(
        all.hits.windows(2).all(|w| w[0].rank >= w[1].rank),
        "{}",
        b.name
    );
    let mut paged = Vec::new();
    for offset in [0, 3, 6] {
        let page = s
            .search_history(conv, "needle", Some(3), Some(offset))
            .await
            .unwrap();
        assert_eq!((page.offset, page.total), (u64::from(offset), 7));
        paged.extend(page.hits.into_iter().map(|h| h.message_id));
    }
    let best: Vec<MessageId> = all.hits.iter().map(|h| h.message_id).collect();
    assert_eq!(
        paged, best,
        "{}: pages are the ranking cut in order",
        b.name
    );
    let past = s
        .search_history(conv, "needle", None, Some(50))
        .await
        .unwrap();
    assert!(past.hits.is_empty() && past.total == 7);

    // Only the conversation's own messages.
    let r = history(b, other, "zeppelin").await;
    assert_eq!(r.total, 1, "{}", b.name);

    // Clear errors, nothing else.
    for (q, limit, offset) in [
        ("", None, None),
        ("*** ()", None, None),
        ("needle", Some(0), None),
        ("needle", Some(201), None),
        ("needle", None, Some(1_000)),
    ] {
        assert!(
            matches!(
                s.search_history(conv, q, limit, offset).await,
                Err(ServiceError::Invalid(_))
            ),
            "{}: {q:?} {limit:?} {offset:?} is refused",
            b.name
        );
    }
    assert!(matches!(
        s.search_history(ConversationId::new(), "needle", None, None)
            .await,
        Err(ServiceError::NotFound(..))
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_search_finds_what_left_the_thread_on_every_backend() {
    on_every_backend!(history_story);
}

/// A hit on a command shows what it printed, and a hit on an output shows its command: the
/// words one asks with are in one half, the answer in the other.
async fn exchange_story(b: &Backend) {
    let s = &b.service;
    let conv = new_conversation(s, "/tmp/history", "exchange").await.id;
    append_text(s, conv, Role::User, "Commit the review page.").await;
    let call = append(
        s,
        conv,
        Role::Assistant,
        vec![
            ContentItem::tool_call(
                "toolu_commit",
                "Bash",
                serde_json::json!({"command": "git commit -m 'gqc.5: review page'"}),
            ),
            ContentItem::tool_call(
                "toolu_status",
                "Bash",
                serde_json::json!({"command": "git status --short"}),
            ),
        ],
    )
    .await;
    let commit = "[main bb53fb4] gqc.5: review page\n 2 files changed, 53 deletions(-)";
    let output = append_output(s, conv, "toolu_commit", "Bash", commit, false).await;
    let status = append_output(s, conv, "toolu_status", "Bash", " M notes.md", false).await;

    let r = history(b, conv, "commit gqc.5").await;
    let h = hit(&r, call.id);
    assert_eq!(r.total, 1, "{}: only the call holds both words", b.name);
    let halves: Vec<MessageId> = h.exchange.iter().map(|x| x.message_id).collect();
    assert_eq!(halves, vec![output.id, status.id], "{}", b.name);
    assert!(h.exchange.iter().all(|x| x.holds == ExchangeSide::Outputs));
    assert!(
        h.exchange[0].opening.contains("[main bb53fb4]"),
        "{:?}",
        h.exchange
    );
    assert!(
        h.exchange[0].opening.contains("53 deletions"),
        "{:?}",
        h.exchange
    );
    assert_eq!(h.exchange_more, 0);

    let r = history(b, conv, "bb53fb4").await;
    let h = hit(&r, output.id);
    assert_eq!(h.exchange.len(), 1, "{}: {:?}", b.name, h.exchange);
    assert_eq!(h.exchange[0].holds, ExchangeSide::Calls);
    assert_eq!(h.exchange[0].message_id, call.id);
    // Only the call it answers, not its sibling.
    assert!(
        h.exchange[0].opening.contains("git commit"),
        "{:?}",
        h.exchange
    );
    assert!(
        !h.exchange[0].opening.contains("git status"),
        "{:?}",
        h.exchange
    );

    // Where few messages hold every word, the page is filled with those that hold all but
    // one, each saying which it lacks; a later page has none.
    let r = history(b, conv, "commit gqc.5").await;
    let lacks: Vec<(MessageId, Option<&str>)> = r
        .all_but_one
        .iter()
        .map(|h| (h.message_id, h.lacks.as_deref()))
        .collect();
    assert!(
        lacks.contains(&(output.id, Some("commit"))),
        "{}: {lacks:?}",
        b.name
    );
    assert!(
        r.all_but_one.iter().all(|h| h.message_id != call.id),
        "a full hit is not repeated"
    );
    let typed_commit = r
        .all_but_one
        .iter()
        .find(|h| h.role == Role::User && h.lacks.as_deref() == Some("gqc.5"));
    assert!(typed_commit.is_some(), "{}: {lacks:?}", b.name);
    let none = history(b, conv, "commit gqc.5 zeppelin").await;
    assert!(none.hits.is_empty(), "{}", b.name);
    assert!(
        none.all_but_one
            .iter()
            .any(|h| h.message_id == call.id && h.lacks.as_deref() == Some("zeppelin")),
        "{}: {:?}",
        b.name,
        none.all_but_one
    );
    let later = b
        .service
        .search_history(conv, "commit gqc.5", None, Some(1))
        .await
        .unwrap();
    assert!(later.all_but_one.is_empty(), "{}", b.name);

    // A message outside any exchange has none.
    let r = history(b, conv, "review page commit").await;
    let typed = r
        .hits
        .iter()
        .find(|h| h.role == Role::User && h.exchange.is_empty());
    assert!(typed.is_some(), "{}: {:?}", b.name, r.hits);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_history_hit_shows_the_other_half_of_its_tool_exchange_on_every_backend() {
    on_every_backend!(exchange_story);
}
