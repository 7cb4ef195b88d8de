//! Column values as SQLite hands them over, whatever type the schema version gave them.

use chrono::{DateTime, Local, NaiveDateTime, SubsecRound, TimeZone, Utc};
pub use rusqlite::types::Value as SqlValue;
use serde_json::Value;
use squash_core::Role;

use super::message::role;
use crate::fields::parse_time;

/// A `created_at` column: integers (epoch seconds, milliseconds or microseconds, told apart by
/// size), RFC 3339 text, or local-time text like `2025-11-02 15:32:01.123` (read in this
/// machine's time zone, as the app that wrote it would have).
pub fn column_time(value: &SqlValue) -> Option<DateTime<Utc>> {
    fn from_number(n: i64) -> Option<DateTime<Utc>> {
        let abs = n.unsigned_abs();
        if abs >= 100_000_000_000_000 {
            DateTime::from_timestamp_micros(n)
        } else if abs >= 100_000_000_000 {
            DateTime::from_timestamp_millis(n)
        } else {
            DateTime::from_timestamp(n, 0)
        }
    }
    let t = match value {
        SqlValue::Integer(n) => from_number(*n),
        SqlValue::Real(f) => DateTime::from_timestamp_micros((*f * 1_000_000.0) as i64),
        SqlValue::Text(s) => {
            let s = s.trim();
            if let Ok(n) = s.parse::<i64>() {
                from_number(n)
            } else if let Some(t) = parse_time(Some(&Value::String(s.to_owned()))) {
                Some(t)
            } else {
                [
                    "%Y-%m-%d %H:%M:%S%.f",
                    "%Y-%m-%dT%H:%M:%S%.f",
                    "%Y-%m-%d %H:%M",
                ]
                .iter()
                .find_map(|f| NaiveDateTime::parse_from_str(s, f).ok())
                .and_then(|naive| Local.from_local_datetime(&naive).earliest())
                .map(|t| t.with_timezone(&Utc))
            }
        }
        _ => None,
    };
    t.map(|t| t.trunc_subsecs(6))
}

pub(super) fn sql_text(value: &SqlValue) -> Option<String> {
    match value {
        SqlValue::Text(s) => Some(s.clone()),
        SqlValue::Integer(n) => Some(n.to_string()),
        SqlValue::Real(f) => Some(f.to_string()),
        SqlValue::Blob(b) => String::from_utf8(b.clone()).ok(),
        SqlValue::Null => None,
    }
}

pub(super) fn sql_bool(value: &SqlValue) -> bool {
    match value {
        SqlValue::Integer(n) => *n != 0,
        SqlValue::Text(s) => matches!(s.to_ascii_lowercase().as_str(), "1" | "true" | "t"),
        _ => false,
    }
}

/// A `role` column, for documents that do not name their role.
pub(super) fn role_column(value: &SqlValue) -> Option<Role> {
    role(sql_text(value).map(Value::String).as_ref())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_times_in_every_format() {
        let ms = column_time(&SqlValue::Integer(1_762_097_521_123)).unwrap();
        assert_eq!(ms.timestamp_millis(), 1_762_097_521_123);
        let s = column_time(&SqlValue::Integer(1_762_097_521)).unwrap();
        assert_eq!(s.timestamp(), 1_762_097_521);
        let local = column_time(&SqlValue::Text("2025-11-02 15:32:01.123".into())).unwrap();
        let expected = Local
            .from_local_datetime(
                &NaiveDateTime::parse_from_str("2025-11-02 15:32:01.123", "%Y-%m-%d %H:%M:%S%.f")
                    .unwrap(),
            )
            .earliest()
            .unwrap();
        assert_eq!(local, expected.with_timezone(&Utc));
        assert!(column_time(&SqlValue::Text("soon".into())).is_none());
    }
}
