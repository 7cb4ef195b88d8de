//! What every stored conversation must satisfy, checked on the tables themselves.

use crate::backend::{pg_url, Backend};

/// Checks every stored invariant of one conversation; returns what is wrong.
pub async fn violations(b: &Backend, conv: squash_core::ConversationId) -> Vec<String> {
    use std::collections::HashSet;
    let mut bad = Vec::new();
    let all = b.store.all_messages(conv).await.expect("all messages");
    let known: HashSet<_> = all.iter().map(|m| m.id).collect();
    let threads = b.store.threads(conv).await.expect("threads");
    let current = b
        .store
        .conversation(conv)
        .await
        .expect("conversation")
        .current_thread_id;
    if !threads.iter().any(|t| t.id == current) {
        bad.push(format!(
            "current thread {current} is not a thread of the conversation"
        ));
    }
    for t in &threads {
        let snap = b.store.thread(t.id).await.expect("thread");
        if snap.links.len() as u64 != t.message_count {
            bad.push(format!(
                "thread {} has {} links but message_count {}",
                t.id,
                snap.links.len(),
                t.message_count
            ));
        }
        let unique: HashSet<_> = snap.links.iter().collect();
        if unique.len() != snap.links.len() {
            bad.push(format!("thread {} links a message twice", t.id));
        }
        for l in &snap.links {
            if !known.contains(l) {
                bad.push(format!("thread {} links unknown message {l}", t.id));
            }
        }
        if let Some(o) = t.original_thread_id {
            if !threads.iter().any(|p| p.id == o) {
                bad.push(format!("thread {} derives from unknown thread {o}", t.id));
            }
        }
    }
    for op in b.store.operations(conv).await.expect("operations") {
        for s in op.source_message_ids.iter().chain([&op.result_message_id]) {
            if !known.contains(s) {
                bad.push(format!("operation {} names unknown message {s}", op.id));
            }
        }
        match all.iter().find(|m| m.id == op.result_message_id) {
            Some(m) if m.squash_operation_id == Some(op.id) => {}
            _ => bad.push(format!(
                "operation {}'s result does not point back to it",
                op.id
            )),
        }
    }
    bad.extend(dense_positions(b).await);
    bad
}

/// Positions of every thread are 0..n-1, read from the tables themselves.
pub async fn dense_positions(b: &Backend) -> Vec<String> {
    const SQL: &str = "SELECT thread_key, count(*), min(position), max(position) FROM thread_messages GROUP BY thread_key";
    let rows: Vec<(i64, i64, i64, i64)> = if let Some(path) = &b.sqlite_path {
        let conn = rusqlite::Connection::open(path).expect("open sqlite");
        let mut stmt = conn.prepare(SQL).expect("prepare");
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .expect("query")
            .collect::<Result<_, _>>()
            .expect("rows")
    } else {
        let schema = b.pg_schema.clone().expect("pg schema");
        let pool = sqlx::postgres::PgPoolOptions::new()
            .max_connections(1)
            .connect(&pg_url())
            .await
            .expect("connect");
        sqlx::query_as::<_, (i64, i64, i64, i64)>(
            &SQL.replace("thread_messages", &format!("{schema}.thread_messages"))
                .replace("min(position)", "min(position)::bigint")
                .replace("max(position)", "max(position)::bigint"),
        )
        .fetch_all(&pool)
        .await
        .expect("query")
    };
    rows.into_iter()
        .filter(|(_, n, lo, hi)| *lo != 0 || *hi != n - 1)
        .map(|(t, n, lo, hi)| format!("thread key {t}: {n} links at positions {lo}..={hi}"))
        .collect()
}
