//! Storing what a reader made: each conversation in one transaction (small ones several to a
//! transaction, [`Group`]), with the idempotency rules of the module docs (already imported,
//! grown and appended to, or imported again), a conversation whose messages are made while
//! they are stored in chunks.

use std::sync::Arc;

use squash_core::{ConversationId, SourceFormat};
use squash_formats::claude_code::DeferredMessages;
use squash_formats::squash_json;
use squash_store::{ImportBatch, ImportOutcome, MessageChunks};

use super::chunks::{whole, CHUNK_MESSAGES};
use super::file_read::{FileRead, Made};
use super::group::{Group, Member};
use super::options::ImportOptions;
use super::subagents::started_by;
use super::summary::{ConversationReport, FileReport, ImportStatus, ImportSummary};
use super::{into_batch, ImportError, ImportedConversation, Parsed};
use crate::conversations::ConversationService;
use crate::error::ServiceError;

impl ConversationService {
    /// Stores what a parser read from the source `name` (`bytes` long, read as `format`) and
    /// reports it as that one file.
    pub(super) async fn store_file(
        &self,
        name: &str,
        read: FileRead,
        options: &ImportOptions,
    ) -> Result<ImportSummary, ImportError> {
        let FileRead {
            format,
            bytes,
            parsed,
            made,
        } = read;
        let records = parsed.records;
        let mut summary = self.store_parsed_made(parsed, made, options).await?;
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

    /// Stores what a parser produced, one transaction per conversation — or per group of small
    /// ones, stored as each would be on its own.
    pub async fn store_parsed(
        &self,
        parsed: Parsed,
        options: &ImportOptions,
    ) -> Result<ImportSummary, ImportError> {
        self.store_parsed_made(parsed, Made::default(), options)
            .await
    }

    /// [`Self::store_parsed`], the messages of some small conversations made already
    /// (`made`, by the conversation's index).
    async fn store_parsed_made(
        &self,
        parsed: Parsed,
        mut made: Made,
        options: &ImportOptions,
    ) -> Result<ImportSummary, ImportError> {
        let mut summary = ImportSummary {
            skipped: parsed.skipped,
            warnings: parsed.warnings,
            ..ImportSummary::default()
        };
        let reports = &mut summary.conversations;
        let mut group = Group::default();
        for (i, conv) in parsed.conversations.into_iter().enumerate() {
            if group.holds(&conv) {
                // Stored before this one is looked up, as one at a time would be.
                self.store_group(&mut group, reports).await?;
            }
            let (report, pending) = self.prepare(conv, options).await?;
            let at = reports.len();
            reports.push(report);
            let Pending::Store { batch, deferred } = pending else {
                continue;
            };
            if Group::takes(&batch, deferred.as_deref()) {
                let made = match made.take(i) {
                    Some(chunk) => MessageChunks::ready(chunk),
                    None => whole(deferred.as_ref()).await?,
                };
                group.push(Member {
                    at,
                    batch: *batch,
                    made,
                    deferred,
                });
                if group.is_full() {
                    self.store_group(&mut group, reports).await?;
                }
                continue;
            }
            self.store_group(&mut group, reports).await?;
            let id = batch.conversation_id;
            let outcome = self.store_batch(*batch, deferred).await?;
            settle(&mut reports[at], id, outcome);
        }
        self.store_group(&mut group, reports).await?;
        Ok(summary)
    }

    /// Stores one imported conversation (or appends its growth, or recognises it as imported).
    pub async fn store_imported(
        &self,
        conv: ImportedConversation,
        options: &ImportOptions,
    ) -> Result<ConversationReport, ServiceError> {
        let (mut report, pending) = self.prepare(conv, options).await?;
        if let Pending::Store { batch, deferred } = pending {
            let id = batch.conversation_id;
            let outcome = self.store_batch(*batch, deferred).await?;
            settle(&mut report, id, outcome);
        }
        Ok(report)
    }

    /// What a conversation comes to before it is stored whole: its report, and whether it is
    /// already imported, its growth appended, or it is to be stored.
    async fn prepare(
        &self,
        mut conv: ImportedConversation,
        options: &ImportOptions,
    ) -> Result<(ConversationReport, Pending), ServiceError> {
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
        let deferred = conv.deferred.take().map(Arc::new);
        let record = self.store().import_record(&conv.source_key).await?;
        if let Some(record) = &record {
            report.conversation_id = record.conversation_id;
            if record.source.content_hash == conv.content_hash {
                report.status = ImportStatus::AlreadyImported;
                return Ok((report, Pending::Done));
            }
            if conv.appendable {
                if let Some(appended) = self.append_growth(record, &conv, deferred.as_ref()).await?
                {
                    report.status = if appended == 0 {
                        ImportStatus::AlreadyImported
                    } else {
                        ImportStatus::Appended { messages: appended }
                    };
                    return Ok((report, Pending::Done));
                }
            }
        }
        let project = options
            .project
            .clone()
            .or_else(|| conv.project_path.clone())
            .filter(|p| !p.trim().is_empty())
            .unwrap_or_else(|| options.fallback_project.clone());
        let batch = Box::new(into_batch(conv, project));
        Ok((report, Pending::Store { batch, deferred }))
    }

    /// Stores a conversation whole, its messages streamed from the source if they are made
    /// as they are stored.
    async fn store_batch(
        &self,
        batch: ImportBatch,
        deferred: Option<Arc<DeferredMessages>>,
    ) -> Result<ImportOutcome, ServiceError> {
        Ok(match deferred {
            None => self.store().import_conversation(batch).await?,
            Some(deferred) => self.import_streamed(batch, deferred).await?,
        })
    }

    /// Stores the conversations of `group` in one transaction; if that fails, one at a time,
    /// so that the error names the one that failed and those before it are stored, as
    /// without the group. Empties the group.
    async fn store_group(
        &self,
        group: &mut Group,
        reports: &mut [ConversationReport],
    ) -> Result<(), ServiceError> {
        let members = group.take();
        if members.is_empty() {
            return Ok(());
        }
        // Kept to store them one at a time if the group fails: a batch whose messages are
        // made from the source holds none of them, and they are made again.
        let again: Vec<_> = members
            .iter()
            .map(|m| (m.at, m.batch.clone(), m.deferred.clone()))
            .collect();
        let batches = members.into_iter().map(|m| (m.batch, m.made)).collect();
        if let Ok(outcomes) = self.store().import_conversations(batches).await {
            for ((at, batch, _), outcome) in again.iter().zip(outcomes) {
                settle(&mut reports[*at], batch.conversation_id, outcome);
            }
            return Ok(());
        }
        for (at, batch, deferred) in again {
            let id = batch.conversation_id;
            let outcome = self.store_batch(batch, deferred).await?;
            settle(&mut reports[at], id, outcome);
        }
        Ok(())
    }

    /// Stores a conversation whose messages are made while they are stored: a thread reads
    /// them from the source in chunks (and, sending each, makes its rows' computed columns)
    /// and the store writes each in the one transaction.
    async fn import_streamed(
        &self,
        batch: ImportBatch,
        deferred: Arc<DeferredMessages>,
    ) -> Result<ImportOutcome, ServiceError> {
        let (sender, chunks) = MessageChunks::channel(deferred.len(), 1);
        let chunk_bytes = self.store().import_chunk_bytes();
        // One thread reads and parses the source, another makes the rows, the store writes.
        let producer = tokio::task::spawn_blocking(move || {
            deferred.read_ahead(CHUNK_MESSAGES, chunk_bytes, |chunk| {
                sender.send(chunk.map_err(|e| e.to_string()))
            });
        });
        let outcome = self
            .store()
            .import_conversation_chunked(batch, chunks)
            .await;
        // The store stops listening on an error; the producer then stops at its next chunk.
        let _ = producer.await;
        Ok(outcome?)
    }
}

/// What is left of a conversation's import once its record was looked up.
enum Pending {
    /// Nothing: its report says what it came to.
    Done,
    /// To be stored whole; `deferred`: its messages, made from the source as they are stored.
    Store {
        batch: Box<ImportBatch>,
        deferred: Option<Arc<DeferredMessages>>,
    },
}

/// The report of a conversation stored as `id`, after what the store did.
fn settle(report: &mut ConversationReport, id: ConversationId, outcome: ImportOutcome) {
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
}
