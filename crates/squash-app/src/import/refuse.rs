//! What an import refuses, in one place: a source of no format Squash reads, a format asked
//! for that the source is not, and a read that made no message (every record skipped, or a
//! document of only metadata) — nothing of those is written; conversations without messages
//! are never stored.

use squash_core::SourceFormat;
use squash_formats::detect::{self, Found};

use super::summary::ImportSummary;
use super::{FormatError, ImportError, Parsed};

/// The format a file is read as: the one asked for, else the one detection finds (`found` is
/// asked only then). `None` for an empty file: agents leave them behind, nothing to import and
/// nothing wrong.
pub(super) fn file_format(
    name: &str,
    asked: Option<SourceFormat>,
    found: impl FnOnce() -> Result<Found, ImportError>,
) -> Result<Option<SourceFormat>, ImportError> {
    match asked {
        Some(format) => Ok(Some(format)),
        None => match found()? {
            Found::Empty => Ok(None),
            found => known(name, found).map(Some),
        },
    }
}

/// The format an upload is read as: the one asked for, else the one detection `found` (an
/// empty upload is no format).
pub(super) fn upload_format(
    name: &str,
    asked: Option<SourceFormat>,
    found: Found,
) -> Result<SourceFormat, ImportError> {
    match asked {
        Some(format) => Ok(format),
        None => known(name, found),
    }
}

/// The format detection found; anything else is refused: where a source of no known format is
/// refused.
fn known(name: &str, found: Found) -> Result<SourceFormat, ImportError> {
    match found {
        Found::Format(format) => Ok(format),
        found => Err(ImportError::Undetected {
            source_name: name.to_owned(),
            found,
        }),
    }
}

/// A format asked for that reads nothing (or fails) where detection sees something else is the
/// wrong format for the file: it is refused with what was expected and what was found, rather
/// than imported as an empty conversation or reported with the reader's puzzled reason.
pub(super) fn check_asked(
    name: &str,
    expected: SourceFormat,
    parsed: Result<Parsed, FormatError>,
    found: impl FnOnce() -> Result<Found, ImportError>,
) -> Result<Parsed, ImportError> {
    let read_nothing = match &parsed {
        Ok(p) => p.conversations.iter().all(|c| c.messages.is_empty()),
        Err(_) => true,
    };
    if read_nothing {
        let found = found()?;
        if found != Found::Format(expected) && found != Found::Empty {
            return Err(ImportError::Mismatch {
                source_name: name.to_owned(),
                expected,
                found,
            });
        }
    }
    Ok(parsed?)
}

/// The summary of a file with nothing in it.
pub(super) fn empty_file(name: &str, bytes: u64) -> ImportSummary {
    ImportSummary {
        files: 1,
        bytes,
        warnings: vec![format!("{name}: empty; nothing to import")],
        ..ImportSummary::default()
    }
}

/// The summary of a file whose records are all metadata (a session of only titles or
/// snapshots): nothing to import, and no empty conversation made of it.
pub(super) fn metadata_only(name: &str, format: SourceFormat, bytes: u64) -> ImportSummary {
    ImportSummary {
        files: 1,
        bytes,
        warnings: vec![format!(
            "{name}: {} with no message (only metadata); nothing to import",
            detect::described(format)
        )],
        ..ImportSummary::default()
    }
}

/// A read that made no message is refused when records were skipped (`Err`: what was found and
/// why each record was skipped), and is nothing to import when they were all metadata (`None`).
/// Conversations without messages are never stored: each is reported and left out.
pub(super) fn refuse_unread(
    name: &str,
    format: SourceFormat,
    mut parsed: Parsed,
) -> Result<Option<Parsed>, ImportError> {
    let (empty, full): (Vec<_>, Vec<_>) = parsed
        .conversations
        .into_iter()
        .partition(|c| c.message_count() == 0);
    parsed.conversations = full;
    if !parsed.conversations.is_empty() {
        for c in empty {
            parsed.warnings.push(format!(
                "{name}: {} has no message; not imported",
                c.display_name
            ));
        }
        return Ok(Some(parsed));
    }
    let records = parsed.records;
    // Agents leave logs of only titles or snapshots behind (a session started and left).
    if records.skipped == 0 && records.metadata > 0 && format.is_line_based() {
        return Ok(None);
    }
    let reason = parsed
        .skipped
        .first()
        .map(|s| match s.line {
            Some(line) => format!("line {line}: {}", s.reason),
            None => s.reason.clone(),
        })
        .unwrap_or_else(|| match records.metadata {
            0 => "it holds none".to_owned(),
            _ => "all of them are metadata".to_owned(),
        });
    Err(ImportError::NothingRead {
        source_name: name.to_owned(),
        format,
        records: records.lines,
        reason,
    })
}
