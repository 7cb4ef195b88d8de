//! The ends every read shares: a query's rows fetched and converted to domain types, one row
//! or `NotFound`, a row's key, and whether the row a missing result may stand for exists.

use sqlx::postgres::{PgArguments, PgRow};
use sqlx::query::QueryAs;
use sqlx::{FromRow, PgExecutor, Postgres};
use uuid::Uuid;

use super::error::DbResult;
use crate::{Entity, Result, StoreError};

/// A query whose rows are `R`.
type Rows<'q, R> = QueryAs<'q, Postgres, R, PgArguments>;

/// A row a query decodes that becomes a `T` (or a `Corrupt` error).
pub(super) trait RowOf<T>:
    for<'r> FromRow<'r, PgRow> + Send + Unpin + TryInto<T, Error = StoreError>
{
}

impl<R, T> RowOf<T> for R where
    R: for<'r> FromRow<'r, PgRow> + Send + Unpin + TryInto<T, Error = StoreError>
{
}

/// The one row `query` selects, converted; `missing` when it selects none.
pub(super) async fn one<'e, R: RowOf<T>, T>(
    query: Rows<'_, R>,
    executor: impl PgExecutor<'e>,
    missing: impl FnOnce() -> StoreError,
) -> Result<T> {
    let row = query.fetch_optional(executor).await.db()?;
    row.ok_or_else(missing)?.try_into()
}

/// Every row `query` selects, converted, in its order.
pub(super) async fn all<'e, R: RowOf<T>, T>(
    query: Rows<'_, R>,
    executor: impl PgExecutor<'e>,
) -> Result<Vec<T>> {
    let rows = query.fetch_all(executor).await.db()?;
    rows.into_iter().map(TryInto::try_into).collect()
}

/// The key `sql` (`SELECT key … WHERE id = $1`) finds for the `entity` `id`; `NotFound` when
/// there is no such row.
pub(super) async fn key<'e>(
    executor: impl PgExecutor<'e>,
    sql: &'static str,
    entity: Entity,
    id: &Uuid,
) -> Result<i64> {
    let key: Option<i64> = sqlx::query_scalar(sql)
        .bind(id)
        .fetch_optional(executor)
        .await
        .db()?;
    key.ok_or_else(|| StoreError::not_found(entity, id))
}

/// `Ok` when `sql` (`SELECT 1 … WHERE id = $1`) finds the `entity` `id`, else `NotFound`: what
/// tells an empty result from a missing parent, asked only when the result is empty.
pub(super) async fn exists<'e>(
    executor: impl PgExecutor<'e>,
    sql: &'static str,
    entity: Entity,
    id: &Uuid,
) -> Result<()> {
    let found: Option<i32> = sqlx::query_scalar(sql)
        .bind(id)
        .fetch_optional(executor)
        .await
        .db()?;
    found
        .map(|_| ())
        .ok_or_else(|| StoreError::not_found(entity, id))
}
