//! Full-text search, what both backends share. The text indexed is the domain's
//! ([`searchable_text`](squash_core::search::searchable_text)), computed in Rust when a message
//! is stored and kept in the `search_text` column; what a word of it is, is the domain's rule
//! too ([`squash_core::search::tokens`]): both backends index the terms that rule makes and
//! look up the terms it makes of a query, so they find the same messages (migration 0010).
//! SQLite's FTS5 table `message_terms` receives them as a document of terms
//! ([`IndexedTerms`](crate::new_row::IndexedTerms), written with each new row; the SQL
//! function `squash_search_terms` makes it for the fill of old rows),
//! PostgreSQL's `messages.search_terms` as a `tsvector` written out with its positions
//! ([`tsvector_literal`]); neither engine's own parser, stemmer or stop words take part.
//!
//! Rows stored before the column existed hold NULL and are filled when the store opens, as the
//! tokens are (`crate::backfill`).
//!
//! Both searches keep the newest [`MAX_CANDIDATES`] matches (of current threads, or of one
//! conversation's history), rank them, and read what the page shows for the page alone; the
//! snippet is made here, from the text, by the domain's rule ([`snippet`]).

use squash_core::operation::KindTag;
use std::collections::{BTreeSet, HashSet};
use std::fmt::Write;
use std::sync::LazyLock;

use squash_core::search::tokens::term;
use squash_core::search::{searchable_content, snippet, SearchQuery, SnippetPart};
use squash_core::{ContentItem, Role};

use crate::new_row::IndexedTerms;
use crate::types::{HistoryHit, HistoryResults, OperationRef, SearchHit, SearchResults};
use crate::StoreError;

/// The `search_text` of a stored row from its `content` column, for the fill.
pub(crate) fn row_search_text(key: i64, content: &str) -> Result<String, StoreError> {
    let content: Vec<ContentItem> = serde_json::from_str(content)
        .map_err(|e| StoreError::Corrupt(format!("content of message {key}: {e}")))?;
    Ok(searchable_content(&content))
}

/// The most hits one search returns.
pub const MAX_SEARCH_LIMIT: u32 = 200;

/// `limit` checked: 1 to [`MAX_SEARCH_LIMIT`].
pub(crate) fn check_limit(limit: u32) -> Result<i64, StoreError> {
    if limit == 0 || limit > MAX_SEARCH_LIMIT {
        return Err(StoreError::Invalid(format!(
            "a search returns 1 to {MAX_SEARCH_LIMIT} hits, not {limit}"
        )));
    }
    Ok(i64::from(limit))
}

/// `offset` checked: a search pages through its [`MAX_CANDIDATES`] best hits at most.
pub(crate) fn check_offset(offset: u32) -> Result<usize, StoreError> {
    if offset >= MAX_CANDIDATES {
        return Err(StoreError::Invalid(format!(
            "a search pages through its best {MAX_CANDIDATES} hits: offset {offset} is past them"
        )));
    }
    Ok(offset as usize)
}

/// The most matches a search ranks and counts: the newest ones, in current threads. A word in
/// most of 100,000 messages would otherwise cost a rank and a thread lookup for each of them
/// (seconds, not milliseconds); what a person looks for is on the first page of the best of
/// the newest thousand, and past that a count says little more than "many".
pub const MAX_CANDIDATES: u32 = 1_000;

/// The candidates one search keeps: the cap and the one past it, which says "more".
pub(crate) const CANDIDATES_READ: i64 = MAX_CANDIDATES as i64 + 1;

impl SearchResults {
    /// The page and a count of up to [`MAX_CANDIDATES`] + 1 matches.
    pub(crate) fn counted(hits: Vec<SearchHit>, counted: u64) -> SearchResults {
        let (total, more) = capped(counted);
        SearchResults { hits, total, more }
    }
}

impl HistoryResults {
    /// The page from `offset` and a count of up to [`MAX_CANDIDATES`] + 1 matches.
    pub(crate) fn counted(hits: Vec<HistoryHit>, offset: usize, counted: u64) -> HistoryResults {
        let (total, more) = capped(counted);
        HistoryResults {
            hits,
            offset: offset as u64,
            total,
            more,
        }
    }
}

