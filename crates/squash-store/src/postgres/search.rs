//! Full-text search over the GIN-indexed `messages.search_terms` (migration 0010), in one
//! read-only snapshot.
//!
//! A GIN index hands out its matches in no useful order, and turning them into keys visits
//! each match's row: for a word in most of 100,000 messages that was the whole table (465 ms
//! at p99). So the newest candidates are read a window of keys at a time, newest first: the
//! text index ANDed with the key range (or the conversation's `(conversation_key, key)` range),
//! so that only the matches of the window are visited. The first window is small: a common
//! word is done there. When it holds too few, a word with few matches has them all visited at
//! once through the text index alone; otherwise the next windows are sized from the density of
//! matches seen so far.

use sqlx::{PgConnection, PgPool};
use squash_core::search::SearchQuery;
use squash_core::ConversationId;
use uuid::Uuid;

use super::error::DbResult;
use super::rows::to_u64;
use super::sql::position_in_thread;
use crate::search::{
    check_limit, check_offset, hit_role, hit_snippet, operation_ref, page_of, tsquery_literal,
    CANDIDATES_READ,
};
use crate::types::{HistoryHit, HistoryPlace, HistoryResults};
use crate::{Entity, Result, SearchHit, SearchResults, StoreError};

/// The keys the first window spans.
const FIRST_WINDOW: i64 = 2_048;

/// Which matches a search keeps.
#[derive(Clone, Copy)]
enum Scope {
    /// In current threads, of every conversation or of one (by key).
    CurrentThreads(Option<i64>),
    /// Every message of one conversation.
    History(i64),
}

/// The matches `$source` gives (rows `key, conversation_key`) that are in current threads,
/// newest first, at most `$limit`, with their rank. `matches` is materialized on purpose: it
/// keeps the planner on the text index (ANDed with the key range), rather than walking the
/// primary key and testing every row; it holds keys only (a tsvector is kilobytes). The
/// position is a LATERAL probe per match (`sql::position_in_thread`), newest first, and the
/// rank reads the row again for the matches kept alone, stopping at the limit.
macro_rules! in_current_threads {
    ($source:literal, $limit:literal) => {
        concat!(
            "WITH matches AS MATERIALIZED (",
            $source,
            ") \
             SELECT mk.key, ts_rank(r.search_terms, $1::tsquery)::float8 AS rank \
             FROM (SELECT * FROM matches ORDER BY key DESC) mk \
             JOIN conversations c ON c.key = mk.conversation_key \
             CROSS JOIN LATERAL (SELECT ",
            position_in_thread!("mk.key", "c.current_thread_key"),
            " AS position) tm \
             JOIN messages r ON r.key = mk.key \
             WHERE tm.position IS NOT NULL ORDER BY mk.key DESC LIMIT ",
            $limit
        )
    };
}

/// The statements of one kind of search: a window of keys `$2..=$3` (at most `$4` candidates,
/// `$5` the conversation's key or NULL), and the given keys `$2` (at most `$3`).
struct Statements {
    window: &'static str,
    keys: &'static str,
}

/// In current threads, of every conversation. With a scope, a statement of its own, as an
/// `OR $5 IS NULL` would hide the `(conversation_key, key)` range from the planner.
const CURRENT_ALL: Statements = Statements {
    window: in_current_threads!(
        "SELECT m.key, m.conversation_key FROM messages m \
         WHERE m.search_terms @@ $1::tsquery AND m.key BETWEEN $2 AND $3 \
           AND $5::bigint IS NULL",
        "$4"
    ),
    keys: in_current_threads!(
        "SELECT m.key, m.conversation_key FROM messages m WHERE m.key = ANY($2::bigint[])",
        "$3"
    ),
};

/// In current threads, of conversation `$5`.
const CURRENT_ONE: Statements = Statements {
    window: in_current_threads!(
        "SELECT m.key, m.conversation_key FROM messages m \
         WHERE m.search_terms @@ $1::tsquery AND m.key BETWEEN $2 AND $3 \
           AND m.conversation_key = $5",
        "$4"
    ),
    keys: CURRENT_ALL.keys,
};

