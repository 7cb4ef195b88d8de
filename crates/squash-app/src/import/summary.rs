//! What an import did: per conversation, totals, and everything it skipped with the reason.

use serde::Serialize;
use squash_core::{ConversationId, SourceFormat};

use crate::error::AppError;
use crate::remedy::Remedy;

pub use squash_formats::{ContentCounts, RecordCounts, Skipped};

/// What happened to one conversation of the source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "status")]
pub enum ImportStatus {
    /// Stored as a new conversation.
    Imported,
    /// The same source with the same content was imported before; nothing was written.
    AlreadyImported,
    /// The source grew since it was imported; its new messages were appended to the
    /// conversation's current thread.
    Appended { messages: usize },
    /// The source changed since it was imported in a way that is not a plain growth; it was
    /// imported again as a new conversation (the old one stays).
    Reimported { previous: ConversationId },
}

/// One conversation of an import.
#[derive(Clone, Debug, Serialize)]
pub struct ConversationReport {
    pub source_key: String,
    pub format: SourceFormat,
    pub display_name: String,
    pub conversation_id: ConversationId,
    pub status: ImportStatus,
    /// A sub-agent (sidechain) run kept as its own conversation.
    pub sidechain: bool,
    /// The call that started the sub-agent run (Claude Code's `Task` tool-use id), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started_by: Option<String>,
    pub counts: ContentCounts,
    pub threads: usize,
    pub operations: usize,
    /// Operations created from legacy provenance (Gromozeka `originalIds`).
    pub backfilled_operations: usize,
}

/// A whole file that could not be imported.
#[derive(Clone, Debug, Serialize)]
pub struct FileFailure {
    pub file: String,
    pub error: String,
    /// What would help (naming the format, ...), for the interface to word.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub remedies: Vec<Remedy>,
}

impl FileFailure {
    pub fn new(file: String, error: &dyn AppError) -> FileFailure {
        FileFailure {
            file,
            error: error.to_string(),
            remedies: error.remedies(),
        }
    }
}

/// How the records of one file were accounted for.
#[derive(Clone, Debug, Serialize)]
pub struct FileReport {
    pub file: String,
    pub format: SourceFormat,
    pub bytes: u64,
    /// `lines`, `messages`, `metadata`, `skipped`: the last three add up to the first.
    #[serde(flatten)]
    pub records: RecordCounts,
}

/// The summary an import reports at the end.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ImportSummary {
    pub files: usize,
    /// One entry per file read (a failed file is in `failed` instead).
    pub file_reports: Vec<FileReport>,
    pub bytes: u64,
    pub conversations: Vec<ConversationReport>,
    pub skipped: Vec<Skipped>,
    /// Things converted with a loss or a change worth knowing (renamed duplicate tool ids,
    /// unparsable stored messages kept as unknown content, ...).
    pub warnings: Vec<String>,
    pub failed: Vec<FileFailure>,
}

/// Totals over every conversation of a summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ImportTotals {
    pub conversations: usize,
    pub imported: usize,
    pub already_imported: usize,
    pub sidechains: usize,
    pub counts: ContentCounts,
    pub threads: usize,
    pub operations: usize,
    pub backfilled_operations: usize,
    pub skipped: usize,
}

impl ImportSummary {
    pub fn totals(&self) -> ImportTotals {
        let mut t = ImportTotals {
            conversations: self.conversations.len(),
            skipped: self.skipped.len(),
            ..ImportTotals::default()
        };
        for c in &self.conversations {
            match c.status {
                ImportStatus::AlreadyImported => t.already_imported += 1,
                _ => t.imported += 1,
            }
            if c.sidechain {
                t.sidechains += 1;
            }
            t.counts.add(&c.counts);
            t.threads += c.threads;
            t.operations += c.operations;
            t.backfilled_operations += c.backfilled_operations;
        }
        t
    }

