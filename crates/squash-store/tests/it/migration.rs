//! A database made by an older Squash opens with this one, migrates in place and reads as it
//! did. Main at 7176d32 (every thread holds a copy of all its links): every thread's links,
//! pages, search positions, and the next operations on it work. Main at f59860d (operation
//! records as a flag, a style and five strings): every record reads as its kind, nothing lost.
//! The databases are SQL dumps made by `scripts/make-migration-fixture.sh` from those builds.

use std::collections::{HashMap, HashSet};

use sqlx::Connection;
use squash_core::operation::{FlatProvenance, FlatStyle, KindTag};
use squash_core::page::{PageAnchor, PageWindow};
use squash_core::prompt::PromptStyle;
use squash_core::search::SearchQuery;
use squash_core::{
    ContentItem, ConversationId, LinkEdit, Message, MessageId, OperationKind, ProviderKind, Role,
    SquashOperationId, ThreadId, ThreadOrigin, TokenUsage,
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

/// The PostgreSQL dump made in schema `dumped`, restored into a new schema: the server's URL,
/// the schema and a connection whose search path is it. `None` (the test skips) when no
/// server answers and none is required.
async fn restore(dump: &str, dumped: &str) -> Option<(String, String, sqlx::PgConnection)> {
    let mut db = squash_testkit::backend::pg_connection().await?;
    let url = squash_testkit::pg_url();
    let schema = format!("squash_test_{}", Uuid::now_v7().simple());
    sqlx::raw_sql(&dump.replace(dumped, &schema))
        .execute(&mut db)
        .await
        .unwrap();
    let set_path = format!("SET search_path TO \"{schema}\"");
    sqlx::raw_sql(&set_path).execute(&mut db).await.unwrap();
    Some((url, schema, db))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_of_main_migrates_on_postgres() {
    let Some((url, schema, mut db)) = restore(POSTGRES_DUMP, DUMP_SCHEMA).await else {
        return;
    };
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

// ---- operation records before kinds ------------------------------------------------------

/// Every kind of operation record as main at f59860d wrote them (a flag, a style and five
/// strings): an edit, manual squashes, an AI squash, an extract, a fit's masks and extracts.
const SQLITE_RECORDS_DUMP: &str = include_str!("../../../../testdata/migration/sqlite-f59860d.sql");
const POSTGRES_RECORDS_DUMP: &str =
    include_str!("../../../../testdata/migration/postgres-f59860d.sql");
const RECORDS_SCHEMA: &str = "fixture_f59860d";

/// The old columns of each operation, read with the old schema's SQL.
const OLD_OPERATIONS: &str = "SELECT o.id, o.performed_by_agent, \
     (SELECT count(*) FROM squash_operation_sources s WHERE s.operation_key = o.key), \
     o.prompt, o.model, o.provider, o.custom_instructions, o.input_tokens, o.output_tokens, \
     o.duration_ms, o.style, o.prompt_style FROM squash_operations o ORDER BY o.key";

/// One row of [`OLD_OPERATIONS`].
type OldRow = (
    Uuid,
    bool,
    i64,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<String>,
    Option<String>,
);

/// What an old row says: the flag, the number of sources and the flat fields.
struct OldOperation {
    id: SquashOperationId,
    agent: bool,
    sources: usize,
    flat: FlatProvenance,
}

fn old_operation(row: OldRow) -> OldOperation {
    let (id, agent, sources, prompt, model, provider, custom, input, output, duration, style, ps) =
        row;
    OldOperation {
        id: id.into(),
        agent,
        sources: sources as usize,
        flat: FlatProvenance {
            prompt,
            model,
            provider: provider.map(|p| ProviderKind::parse(&p).expect("a known provider")),
            custom_instructions: custom,
            usage: input.zip(output).map(|(i, o)| TokenUsage {
                input_tokens: i as u64,
                output_tokens: o as u64,
            }),
            duration_ms: duration.map(|d| d as u64),
            style: style.map(|s| FlatStyle::parse(&s).expect("a known style")),
            prompt_style: ps.map(|s| PromptStyle::parse(&s).expect("a known prompt style")),
        },
    }
}

/// Every old record reads as the kind its flag, style and sources say, holding every field
/// it held; the fixture has every kind, and its AI squash is the engine's whole record.
async fn check_records(store: &dyn ConversationStore, old: &[OldOperation]) {
    let mut kinds = HashSet::new();
    for o in old {
        let op = store.operation(o.id).await.unwrap();
        assert_eq!(op.source_message_ids.len(), o.sources);
        assert_eq!(op.kind.performed_by_agent(), o.agent);
        assert_eq!(
            op.kind,
            OperationKind::from_legacy(o.agent, o.sources, o.flat.clone())
        );
        assert_eq!(
            op.kind.flat(),
            o.flat,
            "nothing the old record held is lost"
        );
        kinds.insert(op.kind.tag());
    }
    for kind in [
        KindTag::Edit,
        KindTag::Manual,
        KindTag::Extract,
        KindTag::Mask,
        KindTag::Ai,
    ] {
        assert!(kinds.contains(&kind), "the fixture has a {kind} record");
    }
    let ai = old.iter().find(|o| o.agent).expect("an AI squash");
    let OperationKind::Ai(record) = store.operation(ai.id).await.unwrap().kind else {
        panic!("the engine's AI record is whole");
    };
    assert_eq!(record.provider, ProviderKind::OpenAi);
    assert_eq!(
        record.custom_instructions.as_deref(),
        Some("keep every file position")
    );
    assert!(record.prompt.contains("src/lexer.rs"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn operation_records_of_main_read_as_kinds_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    let old: Vec<OldOperation> = {
        let db = rusqlite::Connection::open(&path).unwrap();
        db.execute_batch(SQLITE_RECORDS_DUMP).unwrap();
        let mut stmt = db.prepare(OLD_OPERATIONS).unwrap();
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    Uuid::from_slice(&r.get::<_, Vec<u8>>(0)?).unwrap(),
                    r.get::<_, i64>(1)? != 0,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                    r.get(7)?,
                    r.get(8)?,
                    r.get(9)?,
                    r.get(10)?,
                    r.get(11)?,
                ))
            })
            .unwrap();
        rows.map(|r| old_operation(r.unwrap())).collect()
    };
    let store = SqliteStore::open(&path).unwrap();
    check_records(&store, &old).await;
    assert_eq!(store.integrity_check().unwrap(), "ok");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn operation_records_of_main_read_as_kinds_on_postgres() {
    let Some((url, schema, mut db)) = restore(POSTGRES_RECORDS_DUMP, RECORDS_SCHEMA).await else {
        return;
    };
    let rows: Vec<OldRow> = sqlx::query_as(OLD_OPERATIONS)
        .fetch_all(&mut db)
        .await
        .unwrap();
    db.close().await.unwrap();
    let old: Vec<OldOperation> = rows.into_iter().map(old_operation).collect();
    let store = PostgresStore::connect_in_schema(&url, &schema)
        .await
        .unwrap();
    check_records(&store, &old).await;
    store.drop_schema().await.unwrap();
}
