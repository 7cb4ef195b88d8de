//! Column values as SQLite hands them over, whatever type the schema version gave them.

use std::collections::HashMap;

use chrono::{DateTime, FixedOffset, Local, NaiveDateTime, SubsecRound, TimeZone, Utc};
pub use rusqlite::types::Value as SqlValue;
use serde_json::Value;
use squash_core::Role;

use super::message::role;
use crate::fields::parse_time;

/// How a database's local-time text (no zone, like `2025-11-02 15:32:01.123`) is read. The app
/// that wrote it used the zone of its machine, which need not be the importer's: the offset is
/// inferred from rows that carry both that text and an instant ([`TextZone::infer`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextZone {
    /// This machine's zone (nothing to infer from).
    Local,
    Offset(FixedOffset),
}

/// Offsets are whole quarter hours.
const QUARTER_HOUR: i64 = 15 * 60;
/// How far a row's text may be from its instant, beyond the offset (the app stamps the row and
/// the document separately).
const STAMP_SLACK: i64 = 120;

impl TextZone {
    /// The offset most pairs of (local-time text, instant) agree on; `Local` when none do.
    pub fn infer(pairs: impl IntoIterator<Item = (NaiveDateTime, DateTime<Utc>)>) -> TextZone {
        let mut votes: HashMap<i64, usize> = HashMap::new();
        for (text, instant) in pairs {
            let diff = (text.and_utc() - instant).num_seconds();
            let quarters = (diff as f64 / QUARTER_HOUR as f64).round() as i64;
            let offset = quarters * QUARTER_HOUR;
            if (diff - offset).abs() <= STAMP_SLACK && offset.abs() <= 14 * 3600 {
                *votes.entry(offset).or_default() += 1;
            }
        }
        votes
            .into_iter()
            .max_by_key(|&(offset, n)| (n, -offset.abs()))
            .and_then(|(offset, _)| FixedOffset::east_opt(i32::try_from(offset).ok()?))
            .map_or(TextZone::Local, TextZone::Offset)
    }

    fn instant(self, naive: NaiveDateTime) -> Option<DateTime<Utc>> {
        match self {
            TextZone::Local => Local
                .from_local_datetime(&naive)
                .earliest()
                .map(|t| t.with_timezone(&Utc)),
            TextZone::Offset(offset) => offset
                .from_local_datetime(&naive)
                .single()
                .map(|t| t.with_timezone(&Utc)),
        }
    }
}

/// A `created_at` column: integers (epoch seconds, milliseconds or microseconds, told apart by
/// size), RFC 3339 text, or local-time text read in this machine's time zone.
pub fn column_time(value: &SqlValue) -> Option<DateTime<Utc>> {
    column_time_in(value, TextZone::Local)
}

/// A `created_at` column, its local-time text read in `zone`.
pub fn column_time_in(value: &SqlValue, zone: TextZone) -> Option<DateTime<Utc>> {
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
                naive_text(value).and_then(|naive| zone.instant(naive))
            }
        }
        _ => None,
    };
    t.map(|t| t.trunc_subsecs(6))
}

/// Local-time text with no zone, if the column holds that.
pub(super) fn naive_text(value: &SqlValue) -> Option<NaiveDateTime> {
    let SqlValue::Text(s) = value else {
        return None;
    };
    let s = s.trim();
    [
        "%Y-%m-%d %H:%M:%S%.f",
        "%Y-%m-%dT%H:%M:%S%.f",
        "%Y-%m-%d %H:%M",
    ]
    .iter()
    .find_map(|f| NaiveDateTime::parse_from_str(s, f).ok())
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

    #[test]
    fn the_zone_of_local_time_text_is_inferred() {
        let at = |s: &str| NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S%.f").unwrap();
        let instant = |s: &str| DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc);
        // Written at UTC+3 (row stamps a few milliseconds after the documents), one row odd.
        let zone = TextZone::infer([
            (
                at("2025-11-02 18:32:01.130"),
                instant("2025-11-02T15:32:01.123Z"),
            ),
            (
                at("2025-11-02 18:40:00.002"),
                instant("2025-11-02T15:39:59.990Z"),
            ),
            (
                at("2025-11-02 12:00:00.000"),
                instant("2025-11-02T15:41:07.000Z"),
            ),
        ]);
        let plus3 = FixedOffset::east_opt(3 * 3600).unwrap();
        assert_eq!(zone, TextZone::Offset(plus3));
        let read = column_time_in(&SqlValue::Text("2025-11-02 18:32:01.130".into()), zone);
        assert_eq!(read, Some(instant("2025-11-02T15:32:01.130Z")));
        assert_eq!(TextZone::infer([]), TextZone::Local);
    }
}
