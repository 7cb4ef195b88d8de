//! SQLite stores a message's metadata and searchable text packed (the store's
//! `sqlite/packed.rs`): an imported session's rows hold a fraction of those bytes, and read
//! back as they were written — the messages, an export's metadata, a search's snippets. (Rows
//! stored before, as text, are read by the migration tests of `squash-store`.)

use squash_testkit::fixtures::import_session_data;

const SESSION: &str = "claude-code-compacted-7bdbcc35/7bdbcc35-891f-40ee-bd64-b461804c0fe4.jsonl";

#[tokio::test]
async fn a_sessions_metadata_and_search_text_are_stored_packed_and_read_back() {
    let b = squash_testkit::sqlite().await;
    let conv = import_session_data(&b, SESSION).await;
    let db = rusqlite::Connection::open(b.sqlite_path.as_ref().unwrap()).unwrap();
    let (rows, packed, stored): (i64, i64, i64) = db
        .query_row(
            "SELECT count(*), sum(typeof(metadata) = 'blob'), sum(length(CAST(metadata AS BLOB))) \
             FROM messages WHERE metadata IS NOT NULL",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert!(packed * 10 >= rows * 9, "{packed} of {rows} rows packed");
    // Every message the import stored, read back through the store: its metadata as written.
    let ids: Vec<squash_core::MessageId> = db
        .prepare("SELECT id FROM messages")
        .unwrap()
        .query_map([], |r| r.get::<_, Vec<u8>>(0))
        .unwrap()
        .map(|id| uuid::Uuid::from_slice(&id.unwrap()).unwrap().into())
        .collect();
    let messages = b.store.messages(&ids).await.unwrap();
    assert_eq!(
        messages.len() as i64,
        db.query_row("SELECT count(*) FROM messages", [], |r| r.get::<_, i64>(0))
            .unwrap()
    );
    let written: usize = messages
        .iter()
        .filter_map(|m| m.metadata.as_ref())
        .map(|metadata| serde_json::to_string(metadata).unwrap().len())
        .sum();
    assert!(
        (stored as usize) * 2 < written,
        "metadata stored in {stored} bytes for {written}"
    );
    let packed_text: i64 = db
        .query_row(
            "SELECT count(*) FROM messages WHERE typeof(search_text) = 'blob'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(packed_text > 0, "no searchable text packed");

    // Read back: a thread's page holds the same messages, and snippets are cut from the text.
    let thread = b.service.current_thread(conv).await.unwrap();
    for m in &thread.messages {
        assert!(messages.contains(m), "{} reads differently", m.id);
    }
    let found = b
        .service
        .search("session", Some(conv), Some(20))
        .await
        .unwrap();
    assert!(!found.hits.is_empty(), "no hit");
    for hit in &found.hits {
        let line = squash_core::search::marked_line(&hit.snippet).to_lowercase();
        assert!(line.contains("«session"), "{line}");
    }
}