/// Every message of conversation `$5`: the window's matches (keys only, as above), then the
/// rank of the newest `$4` alone. The window is a range of the primary key and the
/// conversation a filter (`+ 0`): the `(conversation_key, key)` index offered the planner a
/// scan of the whole window testing every row's terms, which for a word in 2 % of a
/// 100,000-message conversation cost 150 ms.
const HISTORY: Statements = Statements {
    window: "WITH matches AS MATERIALIZED ( \
                 SELECT m.key FROM messages m \
                 WHERE m.search_terms @@ $1::tsquery AND m.key BETWEEN $2 AND $3 \
                   AND m.conversation_key + 0 = $5 \
             ) \
             SELECT mk.key, ts_rank(r.search_terms, $1::tsquery)::float8 AS rank \
             FROM (SELECT key FROM matches ORDER BY key DESC LIMIT $4) mk \
             JOIN messages r ON r.key = mk.key ORDER BY mk.key DESC",
    keys: "SELECT m.key, ts_rank(m.search_terms, $1::tsquery)::float8 AS rank \
           FROM messages m WHERE m.key = ANY($2::bigint[]) ORDER BY m.key DESC LIMIT $3",
};

/// Every match of `$1` (of conversation `$2`, or of all when NULL) if there are fewer than
/// `$3`: the text index alone — the scope is a filter (`+ 0`) it cannot be ANDed with, since a
/// rare word's few matches cost less to visit than a conversation's whole key range.
const FEW: &str = "SELECT m.key FROM messages m \
     WHERE m.search_terms @@ $1::tsquery AND ($2::bigint IS NULL OR m.conversation_key + 0 = $2) \
     LIMIT $3";

/// Up to this many matches are visited at once when the first window finds too few.
const FEW_MATCHES: i64 = 2 * CANDIDATES_READ;

/// How many keys hold `wanted` more candidates at the density seen (`found` in `spanned`
/// keys), with room to spare; four times the last window when none was seen.
fn next_window(last: i64, wanted: i64, found: usize, spanned: i64) -> i64 {
    if found == 0 {
        return last.saturating_mul(4);
    }
    let estimate = (wanted as f64 * spanned as f64 / found as f64 * 1.25) as i64;
    estimate.max(FIRST_WINDOW / 4)
}

/// The newest candidates `(key, rank)` of `tsquery` that `scope` keeps, at most
/// `CANDIDATES_READ`: the newest window of keys; if it holds too few, every match when there
/// are few (`FEW`); else more windows, each sized from the density seen.
async fn candidates(
    conn: &mut PgConnection,
    tsquery: &str,
    scope: Scope,
) -> Result<Vec<(i64, f64)>> {
    let (sql, conversation) = match scope {
        Scope::CurrentThreads(None) => (CURRENT_ALL, None),
        Scope::CurrentThreads(Some(key)) => (CURRENT_ONE, Some(key)),
        Scope::History(key) => (HISTORY, Some(key)),
    };
    let (low, high): (Option<i64>, Option<i64>) = match conversation {
        None => sqlx::query_as("SELECT min(key), max(key) FROM messages"),
        Some(_) => {
            sqlx::query_as("SELECT min(key), max(key) FROM messages WHERE conversation_key = $1")
        }
    }
    .bind(conversation)
    .fetch_one(&mut *conn)
    .await
    .db()?;
    let (Some(low), Some(mut high)) = (low, high) else {
        return Ok(Vec::new());
    };
    let top = high;
    let mut found: Vec<(i64, f64)> = Vec::new();
    let mut width = FIRST_WINDOW;
    loop {
        let from = high.saturating_sub(width - 1).max(low);
        let rows: Vec<(i64, f64)> = sqlx::query_as(sql.window)
            .bind(tsquery)
            .bind(from)
            .bind(high)
            .bind(CANDIDATES_READ - found.len() as i64)
            .bind(conversation)
            .fetch_all(&mut *conn)
            .await
            .db()?;
        found.extend(rows);
        if found.len() as i64 >= CANDIDATES_READ || from == low {
            return Ok(found);
        }
        let spanned = top - from + 1;
        // After the first window: a word in few messages (as far as its density there says)
        // is all visited at once.
        let few = found.len() as i64 * (top - low + 1) / spanned < FEW_MATCHES / 2;
        if high == top && few {
            let keys: Vec<i64> = sqlx::query_scalar(FEW)
                .bind(tsquery)
                .bind(conversation)
                .bind(FEW_MATCHES)
                .fetch_all(&mut *conn)
                .await
                .db()?;
            if (keys.len() as i64) < FEW_MATCHES {
                return sqlx::query_as(sql.keys)
                    .bind(tsquery)
                    .bind(&keys)
                    .bind(CANDIDATES_READ)
                    .fetch_all(&mut *conn)
                    .await
                    .db();
            }
        }
        width = next_window(
            width,
            CANDIDATES_READ - found.len() as i64,
            found.len(),
            spanned,
        );
        high = from - 1;
    }
}

