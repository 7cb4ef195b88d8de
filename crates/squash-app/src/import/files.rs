//! Imports of files: one file, or every candidate file under a directory. A file is read off
//! the async runtime (streaming, line by line for the JSONL formats); a Claude Code session is
//! read in two passes, its structure first, then (unless it is already imported) its messages
//! in chunks, made by a blocking task while the store writes the chunks before them. Its
//! sub-agent runs, in files of their own, are read with it.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use chrono::Utc;
use squash_core::SourceFormat;
use squash_formats::claude_code::ParentSession;
use squash_formats::{detect, read};

use super::ahead::ReadAhead;
use super::file_read::{FileRead, SourceRead};
use super::options::{ImportOptions, ImportProgress};
use super::refuse::{check_asked, metadata_only, refuse_unread};
use super::source::{parse_off_runtime, read_source};
use super::subagents::{first_session_id, is_subagent_file, parent_session, subagent_files};
use super::summary::{FileFailure, ImportSummary};
use super::{ImportError, Parsed};
use crate::conversations::ConversationService;

/// Files a directory import considers.
const EXTENSIONS: [&str; 6] = ["jsonl", "json", "traj", "db", "sqlite", "sqlite3"];

impl ConversationService {
    /// Imports a file, or every candidate file under a directory (recursively, in name order).
    /// A file that cannot be read or parsed is reported in the summary and the others go on.
    /// The next file (if not large) is read while one is stored: reading is one core's work,
    /// and a store leaves the other idle part of the time.
    pub async fn import_path(
        &self,
        path: &Path,
        options: &ImportOptions,
        progress: Arc<dyn ImportProgress>,
    ) -> Result<ImportSummary, ImportError> {
        let files = if path.is_dir() {
            files_under(path)?
        } else {
            vec![path.to_path_buf()]
        };
        let mut summary = ImportSummary::default();
        let mut ahead: Option<ReadAhead> = None;
        for (i, file) in files.iter().enumerate() {
            let name = file.display().to_string();
            let read = match ahead.take() {
                Some(ahead) => ahead.finish(&name, progress.as_ref()).await,
                None => read_source(file.clone(), name.clone(), options, progress.clone()).await,
            };
            ahead = files
                .get(i + 1)
                .and_then(|next| ReadAhead::start(self, next, options));
            let imported = match read {
                Ok(read) => {
                    self.store_source(file, &name, read, options, progress.as_ref())
                        .await
                }
                Err(e) => Err(e),
            };
            match imported {
                Ok(s) => summary.merge(s),
                Err(e) if path.is_dir() => {
                    summary.files += 1;
                    summary.failed.push(FileFailure::new(name, &e));
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
    pub(super) async fn import_file_as(
        &self,
        path: &Path,
        name: &str,
        options: &ImportOptions,
        progress: Arc<dyn ImportProgress>,
    ) -> Result<ImportSummary, ImportError> {
        let read = read_source(
            path.to_path_buf(),
            name.to_owned(),
            options,
            progress.clone(),
        )
        .await?;
        self.store_source(path, name, read, options, progress.as_ref())
            .await
    }

    /// Stores what [`read_source`] made of the file at `path`.
    async fn store_source(
        &self,
        path: &Path,
        name: &str,
        read: SourceRead,
        options: &ImportOptions,
        progress: &dyn ImportProgress,
    ) -> Result<ImportSummary, ImportError> {
        let read = match read {
            SourceRead::Nothing(summary) => return Ok(summary),
            SourceRead::Parsed(read) => read,
        };
        progress.storing(read.parsed.conversations.len());
        let summary = self.store_read(path, name, read, options).await?;
        progress.file_finished(name);
        Ok(summary)
    }

    /// Imports a file its caller has read already (`parsed`, what the reader of `format` made of
    /// it): refused as [`Self::import_file`] refuses it, stored, and its sub-agent runs read
    /// with it. The file is not read again.
    pub async fn import_read_file(
        &self,
        path: &Path,
        format: SourceFormat,
        parsed: Parsed,
        options: &ImportOptions,
    ) -> Result<ImportSummary, ImportError> {
        let name = path.display().to_string();
        let bytes = std::fs::metadata(path).map_or(0, |m| m.len());
        let detected = || {
            detect::inspect_path(path).map_err(|error| ImportError::Io {
                path: name.clone(),
                error,
            })
        };
        let parsed = check_asked(&name, format, Ok(parsed), detected)?;
        let Some(parsed) = refuse_unread(&name, format, parsed)? else {
            return Ok(metadata_only(&name, format, bytes));
        };
        let read = FileRead::new(format, bytes, parsed);
        self.store_read(path, &name, read, options).await
    }

    /// Stores what was read of the file at `path`, then its sub-agent runs.
    async fn store_read(
        &self,
        path: &Path,
        name: &str,
        read: FileRead,
        options: &ImportOptions,
    ) -> Result<ImportSummary, ImportError> {
        let parent = (read.format == SourceFormat::ClaudeCode)
            .then(|| parent_session(&read.parsed))
            .flatten();
        let session_id = read
            .parsed
            .conversations
            .iter()
            .find(|c| !c.sidechain)
            .and_then(|c| c.source_key.strip_prefix("claude-code:"))
            .map(str::to_owned);
        let mut summary = self.store_file(name, read, options).await?;
        if let (Some(parent), Some(id)) = (parent, session_id) {
            for file in subagent_files(path, &id) {
                let s = self
                    .import_subagents(&file, parent.clone(), options)
                    .await?;
                summary.merge(s);
            }
        }
        Ok(summary)
    }

    /// A file of sub-agent runs beside a Claude Code session, read as runs of that session: each
    /// named after the call that started it and tied to it. A file that cannot be read is
    /// reported, and the session stays imported.
    async fn import_subagents(
        &self,
        path: &Path,
        parent: ParentSession,
        options: &ImportOptions,
    ) -> Result<ImportSummary, ImportError> {
        let name = path.display().to_string();
        let bytes = std::fs::metadata(path).map_or(0, |m| m.len());
        let owned = path.to_path_buf();
        let source_name = name.clone();
        let parsed = parse_off_runtime(&name, move || {
            read::read_claude_subagents(&owned, &source_name, parent, Utc::now())
        })
        .await?;
        match parsed {
            Ok(parsed) => {
                let read = FileRead::new(SourceFormat::ClaudeCode, bytes, parsed);
                self.store_file(&name, read, options).await
            }
            Err(e) => Ok(ImportSummary {
                failed: vec![FileFailure {
                    file: name,
                    error: e.to_string(),
                    remedies: Vec::new(),
                }],
                ..ImportSummary::default()
            }),
        }
    }
}

/// The files a directory import reads, in name order. Sub-agent runs are read with their
/// session; one whose session is not there is read alone (and said to be a run of a session
/// not imported).
fn files_under(dir: &Path) -> Result<Vec<PathBuf>, ImportError> {
    let mut files = Vec::new();
    collect_files(dir, &mut files).map_err(|error| ImportError::Io {
        path: dir.display().to_string(),
        error,
    })?;
    files.sort();
    let (runs, mut files): (Vec<_>, Vec<_>) = files.into_iter().partition(|f| is_subagent_file(f));
    let mut claimed = HashSet::new();
    for f in &files {
        if let Some(id) = first_session_id(f) {
            claimed.extend(subagent_files(f, &id));
        }
    }
    files.extend(runs.into_iter().filter(|r| !claimed.contains(r)));
    files.sort();
    Ok(files)
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
