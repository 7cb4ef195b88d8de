//! The fill of `crate::backfill` in PostgreSQL's terms: a batch of NULL rows, their values
//! written back in one `UNNEST` update.
//! Another instance filling at the same time is harmless: both compute the same values, and a
//! row already filled is skipped.

use sqlx::{PgConnection, Postgres};

use super::error::DbResult;
use crate::backfill::{report, Filled, BATCH, SEARCH_TERMS, SEARCH_TEXT, TOKENS};
use crate::Result;

/// Fills every column of `crate::backfill` in one transaction.
pub(super) async fn fill(pool: &sqlx::PgPool) -> Result<()> {
    let mut tx = pool.begin().await.db()?;
    let tokens = fill_column(&mut tx, &TOKENS).await?;
    let text = fill_column(&mut tx, &SEARCH_TEXT).await?;
    let terms = fill_column(&mut tx, &SEARCH_TERMS).await?;
    tx.commit().await.db()?;
    report(tokens, text.max(terms));
    Ok(())
}

/// The SQL array type a column's values are bound as.
trait ArrayType {
    const ARRAY: &'static str;
}

impl ArrayType for i64 {
    const ARRAY: &'static str = "bigint[]";
}

impl ArrayType for String {
    const ARRAY: &'static str = "text[]";
}

/// Fills `fill`'s column where it is NULL, a batch at a time. Returns how many rows it filled.
async fn fill_column<V>(conn: &mut PgConnection, fill: &Filled<V>) -> Result<u64>
where
    V: ArrayType + Send,
    Vec<V>: for<'q> sqlx::Encode<'q, Postgres> + sqlx::Type<Postgres>,
{
    let column = fill.column;
    let select = format!(
        "SELECT key, role, content FROM messages \
         WHERE {column} IS NULL AND key > $1 ORDER BY key LIMIT $2"
    );
    let update = format!(
        "UPDATE messages SET {column} = u.value{} \
         FROM UNNEST($1::bigint[], $2::{}) AS u(key, value) \
         WHERE messages.key = u.key AND messages.{column} IS NULL",
        fill.cast,
        V::ARRAY
    );
    let (mut after, mut count) = (i64::MIN, 0u64);
    loop {
        let batch: Vec<(i64, String, String)> = sqlx::query_as(&select)
            .bind(after)
            .bind(BATCH)
            .fetch_all(&mut *conn)
            .await
            .db()?;
        let Some(last) = batch.last() else {
            return Ok(count);
        };
        after = last.0;
        let keys: Vec<i64> = batch.iter().map(|(key, _, _)| *key).collect();
        let values: Vec<V> = batch
            .iter()
            .map(|(key, role, content)| (fill.value)(*key, role, content))
            .collect::<Result<_>>()?;
        sqlx::query(&update)
            .bind(&keys)
            .bind(values)
            .execute(&mut *conn)
            .await
            .db()?;
        count += batch.len() as u64;
    }
}
