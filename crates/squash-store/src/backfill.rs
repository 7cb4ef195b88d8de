//! The fill both backends run when they open: columns added after rows were stored — a
//! message's token estimate (`crate::tokens`) and its search text (`crate::search`) — hold
//! NULL in those rows and are computed in Rust by the domain's rules (SQL cannot run them), in
//! one transaction (either every row gets its values or none does), a batch at a time. A
//! partial index on the NULL rows makes "is there anything to fill?" one index probe, so an
//! up-to-date database opens as fast as before. Filling lazily instead (at the first read of
//! a thread) would make every read able to write, and every sum first ask whether one of its
//! rows is still empty.

use crate::StoreError;

/// Messages read, computed and written back per round: bounds memory (a message's content can
/// be megabytes) while keeping the round trips few.
pub(crate) const BATCH: i64 = 500;

/// A column of `messages` that the fill computes, from a row's `role` and `content`.
pub(crate) struct Filled<V> {
    pub column: &'static str,
    /// The partial index of the rows where it is NULL (the same name in both schemas).
    pub pending: &'static str,
    /// The value for the row with `key` (named in the error of a corrupt row).
    pub value: fn(key: i64, role: &str, content: &str) -> Result<V, StoreError>,
    /// What turns the bound value into the column's type, in PostgreSQL (`::tsvector`).
    pub cast: &'static str,
}

/// The estimated tokens (migration 0005).
pub(crate) const TOKENS: Filled<i64> = Filled {
    column: "tokens",
    pending: "messages_without_tokens",
    value: crate::tokens::row_tokens,
    cast: "",
};

/// The indexed text (migration 0006).
pub(crate) const SEARCH_TEXT: Filled<String> = Filled {
    column: "search_text",
    pending: "messages_without_search",
    value: |key, _role, content| crate::search::row_search_text(key, content),
    cast: "",
};

/// PostgreSQL's indexed terms (migration 0010), from the same text; SQLite's FTS5 table was
/// filled by the migration itself.
pub(crate) const SEARCH_TERMS: Filled<String> = Filled {
    column: "search_terms",
    pending: "messages_without_terms",
    value: |key, _role, content| {
        crate::search::row_search_text(key, content)
            .map(|t| crate::search::tsvector_literal(&crate::new_row::IndexedTerms::of(&t)))
    },
    cast: "::tsvector",
};

/// What a fill did, said once when the store opens: the messages whose tokens were estimated,
/// and those indexed for search.
pub(crate) fn report(tokens: u64, search: u64) {
    if tokens > 0 {
        tracing::info!(messages = tokens, "estimated the tokens of stored messages");
    }
    if search > 0 {
        tracing::info!(messages = search, "indexed stored messages for search");
    }
}
