//! The import service: reads files (streaming, line by line for the JSONL formats), detects
//! their format, runs the parsers off the async runtime, and stores each conversation in one
//! transaction with the idempotency rules of the module docs. A Claude Code file is read in two
//! passes: its structure first, then (unless it is already imported) its messages in chunks,
//! made by a blocking task while the store writes the chunks before them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use chrono::Utc;
use squash_core::Message;
use squash_core::SourceFormat;
use squash_formats::claude_code::DeferredMessages;
use squash_formats::{detect, read, squash_json};
use squash_store::{
    ImportAppend, ImportBatch, ImportOutcome, ImportRecord, ImportSource, MessageChunks, StoreError,
};

use super::refuse::{metadata_only, refuse_unread};
use super::subagents::{
    first_session_id, is_subagent_file, parent_session, started_by, subagent_files,
};
use super::summary::{ConversationReport, FileFailure, FileReport, ImportStatus, ImportSummary};
use super::{
    into_batch, source_id, FormatError, Found, ImportError, ImportFormat, ImportedConversation,
    Parsed,
};
use crate::conversations::ConversationService;
use crate::error::ServiceError;

/// How to import.
#[derive(Clone, Debug)]
pub struct ImportOptions {
    pub format: ImportFormat,
    /// The project the conversations go to; default: the one the source names (its working
    /// directory), else `fallback_project`.
    pub project: Option<String>,
    /// The project for sources that name none (e.g. the current directory).
    pub fallback_project: String,
}

impl Default for ImportOptions {
    fn default() -> Self {
        ImportOptions {
            format: ImportFormat::Auto,
            project: None,
            fallback_project: "imported".to_owned(),
        }
    }
}

/// Progress of a long import, for a progress bar. Every method has a no-op default.
pub trait ImportProgress: Send + Sync {
    /// A file is about to be read.
    fn file_started(&self, _path: &str, _bytes: u64) {}
    /// `bytes` more of the current file were read.
    fn advanced(&self, _bytes: u64) {}
    /// The current file is parsed; `conversations` are being stored.
    fn storing(&self, _conversations: usize) {}
    fn file_finished(&self, _path: &str) {}
}

/// Reports nothing.
pub struct NoProgress;

impl ImportProgress for NoProgress {}

/// Files a directory import considers.
const EXTENSIONS: [&str; 6] = ["jsonl", "json", "traj", "db", "sqlite", "sqlite3"];

impl ConversationService {
    /// Imports a file, or every candidate file under a directory (recursively, in name order).
    /// A file that cannot be read or parsed is reported in the summary and the others go on.
    pub async fn import_path(
        &self,
        path: &Path,
        options: &ImportOptions,
        progress: Arc<dyn ImportProgress>,
    ) -> Result<ImportSummary, ImportError> {
        let files = if path.is_dir() {
            let mut files = Vec::new();
            collect_files(path, &mut files).map_err(|error| ImportError::Io {
                path: path.display().to_string(),
                error,
            })?;
            files.sort();
            // Sub-agent runs are read with their session; one whose session is not there is
            // read alone (and said to be a run of a session not imported).
            let (runs, mut files): (Vec<_>, Vec<_>) =
                files.into_iter().partition(|f| is_subagent_file(f));
            let mut claimed = std::collections::HashSet::new();
            for f in &files {
                if let Some(id) = first_session_id(f) {
                    claimed.extend(subagent_files(f, &id));
                }
            }
            files.extend(runs.into_iter().filter(|r| !claimed.contains(r)));
            files.sort();
            files
        } else {
            vec![path.to_path_buf()]
        };
        let mut summary = ImportSummary::default();
        for file in files {
            let name = file.display().to_string();
            match self.import_file(&file, options, progress.clone()).await {
                Ok(s) => summary.merge(s),
                Err(e) if path.is_dir() => {
                    summary.files += 1;
                    summary.failed.push(FileFailure {
                        file: name,
                        error: e.to_string(),
                    });
                }
                Err(e) => return Err(e),
            }
        }
        Ok(summary)
    }

    /// Imports one file.
    pub async fn import_file(
        &self,
        path: &Path,
        options: &ImportOptions,
        progress: Arc<dyn ImportProgress>,
    ) -> Result<ImportSummary, ImportError> {
        let name = path.display().to_string();
        self.import_file_as(path, &name, options, progress).await
    }