/// The key of a conversation, or `NotFound`.
async fn conversation_key(conn: &mut PgConnection, id: ConversationId) -> Result<i64> {
    sqlx::query_scalar("SELECT key FROM conversations WHERE id = $1")
        .bind(id.as_uuid())
        .fetch_optional(&mut *conn)
        .await
        .db()?
        .ok_or_else(|| StoreError::not_found(Entity::Conversation, id))
}

/// A read-only snapshot: the windows and the page agree even while others write. Its plans
/// are made for each statement's own values: a plan cached for any query would not know
/// whether a word is in three messages or in most, which decides between the text index and
/// the key range.
async fn snapshot(pool: &PgPool) -> Result<sqlx::Transaction<'static, sqlx::Postgres>> {
    pool.begin_with(
        "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY; \
         SET LOCAL plan_cache_mode = force_custom_plan",
    )
    .await
    .db()
}

/// The hits of a page of candidates `(key, rank)`: their rows, read by `sql` (the keys `$1`,
/// in order) in the snapshot that found them, which then ends, each made a hit with its rank.
async fn page_hits<R, H>(
    mut tx: sqlx::Transaction<'static, sqlx::Postgres>,
    sql: &'static str,
    page: Vec<(i64, f64)>,
    hit: impl Fn(R, f64) -> Result<H>,
) -> Result<Vec<H>>
where
    R: for<'r> sqlx::FromRow<'r, sqlx::postgres::PgRow> + Send + Unpin,
{
    let keys: Vec<i64> = page.iter().map(|(key, _)| *key).collect();
    let rows: Vec<R> = sqlx::query_as(sql)
        .bind(&keys)
        .fetch_all(&mut *tx)
        .await
        .db()?;
    tx.commit().await.db()?;
    rows.into_iter()
        .zip(page)
        .map(|(row, (_, rank))| hit(row, rank))
        .collect()
}

#[derive(sqlx::FromRow)]
struct HitRow {
    message_id: Uuid,
    conversation_id: Uuid,
    conversation_name: String,
    position: i64,
    role: String,
    search_text: Option<String>,
}

