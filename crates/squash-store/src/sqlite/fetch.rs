//! The ends every read shares: a cached statement's rows, each made into a domain value, the
//! first one, or one or `NotFound`.

use rusqlite::{Params, Row, Transaction};

use super::conn::map_err;
use crate::{Result, StoreError};

/// Runs `f` on every row `sql` selects with `params`, in order.
pub(super) fn each(
    tx: &Transaction<'_>,
    sql: &str,
    params: impl Params,
    mut f: impl FnMut(&Row<'_>) -> Result<()>,
) -> Result<()> {
    let mut stmt = tx.prepare_cached(sql).map_err(map_err)?;
    let mut rows = stmt.query(params).map_err(map_err)?;
    while let Some(row) = rows.next().map_err(map_err)? {
        f(row)?;
    }
    Ok(())
}

/// Every row `sql` selects with `params`, made by `f`, in order.
pub(super) fn all<T>(
    tx: &Transaction<'_>,
    sql: &str,
    params: impl Params,
    mut f: impl FnMut(&Row<'_>) -> Result<T>,
) -> Result<Vec<T>> {
    let mut out = Vec::new();
    each(tx, sql, params, |row| {
        out.push(f(row)?);
        Ok(())
    })?;
    Ok(out)
}

/// The first row `sql` selects with `params`, made by `f`, if there is one.
pub(super) fn first<T>(
    tx: &Transaction<'_>,
    sql: &str,
    params: impl Params,
    f: impl FnOnce(&Row<'_>) -> Result<T>,
) -> Result<Option<T>> {
    let mut stmt = tx.prepare_cached(sql).map_err(map_err)?;
    let mut rows = stmt.query(params).map_err(map_err)?;
    rows.next().map_err(map_err)?.map(f).transpose()
}

/// [`first`], or `missing` when `sql` selects no row.
pub(super) fn one<T>(
    tx: &Transaction<'_>,
    sql: &str,
    params: impl Params,
    f: impl FnOnce(&Row<'_>) -> Result<T>,
    missing: impl FnOnce() -> StoreError,
) -> Result<T> {
    first(tx, sql, params, f)?.ok_or_else(missing)
}