    /// Imports one file, naming it `name` in the summary and in errors (an upload staged in a
    /// temporary file keeps its own name; the temporary path is nobody's business).
    async fn import_file_as(
        &self,
        path: &Path,
        name: &str,
        options: &ImportOptions,
        progress: Arc<dyn ImportProgress>,
    ) -> Result<ImportSummary, ImportError> {
        let name = name.to_owned();
        let io = |error| ImportError::Io {
            path: name.clone(),
            error,
        };
        let bytes = std::fs::metadata(path).map_err(io)?.len();
        progress.file_started(&name, bytes);
        let forced = options.format.source();
        let format = match forced {
            None => match detect_file(path).map_err(io)? {
                // Agents leave empty session files behind: nothing to import, nothing wrong.
                Found::Empty => return Ok(empty_file(&name, bytes)),
                Found::Format(f) => f,
                found => {
                    return Err(ImportError::Undetected {
                        source_name: name.clone(),
                        found,
                    })
                }
            },
            Some(f) => f,
        };
        let owned = path.to_path_buf();
        let source_name = name.clone();
        let reporter = progress.clone();
        let parsed = tokio::task::spawn_blocking(move || {
            let mut advanced = |bytes| reporter.advanced(bytes);
            read::read_file_streaming(&owned, &source_name, format, Utc::now(), &mut advanced)
        })
        .await
        .map_err(|e| ImportError::invalid(&name, format!("the parser stopped: {e}")))?;
        let parsed = match forced {
            Some(expected) => {
                check_forced(&name, expected, parsed, || detect_file(path).map_err(io))?
            }
            None => parsed?,
        };
        let parsed = match refuse_unread(&name, format, parsed)? {
            Some(parsed) => parsed,
            None => return Ok(metadata_only(&name, format, bytes)),
        };
        progress.storing(parsed.conversations.len());
        let records = parsed.records;
        let parent = (format == SourceFormat::ClaudeCode)
            .then(|| parent_session(&parsed))
            .flatten();
        let session_id = parsed
            .conversations
            .iter()
            .find(|c| !c.sidechain)
            .and_then(|c| c.source_key.strip_prefix("claude-code:"))
            .map(str::to_owned);
        let mut summary = self.store_parsed(parsed, options).await?;
        summary.files = 1;
        summary.bytes = bytes;
        summary.file_reports.push(FileReport {
            file: name.clone(),
            format,
            bytes,
            records,
        });
        if let (Some(parent), Some(id)) = (parent, session_id) {
            for file in subagent_files(path, &id) {
                let s = self
                    .import_subagents(&file, parent.clone(), options)
                    .await?;
                summary.merge(s);
            }
        }
        progress.file_finished(&name);
        Ok(summary)
    }

    /// Imports a document held in memory (an upload): `name` identifies the source (it is part
    /// of the source key of formats that carry no id of their own).
    pub async fn import_bytes(
        &self,
        name: &str,
        data: Vec<u8>,
        options: &ImportOptions,
    ) -> Result<ImportSummary, ImportError> {
        let bytes = data.len() as u64;
        let forced = options.format.source();
        let head = &data[..data.len().min(detect::DETECT_BYTES as usize)];
        let format = match (forced, detect::inspect(head)) {
            (Some(f), _) | (None, Found::Format(f)) => f,
            (None, found) => {
                return Err(ImportError::Undetected {
                    source_name: name.to_owned(),
                    found,
                })
            }
        };
        let found = forced.map(|_| detect::inspect(head));
        if data.starts_with(b"SQLite format 3\0") {
            // SQLite reads files: stage the upload in a temporary one, whose tables tell
            // which store it is.
            let dir = std::env::temp_dir().join(format!("squash-import-{}", uuid_like()));
            std::fs::create_dir_all(&dir).map_err(|error| ImportError::Io {
                path: dir.display().to_string(),
                error,
            })?;
            let file = dir.join("gromozeka.db");
            let result = match std::fs::write(&file, &data) {
                Ok(()) => {
                    self.import_file_as(&file, name, options, Arc::new(NoProgress))
                        .await
                }
                Err(error) => Err(ImportError::Io {
                    path: file.display().to_string(),
                    error,
                }),
            };
            let _ = std::fs::remove_dir_all(&dir);
            return result;
        }
        let source_name = name.to_owned();
        let parsed = tokio::task::spawn_blocking(move || {
            read::read_stream(&data[..], &source_name, format, Utc::now(), &mut |_| {})
        })
        .await
        .map_err(|e| ImportError::invalid(name, format!("the parser stopped: {e}")))?;
        let parsed = match (forced, found) {
            (Some(expected), Some(found)) => check_forced(name, expected, parsed, || Ok(found))?,
            _ => parsed?,
        };
        let parsed = match refuse_unread(name, format, parsed)? {
            Some(parsed) => parsed,
            None => return Ok(metadata_only(name, format, bytes)),
        };
        let records = parsed.records;
        let mut summary = self.store_parsed(parsed, options).await?;
        summary.files = 1;
        summary.bytes = bytes;
        summary.file_reports.push(FileReport {
            file: name.to_owned(),
            format,
            bytes,
            records,
        });
        Ok(summary)
    }