    pub fn merge(&mut self, other: ImportSummary) {
        self.files += other.files;
        self.file_reports.extend(other.file_reports);
        self.bytes += other.bytes;
        self.conversations.extend(other.conversations);
        self.skipped.extend(other.skipped);
        self.warnings.extend(other.warnings);
        self.failed.extend(other.failed);
    }

    /// A readable summary, several lines.
    pub fn text(&self) -> String {
        let t = self.totals();
        let mut out = format!(
            "{} file(s), {:.1} MB: {} conversation(s) ({} new or updated, {} already imported{}), \
             {} messages, {} tool calls ({} errors), {} threads, {} operations ({} backfilled)",
            self.files,
            self.bytes as f64 / 1_000_000.0,
            t.conversations,
            t.imported,
            t.already_imported,
            if t.sidechains > 0 {
                format!(", {} sub-agent runs", t.sidechains)
            } else {
                String::new()
            },
            t.counts.messages,
            t.counts.tool_calls,
            t.counts.tool_errors,
            t.threads,
            t.operations,
            t.backfilled_operations,
        );
        for f in &self.file_reports {
            let r = &f.records;
            let unit = if f.format.is_line_based() {
                "lines"
            } else {
                "records"
            };
            out.push_str(&format!(
                "\n  {}: {} {unit}: {} in messages, {} kept as metadata, {} skipped",
                f.file, r.lines, r.messages, r.metadata, r.skipped
            ));
        }
        // Sub-agent runs right under the conversation whose call started them.
        let mut order: Vec<&ConversationReport> = Vec::with_capacity(self.conversations.len());
        for c in self.conversations.iter().filter(|c| !c.sidechain) {
            order.push(c);
            let parent = c.source_key.as_str();
            order.extend(self.conversations.iter().filter(|r| {
                r.sidechain
                    && r.source_key.starts_with(parent)
                    && r.source_key[parent.len()..].starts_with("/sidechain:")
            }));
        }
        for c in &self.conversations {
            if !order.iter().any(|o| std::ptr::eq(*o, c)) {
                order.push(c);
            }
        }
        for c in order {
            let status = match &c.status {
                ImportStatus::Imported => "imported".to_owned(),
                ImportStatus::AlreadyImported => "already imported".to_owned(),
                ImportStatus::Appended { messages } => format!("grew: {messages} appended"),
                ImportStatus::Reimported { previous } => {
                    format!(
                        "changed since import; re-imported as a new conversation (was {previous})"
                    )
                }
            };
            let under = match (&c.sidechain, &c.started_by) {
                (true, Some(call)) => format!("\n    └ started by call {call}:"),
                (true, None) => "\n    └".to_owned(),
                _ => "\n ".to_owned(),
            };
            out.push_str(&format!(
                "{under} {}  {}{}  [{}] {} messages, {} tool calls, {} threads, {} operations — {status}",
                c.conversation_id,
                c.display_name,
                if c.sidechain && !c.display_name.contains("sub-agent") {
                    " (sub-agent)"
                } else {
                    ""
                },
                c.format,
                c.counts.messages,
                c.counts.tool_calls,
                c.threads,
                c.operations,
            ));
        }
        if !self.skipped.is_empty() {
            out.push_str(&format!("\nskipped {}:", self.skipped.len()));
            for s in self.skipped.iter().take(20) {
                match s.line {
                    Some(line) => out.push_str(&format!("\n  {}:{line}: {}", s.file, s.reason)),
                    None => out.push_str(&format!("\n  {}: {}", s.file, s.reason)),
                }
            }
            if self.skipped.len() > 20 {
                out.push_str(&format!("\n  … and {} more", self.skipped.len() - 20));
            }
        }
        for w in &self.warnings {
            out.push_str(&format!("\nwarning: {w}"));
        }
        for f in &self.failed {
            out.push_str(&format!("\nfailed: {}: {}", f.file, f.error));
        }
        out
    }
}