/// A count of up to [`MAX_CANDIDATES`] + 1 matches as `(total, more)`.
fn capped(counted: u64) -> (u64, bool) {
    let cap = u64::from(MAX_CANDIDATES);
    (counted.min(cap), counted > cap)
}

/// `query` in FTS5 syntax: each term a string of its index terms (a phrase when there are
/// several), the terms ANDed. Index terms hold no `"`, so nothing in them is syntax.
pub(crate) fn fts5_query(query: &SearchQuery) -> String {
    query
        .index_terms()
        .iter()
        .map(|t| format!("\"{}\"", t.join(" ")))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A lexeme quoted for a `tsvector` or `tsquery` literal.
fn pg_lexeme(term: &str) -> String {
    let mut out = String::with_capacity(term.len() + 2);
    push_lexeme(&mut out, term);
    out
}

/// [`pg_lexeme`] onto `out`.
fn push_lexeme(out: &mut String, term: &str) {
    out.push('\'');
    for c in term.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("''"),
            c => out.push(c),
        }
    }
    out.push('\'');
}

/// Words so common that a phrase of them (`"should be"`, `"it is not"`) matches a few of the
/// many messages holding them all: PostgreSQL, whose index has no positions, would read each of
/// those messages' terms to check the order (26,840 rows for 459 phrases in the bench). Each
/// adjacent pair of them is indexed there as one more lexeme, `"should be"` (a space: never in
/// a term), which a phrase query then asks for as well: the index finds the phrase's messages,
/// and the order is checked on those alone. SQLite's index has positions and needs none.
const PAIRED_WORDS: &[&str] = &[
    "a", "about", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been",
    "before", "both", "but", "by", "can", "could", "did", "do", "does", "for", "from", "had",
    "has", "have", "he", "her", "here", "his", "how", "i", "if", "in", "into", "is", "it", "its",
    "just", "may", "me", "more", "must", "my", "no", "not", "now", "of", "on", "one", "only", "or",
    "our", "out", "she", "should", "so", "some", "than", "that", "the", "their", "them", "then",
    "there", "these", "they", "this", "to", "up", "us", "was", "we", "were", "what", "when",
    "where", "which", "who", "why", "will", "with", "would", "you", "your",
];

/// [`PAIRED_WORDS`] as terms.
static PAIRED_TERMS: LazyLock<HashSet<String>> =
    LazyLock::new(|| PAIRED_WORDS.iter().map(|w| term(w)).collect());

/// The pair lexeme of two adjacent terms, when both are [`PAIRED_WORDS`].
fn pair(first: &str, second: &str) -> Option<String> {
    (PAIRED_TERMS.contains(first) && PAIRED_TERMS.contains(second))
        .then(|| format!("{first} {second}"))
}

/// What PostgreSQL's `messages.search_terms` holds of a text's `terms`: a `tsvector` literal,
/// each term with its positions (from 1, as `tsvector` counts), and the pairs of
/// [`PAIRED_WORDS`] without positions.
pub(crate) fn tsvector_literal(terms: &IndexedTerms) -> String {
    let terms: Vec<Option<&str>> = terms.iter().collect();
    let mut pairs: BTreeSet<String> = BTreeSet::new();
    // Positions (from 1) sorted by term, each term's in order: the lexemes as `tsvector`
    // writes them.
    let mut positions: Vec<(&str, usize)> = Vec::with_capacity(terms.len());
    for (i, term) in terms.iter().enumerate() {
        let Some(term) = *term else { continue };
        positions.push((term, i + 1));
        if let Some(Some(next)) = terms.get(i + 1) {
            pairs.extend(pair(term, next));
        }
    }
    positions.sort_by(|a, b| a.0.cmp(b.0));
    let mut out = String::with_capacity(terms.len() * 10);
    let mut last: Option<&str> = None;
    for (term, position) in positions {
        if last == Some(term) {
            out.push(',');
        } else {
            if last.is_some() {
                out.push(' ');
            }
            push_lexeme(&mut out, term);
            out.push(':');
            last = Some(term);
        }
        // Writing to a `String` cannot fail.
        let _ = write!(out, "{position}");
    }
    for pair in pairs {
        out.push(' ');
        push_lexeme(&mut out, &pair);
    }
    out
}