    /// Stores what a parser produced, one transaction per conversation.
    pub async fn store_parsed(
        &self,
        parsed: Parsed,
        options: &ImportOptions,
    ) -> Result<ImportSummary, ImportError> {
        let mut summary = ImportSummary {
            skipped: parsed.skipped,
            warnings: parsed.warnings,
            ..ImportSummary::default()
        };
        for conv in parsed.conversations {
            summary
                .conversations
                .push(self.store_imported(conv, options).await?);
        }
        Ok(summary)
    }

    /// Stores one imported conversation (or appends its growth, or recognises it as imported).
    pub async fn store_imported(
        &self,
        mut conv: ImportedConversation,
        options: &ImportOptions,
    ) -> Result<ConversationReport, ServiceError> {
        if conv.format == SourceFormat::Squash
            && self
                .store()
                .conversation(conv.conversation_id)
                .await
                .is_ok()
        {
            // Our own export of a conversation this store holds: a copy, with new ids.
            squash_json::fresh_ids(&mut conv);
        }
        let mut report = ConversationReport {
            source_key: conv.source_key.clone(),
            format: conv.format,
            display_name: conv.display_name.clone(),
            conversation_id: conv.conversation_id,
            status: ImportStatus::Imported,
            sidechain: conv.sidechain,
            started_by: started_by(&conv),
            counts: conv.counts(),
            threads: conv.threads.len(),
            operations: conv.operations.len(),
            backfilled_operations: conv.backfilled_operations,
        };
        let record = self.store().import_record(&conv.source_key).await?;
        if let Some(record) = &record {
            report.conversation_id = record.conversation_id;
            if record.source.content_hash == conv.content_hash {
                report.status = ImportStatus::AlreadyImported;
                return Ok(report);
            }
            if conv.appendable {
                // A grown session is compared with what is stored message by message: made
                // in memory (an append is the rare case; a first import streams).
                if let Some(deferred) = conv.deferred.take() {
                    conv.messages = materialize(&deferred).await?;
                }
                if let Some(appended) = self.append_growth(record, &conv).await? {
                    report.status = if appended == 0 {
                        ImportStatus::AlreadyImported
                    } else {
                        ImportStatus::Appended { messages: appended }
                    };
                    return Ok(report);
                }
            }
        }
        let project = options
            .project
            .clone()
            .or_else(|| conv.project_path.clone())
            .filter(|p| !p.trim().is_empty())
            .unwrap_or_else(|| options.fallback_project.clone());
        let id = conv.conversation_id;
        let deferred = conv.deferred.take();
        let batch = into_batch(conv, project);
        let outcome = match deferred {
            None => self.store().import_conversation(batch).await?,
            Some(deferred) => self.import_streamed(batch, deferred).await?,
        };
        match outcome {
            ImportOutcome::Imported { replaced, .. } => {
                report.conversation_id = id;
                report.status = match replaced {
                    Some(previous) => ImportStatus::Reimported { previous },
                    None => ImportStatus::Imported,
                };
            }
            ImportOutcome::AlreadyImported { conversation_id } => {
                report.conversation_id = conversation_id;
                report.status = ImportStatus::AlreadyImported;
            }
        }
        Ok(report)
    }

