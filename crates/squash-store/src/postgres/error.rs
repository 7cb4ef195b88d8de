//! sqlx errors to [`StoreError`]: the retryable ones become `Busy`, the caller's mistakes
//! `Invalid`, and nothing that could carry the connection password reaches a message.

use squash_core::redact::redact_url;

use crate::{Entity, StoreError};

/// `.db()` on sqlx results: a `From` impl would put sqlx into the crate's public API.
pub(super) trait DbResult<T> {
    fn db(self) -> Result<T, StoreError>;
}

impl<T> DbResult<T> for Result<T, sqlx::Error> {
    fn db(self) -> Result<T, StoreError> {
        self.map_err(classify)
    }
}

pub(super) fn classify(error: sqlx::Error) -> StoreError {
    match &error {
        sqlx::Error::Database(db) => {
            let code = db.code();
            let code = code.as_deref().unwrap_or("");
            let text = match db.constraint() {
                Some(constraint) => format!("{} ({constraint})", db.message()),
                None => db.message().to_string(),
            };
            match code {
                // serialization_failure, deadlock_detected, lock_not_available
                "40001" | "40P01" | "55P03" => StoreError::Busy(text),
                // too_many_connections: the server is full, not broken
                "53300" => StoreError::Busy(text),
                // integrity constraint violations and data exceptions (NUL bytes, overflows)
                _ if code.starts_with("23") || code.starts_with("22") => StoreError::Invalid(text),
                _ => StoreError::Backend(format!("{text} (SQLSTATE {code})")),
            }
        }
        sqlx::Error::PoolTimedOut => {
            StoreError::Busy("no database connection became free in time".into())
        }
        sqlx::Error::Decode(_) | sqlx::Error::ColumnDecode { .. } => {
            StoreError::Corrupt(error.to_string())
        }
        sqlx::Error::Migrate(e) => StoreError::Migration(e.to_string()),
        _ => StoreError::Backend(error.to_string()),
    }
}

/// Whether `error` is a unique_violation (SQLSTATE 23505) of `constraint`.
pub(super) fn violates(error: &sqlx::Error, constraint: &str) -> bool {
    matches!(error, sqlx::Error::Database(db)
        if db.code().as_deref() == Some("23505") && db.constraint() == Some(constraint))
}

/// Like [`classify`], but a violation of the unique `constraint` becomes
/// [`StoreError::AlreadyExists`]: the caller knows which row it inserted.
pub(super) fn taken(
    error: sqlx::Error,
    constraint: &str,
    entity: Entity,
    id: impl std::fmt::Display,
) -> StoreError {
    if violates(&error, constraint) {
        return StoreError::AlreadyExists(entity, id.to_string());
    }
    classify(error)
}

/// A connect error as a `Backend` message that names the server but never the password, even
/// if a driver error were to quote the URL.
pub(super) fn connect_error(url: &str, error: sqlx::Error) -> StoreError {
    let mut message = match classify(error) {
        StoreError::Backend(m) | StoreError::Busy(m) | StoreError::Invalid(m) => m,
        other => other.to_string(),
    };
    if let Some((start, end)) = password_span(url) {
        let password = &url[start..end];
        if !password.is_empty() {
            message = message.replace(password, "***");
        }
    }
    StoreError::Backend(format!("cannot connect to {}: {message}", redact_url(url)))
}

/// Byte range of the password in `scheme://user:password@host…`.
fn password_span(url: &str) -> Option<(usize, usize)> {
    let authority_start = url.find("://")? + 3;
    let rest = &url[authority_start..];
    let authority_len = rest.find(['/', '?']).unwrap_or(rest.len());
    let at = rest[..authority_len].rfind('@')?;
    let colon = rest[..at].find(':')?;
    Some((authority_start + colon + 1, authority_start + at))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_redacted() {
        assert_eq!(
            redact_url("postgres://u:s3cret@db:5432/x?sslmode=require"),
            "postgres://u:***@db:5432/x?sslmode=require"
        );
        assert_eq!(
            redact_url("postgres://u@db/x"),
            "postgres://u@db/x",
            "no password, nothing to hide"
        );
        assert_eq!(
            redact_url("postgres://u:p@ss@db/x"),
            "postgres://u:***@db/x"
        );
        assert_eq!(redact_url("not a url"), "not a url");
    }
}