/// The hits of `query` in current threads, best first.
pub(super) async fn search(
    pool: &PgPool,
    query: &SearchQuery,
    conversation: Option<ConversationId>,
    limit: u32,
) -> Result<SearchResults> {
    let limit = check_limit(limit)?;
    let mut tx = snapshot(pool).await?;
    let scope = match conversation {
        Some(id) => Some(conversation_key(&mut tx, id).await?),
        None => None,
    };
    let found = candidates(
        &mut tx,
        &tsquery_literal(query),
        Scope::CurrentThreads(scope),
    )
    .await?;
    let (page, counted) = page_of(found, 0, limit);
    let sql = concat!(
        "SELECT m.id AS message_id, c.id AS conversation_id, \
                c.display_name AS conversation_name, ",
        position_in_thread!("m.key", "c.current_thread_key"),
        " AS position, m.role, m.search_text \
         FROM UNNEST($1::bigint[]) WITH ORDINALITY AS p(key, ord) \
         JOIN messages m ON m.key = p.key JOIN conversations c ON c.key = m.conversation_key \
         ORDER BY p.ord"
    );
    let hits = page_hits(tx, sql, page, |row: HitRow, rank| {
        Ok(SearchHit {
            conversation_id: row.conversation_id.into(),
            conversation_name: row.conversation_name,
            message_id: row.message_id.into(),
            // 1-based, as thread pages and the UI count (`@1` is the first message).
            position: to_u64("link position", row.position)? + 1,
            role: hit_role(&row.role)?,
            snippet: hit_snippet(row.search_text.as_deref(), query),
            rank,
        })
    })
    .await?;
    Ok(SearchResults::counted(hits, counted))
}

#[derive(sqlx::FromRow)]
struct HistoryRow {
    message_id: Uuid,
    role: String,
    search_text: Option<String>,
    position: Option<i64>,
    taken_id: Option<Uuid>,
    taken_kind: Option<String>,
    taken_ref: Option<i64>,
    made_id: Option<Uuid>,
    made_kind: Option<String>,
    made_ref: Option<i64>,
}

/// The hits of `query` among every message of `conversation`, best first, from `offset`.
pub(super) async fn search_history(
    pool: &PgPool,
    query: &SearchQuery,
    conversation: ConversationId,
    limit: u32,
    offset: u32,
) -> Result<HistoryResults> {
    let limit = check_limit(limit)?;
    let offset = check_offset(offset)?;
    let mut tx = snapshot(pool).await?;
    let scope = conversation_key(&mut tx, conversation).await?;
    let found = candidates(&mut tx, &tsquery_literal(query), Scope::History(scope)).await?;
    let (page, counted) = page_of(found, offset, limit);
    // The operation that took a message out: the newest whose sources hold it
    // (`squash_operation_sources_by_message`); the one that made it: its own column.
    let sql = concat!(
        "SELECT m.id AS message_id, m.role, m.search_text, ",
        position_in_thread!("m.key", "c.current_thread_key"),
        " AS position, taken.id AS taken_id, taken.kind AS taken_kind, \
                taken.recall_ref AS taken_ref, made.id AS made_id, made.kind AS made_kind, \
                made.recall_ref AS made_ref \
         FROM UNNEST($1::bigint[]) WITH ORDINALITY AS p(key, ord) \
         JOIN messages m ON m.key = p.key JOIN conversations c ON c.key = m.conversation_key \
         LEFT JOIN squash_operations taken ON taken.key = ( \
             SELECT s.operation_key FROM squash_operation_sources s \
             WHERE s.message_key = m.key ORDER BY s.operation_key DESC LIMIT 1) \
         LEFT JOIN squash_operations made ON made.id = m.squash_operation_id \
         ORDER BY p.ord"
    );
    let hits = page_hits(tx, sql, page, |row: HistoryRow, rank| {
        let place = match row.position {
            Some(p) => HistoryPlace::InCurrentThread {
                position: to_u64("link position", p)? + 1,
            },
            None => HistoryPlace::OutOfThread {
                taken_out_by: operation_ref(row.taken_id, row.taken_kind, row.taken_ref)?,
            },
        };
        Ok(HistoryHit {
            message_id: row.message_id.into(),
            role: hit_role(&row.role)?,
            snippet: hit_snippet(row.search_text.as_deref(), query),
            rank,
            place,
            result_of: operation_ref(row.made_id, row.made_kind, row.made_ref)?,
        })
    })
    .await?;
    Ok(HistoryResults::counted(hits, offset, counted))
}
