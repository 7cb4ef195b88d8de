//! A database made by an older Squash (main at 7176d32: every thread holds a copy of all its
//! links) opens with this one, migrates in place and reads as it did: every thread's links,
//! pages, search positions; and the next operations on it work. The databases are SQL dumps
//! made by `scripts/make-migration-fixture.sh` from that build.

use std::collections::HashMap;

use sqlx::Connection;
use squash_core::page::{PageAnchor, PageWindow};
use squash_core::search::SearchQuery;
use squash_core::{
    ContentItem, ConversationId, LinkEdit, Message, MessageId, Role, ThreadId, ThreadOrigin,
};
use squash_store::postgres::PostgresStore;
use squash_store::sqlite::SqliteStore;
use squash_store::{Commit, ConversationStore, NewLinks, PageRequest, ThreadRef};
use uuid::Uuid;

const SQLITE_DUMP: &str = include_str!("../../../../testdata/migration/sqlite-7176d32.sql");
const POSTGRES_DUMP: &str = include_str!("../../../../testdata/migration/postgres-7176d32.sql");
const DUMP_SCHEMA: &str = "fixture_7176d32";

/// What the old database says, read with its own SQL before the store opens it: each thread's
/// links in order, and each conversation's current thread.
struct Before {
    threads: HashMap<ThreadId, Vec<MessageId>>,
    current: HashMap<ConversationId, ThreadId>,
}

const THREAD_LINKS: &str = "SELECT t.id, m.id FROM thread_messages tm \
     JOIN threads t ON t.key = tm.thread_key JOIN messages m ON m.key = tm.message_key \
     ORDER BY t.key, tm.position";
const CURRENT: &str =
    "SELECT c.id, t.id FROM conversations c JOIN threads t ON t.key = c.current_thread_key";

fn before(links: Vec<(Uuid, Uuid)>, current: Vec<(Uuid, Uuid)>) -> Before {
    let mut threads: HashMap<ThreadId, Vec<MessageId>> = HashMap::new();
    for (t, m) in links {
        threads.entry(t.into()).or_default().push(m.into());
    }
    Before {
        threads,
        current: current
            .into_iter()
            .map(|(c, t)| (c.into(), t.into()))
            .collect(),
    }
}

async fn check(store: &dyn ConversationStore, old: &Before) {
    assert!(old.threads.len() >= 5, "the fixture has derived threads");
    for (thread, links) in &old.threads {
        assert_eq!(&store.thread(*thread).await.unwrap().links, links);
    }
    let (&conversation, &current) = old
        .current
        .iter()
        .max_by_key(|(_, t)| old.threads[*t].len())
        .expect("a conversation");
    let links = old.threads[&current].clone();
    assert_eq!(
        store.current_thread(conversation).await.unwrap().links,
        links
    );

    // A page, and a search hit's position, in the migrated current thread.
    let page = store
        .thread_page(PageRequest {
            thread: ThreadRef::Current(conversation),
            window: PageWindow {
                anchor: PageAnchor::After { position: 2 },
                limit: 3,
            },
            known_tokens: None,
        })
        .await
        .unwrap();
    let ids: Vec<MessageId> = page.messages.iter().map(|m| m.id).collect();
    assert_eq!(ids, links[2..5]);
    let hits = store
        .search(
            &SearchQuery::parse("appended after the squash").unwrap(),
            Some(conversation),
            10,
        )
        .await
        .unwrap();
    assert_eq!(hits.hits.len(), 1);
    assert_eq!(hits.hits[0].position, links.len() as u64);
    assert_eq!(hits.hits[0].message_id, *links.last().unwrap());

    // The next squash derives from an old thread; an append goes after it.
    let header = store.current_thread_header(conversation).await.unwrap();
    let result = Message::new(
        conversation,
        Role::User,
        vec![ContentItem::text_for(
            Role::User,
            "squashed after the upgrade",
        )],
    )
    .unwrap();
    let edit = LinkEdit {
        dropped: vec![2, 4],
        replaced: Some(1),
    };
    let expected = edit.apply(&links, Some(result.id)).unwrap();
    store
        .commit(&Commit {
            conversation_id: conversation,
            base_thread_id: header.id,
            base_revision: header.revision,
            thread_id: ThreadId::new(),
            origin: ThreadOrigin::Delete {
                message_ids: Vec::new(),
            },
            links: NewLinks::Edit(edit),
            messages: vec![result],
            operations: Vec::new(),
        })
        .await
        .unwrap();
    let appended = Message::new(
        conversation,
        Role::User,
        vec![ContentItem::text_for(Role::User, "and one more")],
    )
    .unwrap();
    store.append(&appended).await.unwrap();
    let mut expected = expected;
    expected.push(appended.id);
    assert_eq!(
        store.current_thread(conversation).await.unwrap().links,
        expected
    );
    // The old threads are as they were.
    for (thread, links) in &old.threads {
        assert_eq!(&store.thread(*thread).await.unwrap().links, links);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_of_main_migrates_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    let old = {
        let db = rusqlite::Connection::open(&path).unwrap();
        db.execute_batch(SQLITE_DUMP).unwrap();
        let uuid = |b: Vec<u8>| Uuid::from_slice(&b).unwrap();
        let pairs = |sql: &str| -> Vec<(Uuid, Uuid)> {
            db.prepare(sql)
                .unwrap()
                .query_map([], |r| Ok((uuid(r.get(0)?), uuid(r.get(1)?))))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap()
        };
        before(pairs(THREAD_LINKS), pairs(CURRENT))
    };
    let store = SqliteStore::open(&path).unwrap();
    check(&store, &old).await;
    assert_eq!(store.integrity_check().unwrap(), "ok");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_of_main_migrates_on_postgres() {
    let Some(mut db) = squash_testkit::backend::pg_connection().await else {
        return;
    };
    let url = squash_testkit::pg_url();
    let schema = format!("squash_test_{}", Uuid::now_v7().simple());
    sqlx::raw_sql(&POSTGRES_DUMP.replace(DUMP_SCHEMA, &schema))
        .execute(&mut db)
        .await
        .unwrap();
    let set_path = format!("SET search_path TO \"{schema}\"");
    sqlx::raw_sql(&set_path).execute(&mut db).await.unwrap();
    let links: Vec<(Uuid, Uuid)> = sqlx::query_as(THREAD_LINKS)
        .fetch_all(&mut db)
        .await
        .unwrap();
    let current: Vec<(Uuid, Uuid)> = sqlx::query_as(CURRENT).fetch_all(&mut db).await.unwrap();
    db.close().await.unwrap();
    let old = before(links, current);
    let store = PostgresStore::connect_in_schema(&url, &schema)
        .await
        .unwrap();
    check(&store, &old).await;
    store.drop_schema().await.unwrap();
}
