//! What an import refuses: a read that made no message (every record skipped, or a document of
//! only metadata) writes nothing; conversations without messages are never stored.

use squash_core::SourceFormat;
use squash_formats::detect;

use super::summary::ImportSummary;
use super::{ImportError, Parsed};

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