    /// Stores a conversation whose messages are made while they are stored: a thread reads
    /// them from the source in chunks and the store writes each in the one transaction.
    async fn import_streamed(
        &self,
        batch: ImportBatch,
        deferred: DeferredMessages,
    ) -> Result<ImportOutcome, ServiceError> {
        let (sender, chunks) = MessageChunks::channel(deferred.len(), 1);
        let producer = tokio::task::spawn_blocking(move || {
            for chunk in deferred.chunks(CHUNK_MESSAGES, CHUNK_BYTES) {
                let failed = chunk.is_err();
                if !sender.send(chunk.map_err(|e| e.to_string())) || failed {
                    break;
                }
            }
        });
        let outcome = self
            .store()
            .import_conversation_chunked(batch, chunks)
            .await;
        // The store stops listening on an error; the producer then stops at its next chunk.
        let _ = producer.await;
        Ok(outcome?)
    }

    /// Appends what a grown source added, if the conversation imported before is a prefix of the
    /// new one (same source ids, same content). `None` when it is not.
    async fn append_growth(
        &self,
        record: &ImportRecord,
        conv: &ImportedConversation,
    ) -> Result<Option<usize>, ServiceError> {
        let stored = self.store().all_messages(record.conversation_id).await?;
        let old: Vec<_> = stored.iter().filter(|m| source_id(m).is_some()).collect();
        if old.len() > conv.messages.len() {
            return Ok(None);
        }
        let is_prefix = old.iter().zip(&conv.messages).all(|(o, n)| {
            source_id(o) == source_id(n) && o.role == n.role && o.content == n.content
        });
        if !is_prefix {
            return Ok(None);
        }
        let tail: Vec<_> = conv.messages[old.len()..]
            .iter()
            .cloned()
            .map(|mut m| {
                m.conversation_id = record.conversation_id;
                m
            })
            .collect();
        let n = tail.len();
        self.store()
            .import_append(ImportAppend {
                source: ImportSource {
                    source_key: conv.source_key.clone(),
                    format: conv.format,
                    content_hash: conv.content_hash.clone(),
                    metadata: conv.metadata.clone(),
                },
                conversation_id: record.conversation_id,
                expected_hash: record.source.content_hash.clone(),
                messages: tail,
            })
            .await?;
        Ok(Some(n))
    }
}

/// Messages per chunk of a streamed import, and source bytes per chunk: what bounds memory.
const CHUNK_MESSAGES: usize = 1_000;
const CHUNK_BYTES: u64 = 2 << 20;

/// Every message of a streamed read, made in memory.
async fn materialize(deferred: &DeferredMessages) -> Result<Vec<Message>, ServiceError> {
    let deferred = deferred.clone();
    let made = tokio::task::spawn_blocking(move || {
        let mut all = Vec::with_capacity(deferred.len());
        for chunk in deferred.chunks(CHUNK_MESSAGES, CHUNK_BYTES) {
            all.extend(chunk?);
        }
        Ok::<_, squash_formats::FormatError>(all)
    })
    .await
    .map_err(|e| ServiceError::Store(StoreError::Backend(format!("the reader stopped: {e}"))))?;
    made.map_err(|e| ServiceError::Store(StoreError::Invalid(e.to_string())))
}

fn collect_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_files(&path, out)?;
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
        {
            out.push(path);
        }
    }
    Ok(())
}

/// The summary of a file with nothing in it.
fn empty_file(name: &str, bytes: u64) -> ImportSummary {
    ImportSummary {
        files: 1,
        bytes,
        warnings: vec![format!("{name}: empty; nothing to import")],
        ..ImportSummary::default()
    }
}

/// What a file is, from its first bytes (and a database's tables).
fn detect_file(path: &Path) -> std::io::Result<Found> {
    detect::inspect_path(path)
}

/// A forced format that reads nothing (or fails) where detection sees something else is the
/// wrong format for the file: it is refused with what was expected and what was found, rather
/// than imported as an empty conversation or reported with the reader's puzzled reason.
fn check_forced(
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

fn uuid_like() -> String {
    squash_core::MessageId::new().as_uuid().simple().to_string()
}