/// [`tsvector_literal`]'s value in PostgreSQL's binary form (what `tsvectorrecv` reads), so
/// that an insert binds it as a `tsvector` and the server has no text to parse: parsing the
/// literals (`tsvectorin`) was about a third of the server's CPU in a PostgreSQL import. The
/// lexemes in byte order (as `tsvector` keeps them; the pairs among the terms), each once:
/// `u32` count, then each lexeme's bytes, a NUL, a `u16` count of positions and the positions
/// (`u16`, weight 0), big-endian. The rule keeps what the text form would have made of the
/// same terms: at most [`MAX_TERM_POSITIONS`](squash_core::search::tokens::MAX_TERM_POSITIONS)
/// positions a term and positions up to
/// [`MAX_INDEXED_TOKENS`](squash_core::search::tokens::MAX_INDEXED_TOKENS) (16,383, the
/// largest a `tsvector` holds), each term's increasing.
pub(crate) fn tsvector_binary(terms: &IndexedTerms) -> Vec<u8> {
    let terms: Vec<Option<&str>> = terms.iter().collect();
    let mut pairs: BTreeSet<String> = BTreeSet::new();
    let mut positions: Vec<(&str, u16)> = Vec::with_capacity(terms.len());
    for (i, term) in terms.iter().enumerate() {
        let Some(term) = *term else { continue };
        // The rule makes at most 16,383 positions: `u16` holds them all.
        positions.push((term, u16::try_from(i + 1).unwrap_or(u16::MAX)));
        if let Some(Some(next)) = terms.get(i + 1) {
            pairs.extend(pair(term, next));
        }
    }
    // Stable: each term's positions stay in order.
    positions.sort_by(|a, b| a.0.cmp(b.0));
    let mut out: Vec<u8> = Vec::with_capacity(4 + positions.len() * 12);
    out.extend_from_slice(&[0; 4]);
    let mut count: u32 = 0;
    let mut pairs = pairs.iter().peekable();
    let mut rest = positions.as_slice();
    while let Some(&(term, _)) = rest.first() {
        let same = rest.iter().take_while(|(t, _)| *t == term).count();
        while let Some(pair) = pairs.next_if(|p| p.as_str() < term) {
            push_binary_lexeme(&mut out, pair, &[]);
            count += 1;
        }
        push_binary_lexeme(&mut out, term, &rest[..same]);
        count += 1;
        rest = &rest[same..];
    }
    for pair in pairs {
        push_binary_lexeme(&mut out, pair, &[]);
        count += 1;
    }
    out[..4].copy_from_slice(&count.to_be_bytes());
    out
}

/// One lexeme of [`tsvector_binary`] onto `out`, with the positions of `at`.
fn push_binary_lexeme(out: &mut Vec<u8>, lexeme: &str, at: &[(&str, u16)]) {
    out.extend_from_slice(lexeme.as_bytes());
    out.push(0);
    // At most `MAX_TERM_POSITIONS` (256) a term.
    out.extend_from_slice(&u16::try_from(at.len()).unwrap_or(u16::MAX).to_be_bytes());
    for (_, position) in at {
        out.extend_from_slice(&position.to_be_bytes());
    }
}

/// `query` as a `tsquery` literal: each term's index terms joined by `<->` (consecutive), and
/// its pairs of [`PAIRED_WORDS`] as lexemes of their own; the terms joined by `&`.
pub(crate) fn tsquery_literal(query: &SearchQuery) -> String {
    query
        .index_terms()
        .iter()
        .map(|t| {
            let phrase: Vec<String> = t.iter().map(|w| pg_lexeme(w)).collect();
            let pairs = t.windows(2).filter_map(|w| pair(&w[0], &w[1]));
            let mut parts = vec![format!("({})", phrase.join(" <-> "))];
            parts.extend(pairs.map(|p| pg_lexeme(&p)));
            format!("({})", parts.join(" & "))
        })
        .collect::<Vec<_>>()
        .join(" & ")
}

