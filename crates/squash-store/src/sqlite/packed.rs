//! A message's metadata and searchable text, stored compressed. SQLite stores text as it is
//! written, and these two columns are most of an imported session's bytes that nothing reads
//! in bulk: the metadata (every line's JSON but its content, what an export writes back) and
//! the text a search hit's snippet is cut from — 188 of the 371 MB of a 200 MB session's
//! database, each written twice by the commit (the write-ahead log, then its checkpoint).
//! PostgreSQL compresses its own (lz4, migrations 0004 and 0012).
//!
//! A packed value is a BLOB: one byte naming the format, the text's length in bytes (u32,
//! little-endian) and the lz4 block. A value that packing would not make smaller — short text,
//! text that does not compress — stays TEXT, as every value written before this did; a reader
//! takes either.

use std::borrow::Cow;

use rusqlite::types::{ToSql, ToSqlOutput, ValueRef};

use crate::StoreError;

/// The format byte of an lz4 block with its length before it.
const LZ4: u8 = 1;
/// Below this many bytes a value stays text: its block and header would save little or nothing.
const SMALLEST: usize = 128;
/// lz4 writes at most 255 bytes for each byte of a block (a run's length byte): a length that
/// claims more is not what was packed, and is not allocated.
const MOST_PER_BYTE: usize = 255;

/// A column value as written: the text itself, or its packed BLOB.
pub(super) enum Packed<'a> {
    Text(&'a str),
    Blob(Vec<u8>),
}

/// `text` as stored: packed when that makes it smaller.
pub(super) fn pack(text: &str) -> Packed<'_> {
    let Ok(len) = u32::try_from(text.len()) else {
        return Packed::Text(text);
    };
    if text.len() < SMALLEST {
        return Packed::Text(text);
    }
    let block = lz4_flex::block::compress(text.as_bytes());
    if block.len() + 5 >= text.len() {
        return Packed::Text(text);
    }
    let mut blob = Vec::with_capacity(block.len() + 5);
    blob.push(LZ4);
    blob.extend_from_slice(&len.to_le_bytes());
    blob.extend_from_slice(&block);
    Packed::Blob(blob)
}

impl ToSql for Packed<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(match self {
            Packed::Text(text) => ValueRef::Text(text.as_bytes()),
            Packed::Blob(blob) => ValueRef::Blob(blob),
        }))
    }
}

/// The text of a stored value (`None` for NULL): TEXT as it is, a packed BLOB unpacked.
/// Anything else is a corrupt row, said as such.
pub(super) fn unpack<'a>(
    value: ValueRef<'a>,
    column: &str,
) -> Result<Option<Cow<'a, str>>, StoreError> {
    let corrupt = |why: &str| StoreError::Corrupt(format!("messages.{column}: {why}"));
    match value {
        ValueRef::Null => Ok(None),
        ValueRef::Text(bytes) => std::str::from_utf8(bytes)
            .map(|text| Some(Cow::Borrowed(text)))
            .map_err(|_| corrupt("text that is not UTF-8")),
        ValueRef::Blob(blob) => {
            let (&format, rest) = blob
                .split_first()
                .ok_or_else(|| corrupt("an empty packed value"))?;
            if format != LZ4 {
                return Err(corrupt(&format!(
                    "a packed value of unknown format {format}"
                )));
            }
            let (len, block) = rest
                .split_first_chunk::<4>()
                .ok_or_else(|| corrupt("a packed value without its length"))?;
            let len = usize::try_from(u32::from_le_bytes(*len))
                .map_err(|_| corrupt("a packed value too long for this machine"))?;
            if len > block.len().saturating_mul(MOST_PER_BYTE) {
                return Err(corrupt("a packed value longer than its block can hold"));
            }
            let bytes = lz4_flex::block::decompress(block, len)
                .map_err(|e| corrupt(&format!("a packed value that does not unpack: {e}")))?;
            String::from_utf8(bytes)
                .map(|text| Some(Cow::Owned(text)))
                .map_err(|_| corrupt("a packed value that is not UTF-8"))
        }
        ValueRef::Integer(_) | ValueRef::Real(_) => Err(corrupt("a number where text belongs")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn stored<'a>(packed: &'a Packed<'a>) -> ValueRef<'a> {
        match packed {
            Packed::Text(text) => ValueRef::Text(text.as_bytes()),
            Packed::Blob(blob) => ValueRef::Blob(blob),
        }
    }

    #[test]
    fn long_repetitive_text_is_packed_smaller_and_unpacks_to_itself() {
        let text =
            r#"{"cwd":"/home/dev/project","gitBranch":"main","type":"assistant"}"#.repeat(40);
        let packed = pack(&text);
        let Packed::Blob(blob) = &packed else {
            panic!("not packed")
        };
        assert!(
            blob.len() * 4 < text.len(),
            "{} of {}",
            blob.len(),
            text.len()
        );
        assert_eq!(
            unpack(stored(&packed), "metadata").unwrap().as_deref(),
            Some(text.as_str())
        );
    }

    #[test]
    fn short_text_and_text_that_does_not_compress_stay_text() {
        assert!(matches!(pack("short"), Packed::Text("short")));
        // 200 pseudo-random printable bytes: no 4-byte run repeats for lz4 to refer back to.
        let mut state = 0x2545_f491_u32;
        let noise: String = (0..200)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                char::from(b'!' + (state % 90) as u8)
            })
            .collect();
        assert!(matches!(pack(&noise), Packed::Text(_)));
        assert_eq!(unpack(ValueRef::Null, "metadata").unwrap(), None);
    }

    #[test]
    fn a_corrupt_value_is_an_error_that_names_the_column() {
        let text = "abc ".repeat(100);
        let Packed::Blob(good) = pack(&text) else {
            panic!("not packed")
        };
        let mut unknown = good.clone();
        unknown[0] = 9;
        let mut too_long = good.clone();
        too_long[1..5].copy_from_slice(&u32::MAX.to_le_bytes());
        let mut cut = good.clone();
        cut.truncate(good.len() - 3);
        let not_utf8 = {
            let block = lz4_flex::block::compress(&[0xff; 300]);
            let mut blob = vec![LZ4];
            blob.extend_from_slice(&300u32.to_le_bytes());
            blob.extend_from_slice(&block);
            blob
        };
        for blob in [vec![], vec![LZ4, 1], unknown, too_long, cut, not_utf8] {
            let err = unpack(ValueRef::Blob(&blob), "search_text").unwrap_err();
            assert!(
                matches!(&err, StoreError::Corrupt(m) if m.starts_with("messages.search_text: ")),
                "{err:?}"
            );
        }
        assert!(unpack(ValueRef::Integer(3), "metadata").is_err());
    }

    proptest! {
        #[test]
        fn any_text_unpacks_to_itself(text in "(\\PC|[ab ]{1,40}){0,300}") {
            let packed = pack(&text);
            let back = unpack(stored(&packed), "metadata").unwrap();
            prop_assert_eq!(back.as_deref(), Some(text.as_str()));
            if let Packed::Blob(blob) = &packed {
                prop_assert!(blob.len() < text.len());
            }
        }
    }
}
