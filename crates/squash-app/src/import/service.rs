//! The import service: reads files (streaming, line by line for the JSONL formats), detects
//! their format, runs the parsers off the async runtime, and stores each conversation in one
//! transaction with the idempotency rules of the module docs.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use chrono::Utc;
use serde_json::Value;
use sha2::{Digest, Sha256};
use squash_store::{ImportAppend, ImportOutcome, ImportRecord, ImportSource};

use super::claude_code::ClaudeCodeParser;
use super::codex::CodexParser;
use super::summary::{ContentCounts, ConversationReport, FileFailure, ImportStatus, ImportSummary};
use super::{
    anthropic_json, gromozeka, hex_digest, openai_json, sha256_hex, source_id, ImportError,
    ImportFormat, ImportedConversation, Parsed,
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

/// Bytes between progress reports.
const PROGRESS_STEP: u64 = 1 << 20;

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
        let format = match options.format {
            ImportFormat::Auto => detect_file(path).map_err(io)?,
            f => Some(f),
        }
        .ok_or_else(|| ImportError::Undetected(name.clone()))?;
        let owned = path.to_path_buf();
        let source_name = name.clone();
        let reporter = progress.clone();
        let parsed = tokio::task::spawn_blocking(move || {
            parse_file(&owned, &source_name, format, reporter.as_ref())
        })
        .await
        .map_err(|e| ImportError::invalid(&name, format!("the parser stopped: {e}")))??;
        progress.storing(parsed.conversations.len());
        let mut summary = self.store_parsed(parsed, options).await?;
        summary.files = 1;
        summary.bytes = bytes;
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
        let format = match options.format {
            ImportFormat::Auto => detect_bytes(&data),
            f => Some(f),
        }
        .ok_or_else(|| ImportError::Undetected(name.to_owned()))?;
        if format == ImportFormat::Gromozeka {
            // SQLite reads files: stage the upload in a temporary one.
            let dir = std::env::temp_dir().join(format!("squash-import-{}", uuid_like()));
            std::fs::create_dir_all(&dir).map_err(|error| ImportError::Io {
                path: dir.display().to_string(),
                error,
            })?;
            let file = dir.join("gromozeka.db");
            let result = match std::fs::write(&file, &data) {
                Ok(()) => {
                    let opts = ImportOptions {
                        format,
                        ..options.clone()
                    };
                    self.import_file_as(&file, name, &opts, Arc::new(NoProgress))
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
            parse_reader(&data[..], &source_name, format, &NoProgress)
        })
        .await
        .map_err(|e| ImportError::invalid(name, format!("the parser stopped: {e}")))??;
        let mut summary = self.store_parsed(parsed, options).await?;
        summary.files = 1;
        summary.bytes = bytes;
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
        if conv.format == ImportFormat::Squash
            && self
                .store()
                .conversation(conv.conversation_id)
                .await
                .is_ok()
        {
            // Our own export of a conversation this store holds: a copy, with new ids.
            crate::export::json::fresh_ids(&mut conv);
        }
        let mut report = ConversationReport {
            source_key: conv.source_key.clone(),
            format: conv.format.as_str().to_owned(),
            display_name: conv.display_name.clone(),
            conversation_id: conv.conversation_id,
            status: ImportStatus::Imported,
            sidechain: conv.sidechain,
            counts: ContentCounts::of(&conv.messages),
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
        match self
            .store()
            .import_conversation(conv.into_batch(project))
            .await?
        {
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
                    format: conv.format.as_str().to_owned(),
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

const SQLITE_MAGIC: &[u8] = b"SQLite format 3\0";

/// The format of a file, from its first bytes.
pub fn detect_file(path: &Path) -> std::io::Result<Option<ImportFormat>> {
    let mut head = Vec::with_capacity(64 * 1024);
    std::fs::File::open(path)?
        .take(4 * 1024 * 1024)
        .read_to_end(&mut head)?;
    Ok(detect_bytes(&head))
}

/// The format of a document from its beginning (or all of it).
pub fn detect_bytes(head: &[u8]) -> Option<ImportFormat> {
    if head.starts_with(SQLITE_MAGIC) {
        return Some(ImportFormat::Gromozeka);
    }
    let text = String::from_utf8_lossy(head);
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next()?;
    if let Ok(Value::Object(obj)) = serde_json::from_str::<Value>(first) {
        let has = |k: &str| obj.contains_key(k);
        if has("payload") && has("type") {
            return Some(ImportFormat::Codex);
        }
        if has("type") && !has("messages") && !has("history") && !has("format") {
            return Some(ImportFormat::ClaudeCode);
        }
        if lines.next().is_none() {
            return Some(json_format(&Value::Object(obj)));
        }
    }
    // A multi-line document: classify by its start, as far as it parses.
    let whole: Result<Value, _> = serde_json::from_str(&text);
    match whole {
        Ok(doc) => Some(json_format(&doc)),
        Err(_) => {
            let t = text.trim_start();
            if t.starts_with('[') {
                Some(ImportFormat::OpenAi)
            } else if t.contains("\"format\"") && t.contains("squash-conversation") {
                Some(ImportFormat::Squash)
            } else if t.contains("\"history\"") || t.contains("\"tool_calls\"") {
                Some(ImportFormat::OpenAi)
            } else if t.contains("\"tool_use\"") || t.contains("\"tool_result\"") {
                Some(ImportFormat::Anthropic)
            } else if t.contains("\"messages\"") {
                Some(ImportFormat::OpenAi)
            } else {
                None
            }
        }
    }
}

/// OpenAI, Anthropic or our own format, for a whole JSON document.
fn json_format(doc: &Value) -> ImportFormat {
    if doc.get("format").and_then(Value::as_str) == Some(crate::export::json::FORMAT) {
        return ImportFormat::Squash;
    }
    if doc.is_array() || doc.get("history").is_some() {
        return ImportFormat::OpenAi;
    }
    let messages = doc
        .get("messages")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let openai = messages.iter().any(|m| {
        m.get("tool_calls").is_some()
            || matches!(
                m.get("role").and_then(Value::as_str),
                Some("tool" | "system" | "developer" | "function")
            )
    });
    let anthropic = doc.get("system").is_some()
        || messages.iter().any(|m| {
            m.get("content")
                .and_then(Value::as_array)
                .is_some_and(|blocks| {
                    blocks.iter().any(|b| {
                        matches!(
                            b.get("type").and_then(Value::as_str),
                            Some("tool_use" | "tool_result" | "thinking" | "image")
                        )
                    })
                })
        });
    if anthropic && !openai {
        ImportFormat::Anthropic
    } else {
        ImportFormat::OpenAi
    }
}

fn parse_file(
    path: &Path,
    source_name: &str,
    format: ImportFormat,
    progress: &dyn ImportProgress,
) -> Result<Parsed, ImportError> {
    if format == ImportFormat::Gromozeka {
        return gromozeka::read_database(path, source_name, Utc::now());
    }
    let file = std::fs::File::open(path).map_err(|error| ImportError::Io {
        path: source_name.to_owned(),
        error,
    })?;
    parse_reader(file, source_name, format, progress)
}

/// Runs the parser for `format` over a stream. JSONL formats are read line by line; whole
/// documents are read at once (they are small).
fn parse_reader(
    reader: impl Read,
    source_name: &str,
    format: ImportFormat,
    progress: &dyn ImportProgress,
) -> Result<Parsed, ImportError> {
    let now = Utc::now();
    let io = |error| ImportError::Io {
        path: source_name.to_owned(),
        error,
    };
    match format {
        ImportFormat::ClaudeCode | ImportFormat::Codex => {
            enum Lines {
                Claude(Box<ClaudeCodeParser>),
                Codex(Box<CodexParser>),
            }
            let mut parser = if format == ImportFormat::ClaudeCode {
                Lines::Claude(Box::new(ClaudeCodeParser::new(source_name, now)))
            } else {
                Lines::Codex(Box::new(CodexParser::new(source_name, now)))
            };
            let mut reader = BufReader::with_capacity(1 << 20, reader);
            let mut hash = Sha256::new();
            let mut buf = Vec::with_capacity(64 * 1024);
            let mut no = 0usize;
            let mut since_report = 0u64;
            let mut skipped_utf8 = Vec::new();
            loop {
                buf.clear();
                let n = reader.read_until(b'\n', &mut buf).map_err(io)?;
                if n == 0 {
                    break;
                }
                no += 1;
                hash.update(&buf);
                since_report += n as u64;
                if since_report >= PROGRESS_STEP {
                    progress.advanced(since_report);
                    since_report = 0;
                }
                match std::str::from_utf8(&buf) {
                    Ok(line) => match &mut parser {
                        Lines::Claude(p) => p.push_line(no, line),
                        Lines::Codex(p) => p.push_line(no, line),
                    },
                    Err(e) => skipped_utf8.push((no, e.to_string())),
                }
            }
            progress.advanced(since_report);
            let digest = hex_digest(hash.finalize().as_slice());
            let mut parsed = match parser {
                Lines::Claude(p) => p.finish(&digest),
                Lines::Codex(p) => p.finish(&digest),
            };
            for (line, e) in skipped_utf8 {
                parsed.skip(source_name, Some(line), format!("not UTF-8: {e}"));
            }
            parsed.skipped.sort_by_key(|s| s.line);
            Ok(parsed)
        }
        ImportFormat::OpenAi | ImportFormat::Anthropic | ImportFormat::Squash => {
            let mut data = Vec::new();
            let mut reader = reader;
            reader.read_to_end(&mut data).map_err(io)?;
            progress.advanced(data.len() as u64);
            let hash = sha256_hex(&data);
            let doc: Value = serde_json::from_slice(&data)
                .map_err(|e| ImportError::invalid(source_name, format!("invalid JSON: {e}")))?;
            drop(data);
            match format {
                ImportFormat::OpenAi => openai_json::parse(source_name, doc, &hash, now),
                ImportFormat::Anthropic => anthropic_json::parse(source_name, doc, &hash, now),
                _ => crate::export::json::parse(source_name, doc, &hash),
            }
        }
        ImportFormat::Gromozeka => Err(ImportError::invalid(
            source_name,
            "a Gromozeka database must be imported from a file",
        )),
        ImportFormat::Auto => Err(ImportError::Undetected(source_name.to_owned())),
    }
}

fn uuid_like() -> String {
    squash_core::MessageId::new().as_uuid().simple().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_detected_from_their_start() {
        let claude = br#"{"parentUuid":null,"type":"user","uuid":"u","sessionId":"s","message":{"role":"user","content":"hi"}}
{"type":"summary","summary":"x"}"#;
        assert_eq!(detect_bytes(claude), Some(ImportFormat::ClaudeCode));
        let codex = br#"{"timestamp":"t","type":"session_meta","payload":{}}"#;
        assert_eq!(detect_bytes(codex), Some(ImportFormat::Codex));
        assert_eq!(
            detect_bytes(br#"{"messages":[{"role":"tool","content":"x"}]}"#),
            Some(ImportFormat::OpenAi)
        );
        assert_eq!(
            detect_bytes(br#"{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"a"}]}]}"#),
            Some(ImportFormat::Anthropic)
        );
        assert_eq!(
            detect_bytes(b"{\n \"history\": [\n"),
            Some(ImportFormat::OpenAi)
        );
        assert_eq!(
            detect_bytes(b"SQLite format 3\0...."),
            Some(ImportFormat::Gromozeka)
        );
        assert_eq!(detect_bytes(b"hello"), None);
    }
}