/// The snippet of a hit whose searchable text is `text` (NULL only before the fill).
pub(crate) fn hit_snippet(text: Option<&str>, query: &SearchQuery) -> Vec<SnippetPart> {
    text.map(|t| snippet(t, query)).unwrap_or_default()
}

/// An operation named by the id and kind columns of a row that a LEFT JOIN may leave NULL.
pub(crate) fn operation_ref(
    id: Option<uuid::Uuid>,
    kind: Option<String>,
    recall_ref: Option<i64>,
) -> Result<Option<OperationRef>, StoreError> {
    let (Some(id), Some(kind)) = (id, kind) else {
        return Ok(None);
    };
    Ok(Some(OperationRef {
        id: id.into(),
        kind: KindTag::parse(&kind)
            .ok_or_else(|| StoreError::Corrupt(format!("operation kind {kind:?}")))?,
        recall_ref: crate::provenance::recall_ref(recall_ref)?,
    }))
}

/// A hit's role column.
pub(crate) fn hit_role(role: &str) -> Result<Role, StoreError> {
    Role::parse(role).ok_or_else(|| StoreError::Corrupt(format!("message role {role:?}")))
}

/// The page `offset..offset + limit` of candidates `(key, rank)` ranked best first (rank,
/// then the newer), and how many candidates there were: what both backends page from.
pub(crate) fn page_of(
    mut candidates: Vec<(i64, f64)>,
    offset: usize,
    limit: i64,
) -> (Vec<(i64, f64)>, u64) {
    candidates.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0)));
    let counted = candidates.len() as u64;
    // The candidate past the cap only says "more"; it is never shown.
    candidates.truncate(MAX_CANDIDATES as usize);
    let page = candidates
        .into_iter()
        .skip(offset)
        .take(usize::try_from(limit).unwrap_or(0))
        .collect();
    (page, counted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_terms_for_each_engine() {
        let q = SearchQuery::parse(r#"Failing "src/lexer.rs" NEAR(x"#).expect("query");
        assert_eq!(fts5_query(&q), r#""fail" "src lexer rs" "near x""#);
        assert_eq!(
            tsquery_literal(&q),
            "(('fail')) & (('src' <-> 'lexer' <-> 'rs')) & (('near' <-> 'x'))"
        );
        assert_eq!(
            tsvector_literal(&IndexedTerms::of("a cat, a hat")),
            "'a':1,3 'cat':2 'hat':4"
        );
        // Common words in a row are a lexeme too, in the index and in a phrase.
        assert_eq!(
            tsvector_literal(&IndexedTerms::of("it should be the end")),
            "'be':3 'end':5 'it':1 'should':2 'the':4 'be the' 'it should' 'should be'"
        );
        let q = SearchQuery::parse(r#""should be the end""#).expect("query");
        assert_eq!(
            tsquery_literal(&q),
            "(('should' <-> 'be' <-> 'the' <-> 'end') & 'should be' & 'be the')"
        );
        assert_eq!(IndexedTerms::of("The cat").document(), "the cat");
    }

    /// [`tsvector_literal`] as written before it made its terms in one pass: a map of each
    /// term's positions, each lexeme quoted on its own.
    fn tsvector_literal_unoptimized(text: &str) -> String {
        use squash_core::search::tokens::indexed_terms;
        use std::collections::BTreeMap;
        let terms = indexed_terms(text);
        let mut positions: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        let mut pairs: BTreeSet<String> = BTreeSet::new();
        for (at, term) in terms.iter().enumerate() {
            let Some(term) = term else { continue };
            positions.entry(term).or_default().push(at + 1);
            if let Some(Some(next)) = terms.get(at + 1) {
                pairs.extend(pair(term, next));
            }
        }
        let mut lexemes: Vec<String> = positions
            .into_iter()
            .map(|(term, at)| {
                let at: Vec<String> = at.iter().map(usize::to_string).collect();
                format!("{}:{}", pg_lexeme(term), at.join(","))
            })
            .collect();
        lexemes.extend(pairs.iter().map(|p| pg_lexeme(p)));
        lexemes.join(" ")
    }

    /// [`tsvector_binary`] read back as a literal: each lexeme quoted, its positions after a
    /// colon, in the order sent.
    fn binary_as_literal(binary: &[u8]) -> (u32, Vec<String>) {
        let count = u32::from_be_bytes(binary[..4].try_into().expect("count"));
        let mut rest = &binary[4..];
        let mut lexemes = Vec::new();
        while !rest.is_empty() {
            let nul = rest.iter().position(|b| *b == 0).expect("NUL");
            let lexeme = std::str::from_utf8(&rest[..nul]).expect("UTF-8");
            let npos = usize::from(u16::from_be_bytes([rest[nul + 1], rest[nul + 2]]));
            let at: Vec<String> = (0..npos)
                .map(|k| {
                    let i = nul + 3 + 2 * k;
                    u16::from_be_bytes([rest[i], rest[i + 1]]).to_string()
                })
                .collect();
            lexemes.push(if at.is_empty() {
                pg_lexeme(lexeme)
            } else {
                format!("{}:{}", pg_lexeme(lexeme), at.join(","))
            });
            rest = &rest[nul + 3 + 2 * npos..];
        }
        (count, lexemes)
    }

    #[test]
    fn the_binary_tsvector_holds_the_literal_s_lexemes_in_order() {
        let many: String = (0..17_000).map(|i| format!("w{} ", i % 5_000)).collect();
        let texts = [
            "a cat, a hat",
            "it should be the end, and it should be",
            "O'Brien said it's a back\\slash",
            "Café cafe\u{301} CAFÉ zebra apple Zebra 42 7 42",
            "",
            many.as_str(),
        ];
        for text in texts {
            let terms = IndexedTerms::of(text);
            let (count, lexemes) = binary_as_literal(&tsvector_binary(&terms));
            assert_eq!(count as usize, lexemes.len(), "{text}");
            let bare: Vec<&str> = lexemes
                .iter()
                .map(|l| l.rsplit_once("':").map_or(l.as_str(), |(b, _)| b))
                .collect();
            // Byte order, each lexeme once: what `tsvectorrecv` takes without sorting.
            assert!(bare.windows(2).all(|w| w[0] < w[1]), "{text}: {bare:?}");
            let mut literal: Vec<&str> = Vec::new();
            let written = tsvector_literal(&terms);
            if !written.is_empty() {
                // Lexemes hold no space but the pairs' one, inside their quotes.
                let mut start = 0;
                let mut quoted = false;
                for (i, c) in written.char_indices() {
                    match c {
                        '\'' => quoted = !quoted,
                        ' ' if !quoted => {
                            literal.push(&written[start..i]);
                            start = i + 1;
                        }
                        _ => {}
                    }
                }
                literal.push(&written[start..]);
            }
            let mut sent: Vec<&str> = lexemes.iter().map(String::as_str).collect();
            sent.sort_unstable();
            literal.sort_unstable();
            assert_eq!(sent, literal, "{text}");
        }
    }

    #[test]
    fn the_tsvector_is_the_one_written_before() {
        let repeated = "it is the end of the line. ".repeat(60);
        for text in [
            "a cat, a hat",
            "it should be the end",
            "O'Brien said \\'quoted\\' it's a back\\slash",
            "Café cafe\u{301} CAFÉ zebra apple Zebra 42 7 42",
            "",
            "   ",
            repeated.as_str(),
        ] {
            assert_eq!(
                tsvector_literal(&IndexedTerms::of(text)),
                tsvector_literal_unoptimized(text),
                "{text}"
            );
        }
    }
}
