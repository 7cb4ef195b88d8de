//! Imports of documents held in memory (uploads): read as they are, or, for a SQLite database
//! (a Gromozeka store), staged in a temporary file, since SQLite reads files.

use std::sync::Arc;

use chrono::Utc;
use squash_formats::{detect, read};

use super::file_read::FileRead;
use super::options::{ImportOptions, NoProgress};
use super::refuse::{check_asked, metadata_only, refuse_unread, upload_format};
use super::source::parse_off_runtime;
use super::summary::ImportSummary;
use super::ImportError;
use crate::conversations::ConversationService;

impl ConversationService {
    /// Imports a document held in memory (an upload): `name` identifies the source (it is part
    /// of the source key of formats that carry no id of their own).
    pub async fn import_bytes(
        &self,
        name: &str,
        data: Vec<u8>,
        options: &ImportOptions,
    ) -> Result<ImportSummary, ImportError> {
        let bytes = data.len() as u64;
        let asked = options.format.source();
        let head = &data[..data.len().min(detect::DETECT_BYTES as usize)];
        let found = detect::inspect(head);
        let format = upload_format(name, asked, found)?;
        if data.starts_with(b"SQLite format 3\0") {
            return self.import_database_bytes(name, &data, options).await;
        }
        let source_name = name.to_owned();
        let parsed = parse_off_runtime(name, move || {
            read::read_stream(&data[..], &source_name, format, Utc::now(), &mut |_| {})
        })
        .await?;
        let parsed = match asked {
            Some(expected) => check_asked(name, expected, parsed, || Ok(found))?,
            None => parsed?,
        };
        let Some(parsed) = refuse_unread(name, format, parsed)? else {
            return Ok(metadata_only(name, format, bytes));
        };
        let read = FileRead::new(format, bytes, parsed);
        self.store_file(name, read, options).await
    }

    /// A database upload, staged in a temporary file whose tables tell which store it is.
    async fn import_database_bytes(
        &self,
        name: &str,
        data: &[u8],
        options: &ImportOptions,
    ) -> Result<ImportSummary, ImportError> {
        let dir = std::env::temp_dir().join(format!("squash-import-{}", uuid_like()));
        std::fs::create_dir_all(&dir).map_err(|error| ImportError::Io {
            path: dir.display().to_string(),
            error,
        })?;
        let file = dir.join("gromozeka.db");
        let result = match std::fs::write(&file, data) {
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
        result
    }
}

fn uuid_like() -> String {
    squash_core::MessageId::new().as_uuid().simple().to_string()
}
