//! What a new message's row stores besides the message's own fields, computed from it once:
//! its content as JSON, its token estimate, its searchable text and that text's index terms.
//! Both backends write these columns; an import makes them on the thread that makes its
//! messages ([`crate::MessageChunks`]), so that the store's writer, which every chunk waits
//! for, only writes.

use squash_core::search::searchable_text;
use squash_core::search::tokens::for_each_indexed_term;
use squash_core::Message;

use crate::StoreError;

/// The computed columns of a new message's row.
#[derive(Debug)]
pub(crate) struct NewRow {
    pub content: String,
    pub instructions: Option<String>,
    pub metadata: Option<String>,
    pub tokens: i64,
    pub search_text: String,
    pub terms: IndexedTerms,
}

impl NewRow {
    pub fn of(message: &Message) -> Result<NewRow, StoreError> {
        let search_text = searchable_text(message);
        Ok(NewRow {
            content: serde_json::to_string(&message.content)?,
            instructions: if message.instructions.is_empty() {
                None
            } else {
                Some(serde_json::to_string(&message.instructions)?)
            },
            metadata: message
                .metadata
                .as_ref()
                .map(serde_json::to_string)
                .transpose()?,
            tokens: crate::tokens::stored_tokens(message),
            terms: IndexedTerms::of(&search_text),
            search_text,
        })
    }
}

/// The indexed terms of a text, position by position
/// ([`indexed_terms`](squash_core::search::tokens::indexed_terms)), as one string: the terms
/// separated by spaces, [`NO_TERM`] where a position has none — the document SQLite's FTS5
/// table indexes as it is (a term holds letters and digits only, never a space).
#[derive(Debug, Default)]
pub(crate) struct IndexedTerms {
    document: String,
}

/// A position that matches nothing: a private-use character, which FTS5's `ascii` tokenizer
/// takes as a token and no query term ever holds.
pub(crate) const NO_TERM: &str = "\u{E002}";

impl IndexedTerms {
    pub fn of(text: &str) -> IndexedTerms {
        let mut document = String::new();
        for_each_indexed_term(text, |term| {
            if !document.is_empty() {
                document.push(' ');
            }
            document.push_str(term.unwrap_or(NO_TERM));
        });
        IndexedTerms { document }
    }

    /// The terms as FTS5's document.
    pub fn document(&self) -> &str {
        &self.document
    }

    /// [`document`](Self::document), owned.
    pub fn into_document(self) -> String {
        self.document
    }

    /// Each position's term, in order.
    pub fn iter(&self) -> impl Iterator<Item = Option<&str>> + '_ {
        self.document
            .split(' ')
            .filter(|_| !self.document.is_empty())
            .map(|t| (t != NO_TERM).then_some(t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use squash_core::search::tokens::indexed_terms;

    #[test]
    fn holds_the_indexed_terms_of_the_rule() {
        let text = "The cats ran; the café ran again. ".repeat(100);
        let held: Vec<Option<String>> = IndexedTerms::of(&text)
            .iter()
            .map(|t| t.map(str::to_owned))
            .collect();
        assert_eq!(held, indexed_terms(&text));
        assert_eq!(IndexedTerms::of("").iter().count(), 0);
        assert_eq!(IndexedTerms::of(" ,; ").iter().count(), 0);
    }
}
