//! What reading a file made, before it is stored.

use squash_core::SourceFormat;
use squash_formats::Parsed;
use squash_store::PreparedChunk;

use super::summary::ImportSummary;

/// What reading a file made: its conversations, or a summary that says why there are none
/// (an empty file, a file of metadata only).
pub(super) enum SourceRead {
    Nothing(ImportSummary),
    Parsed(FileRead),
}

/// What a reader made of a file, to be stored.
pub(super) struct FileRead {
    pub format: SourceFormat,
    /// The file's size.
    pub bytes: u64,
    pub parsed: Parsed,
    /// The messages of small conversations, made ahead of their turn.
    pub made: Made,
}

impl FileRead {
    pub fn new(format: SourceFormat, bytes: u64, parsed: Parsed) -> FileRead {
        FileRead {
            format,
            bytes,
            parsed,
            made: Made::default(),
        }
    }
}

/// The messages of a file's small conversations made while the file before it was stored
/// ([`PreparedChunk`]s by the conversation's index); a conversation with none is made at its
/// turn.
#[derive(Default)]
pub(super) struct Made(pub Vec<Option<PreparedChunk>>);

impl Made {
    pub fn take(&mut self, i: usize) -> Option<PreparedChunk> {
        self.0.get_mut(i).and_then(Option::take)
    }
}
