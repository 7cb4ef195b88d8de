//! The one rule of what a word is to search, run in Rust for both backends: each store indexes
//! the terms this module makes and looks up the terms it makes of a query, so SQLite and
//! PostgreSQL find the same messages for the same query whatever the server's locale, parser
//! or dictionaries (PostgreSQL's `english` configuration dropped stop words, kept `café` apart
//! from `cafe`, dropped `<div>`, and joined `well-known` into a token of its own; FTS5's
//! `porter unicode61` did none of that).
//!
//! - A **token** is a run of letters and digits (Unicode's; combining accents belong to the
//!   letter before them). Everything else separates: `src/lexer.rs:42` is `src`, `lexer`,
//!   `rs`, `42`, and `foo_bar` is `foo`, `bar`.
//! - Its **term** is the token lower-cased with its accents removed (`Café` is `cafe`), then,
//!   when it is made of ASCII letters, stemmed by the Snowball English stemmer (`failing`,
//!   `fails` and `failed` are `fail`). No stop words: `the` is a term like any other.
//! - A message's **indexed terms** are its first [`MAX_INDEXED_TOKENS`] tokens, each at its
//!   position; a term's occurrences past its first [`MAX_TERM_POSITIONS`] keep their position
//!   but no term (a phrase cannot match there). Both numbers are PostgreSQL's `tsvector` limits
//!   (positions up to 16,383, at most 256 per lexeme), applied on both backends so that phrases
//!   match alike.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::LazyLock;

use rust_stemmers::{Algorithm, Stemmer};
use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

/// The most tokens of one message that are indexed: PostgreSQL's highest `tsvector` position.
pub const MAX_INDEXED_TOKENS: usize = 16_383;
/// The most positions of one term in one message: PostgreSQL keeps 256 per lexeme.
pub const MAX_TERM_POSITIONS: usize = 256;
/// The longest term, in bytes; a longer token (a hash, a blob) is cut to it, in the index as
/// in a query, so it still matches on its start.
pub const MAX_TERM_BYTES: usize = 120;

static STEMMER: LazyLock<Stemmer> = LazyLock::new(|| Stemmer::create(Algorithm::English));

/// A token of a text: its byte range and its term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub start: usize,
    pub end: usize,
    pub term: String,
}

fn is_token_char(c: char) -> bool {
    c.is_alphanumeric() || is_combining_mark(c)
}

/// The byte ranges of the tokens of `text`, in order.
pub fn token_spans(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let bytes = text.as_bytes();
    // The character at byte `i` (a boundary) and its length, for the bytes that are not ASCII.
    let char_at = move |i: usize| -> (char, usize) {
        text[i..]
            .chars()
            .next()
            .map_or(('\0', 1), |c| (c, c.len_utf8()))
    };
    let mut at = 0;
    // Runs of ASCII bytes are scanned byte by byte, without decoding: most of what a store
    // indexes is ASCII.
    std::iter::from_fn(move || {
        // A token starts with a letter or digit, never with a stray accent.
        loop {
            while at < bytes.len() && bytes[at].is_ascii() && !bytes[at].is_ascii_alphanumeric() {
                at += 1;
            }
            if at >= bytes.len() {
                return None;
            }
            if bytes[at].is_ascii() {
                break;
            }
            let (c, len) = char_at(at);
            if c.is_alphanumeric() {
                break;
            }
            at += len;
        }
        let start = at;
        loop {
            while at < bytes.len() && bytes[at].is_ascii_alphanumeric() {
                at += 1;
            }
            if at >= bytes.len() || bytes[at].is_ascii() {
                break;
            }
            let (c, len) = char_at(at);
            if !is_token_char(c) {
                break;
            }
            at += len;
        }
        Some((start, at))
    })
}

/// The tokens of `text` with their terms, in order.
pub fn tokens(text: &str) -> impl Iterator<Item = Token> + '_ {
    token_spans(text).map(|(start, end)| Token {
        start,
        end,
        term: term(&text[start..end]),
    })
}

/// The token `word` lower-cased, without its accents (the combining marks of U+0300–U+036F
/// that canonical decomposition splits off), stemmed when it is ASCII letters, cut to
/// [`MAX_TERM_BYTES`].
pub fn term(word: &str) -> String {
    term_in(word, &mut String::new(), &mut String::new()).to_owned()
}

/// [`term`] of `word`, made in the two buffers given (reused from token to token).
fn term_in<'a>(word: &str, folded: &'a mut String, stemmed: &'a mut String) -> &'a str {
    fold_into(word, folded);
    // Only words of ASCII letters are stemmed (the stemmer is English's).
    if folded.bytes().all(|b| b.is_ascii_lowercase()) {
        stem_into(folded, stemmed);
        cut(stemmed)
    } else {
        cut(folded)
    }
}

/// A map keyed by words or terms, owned or borrowed: foldhash, seeded per process, hashes a
/// short word several times faster than the standard SipHash, and the maps here see every
/// token of every message a store writes.
type WordMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// The most stems one thread remembers before it starts again (about 1.5 MB at most: a
/// server indexes on each of its worker threads).
const STEMS_REMEMBERED: usize = 1 << 14;
/// The longest word whose stem is remembered (longer ones are rare: hashes, identifiers).
const STEM_REMEMBERED_BYTES: usize = 32;

thread_local! {
    /// The stems of the words this thread stemmed last: a session repeats its words, and the
    /// Snowball stemmer was a fifth of an import's time.
    static STEMS: RefCell<WordMap<String, String>> = RefCell::new(WordMap::default());
}

/// What a backend indexes of `text`: a term (or `None`, a position that matches nothing) per
/// position from 0, at most [`MAX_INDEXED_TOKENS`] of them.
pub fn indexed_terms(text: &str) -> Vec<Option<String>> {
    let mut out = Vec::new();
    for_each_indexed_term(text, |term| out.push(term.map(str::to_owned)));
    out
}

/// Calls `each` with what [`indexed_terms`] holds, position by position, without a `String`
/// per token: a store indexes every message it writes, and three allocations a token were a
/// third of an import's time. A message repeats its words, so each distinct token is folded
/// and stemmed once and found again by its own text, borrowed.
pub fn for_each_indexed_term(text: &str, mut each: impl FnMut(Option<&str>)) {
    // Each distinct term once, with how often it came; a token's term by the token.
    let mut terms: Vec<(Rc<str>, usize)> = Vec::new();
    let mut term_at: WordMap<Rc<str>, usize> = WordMap::default();
    let mut token_at: WordMap<&str, usize> = WordMap::default();
    let mut folded = String::new();
    let mut stemmed = String::new();
    for (start, end) in token_spans(text).take(MAX_INDEXED_TOKENS) {
        let token = &text[start..end];
        let at = match token_at.get(token) {
            Some(&at) => at,
            None => {
                let term = term_in(token, &mut folded, &mut stemmed);
                let at = match term_at.get(term) {
                    Some(&at) => at,
                    None => {
                        let term: Rc<str> = Rc::from(term);
                        term_at.insert(Rc::clone(&term), terms.len());
                        terms.push((term, 0));
                        terms.len() - 1
                    }
                };
                token_at.insert(token, at);
                at
            }
        };
        let (term, count) = &mut terms[at];
        *count += 1;
        each((*count <= MAX_TERM_POSITIONS).then_some(&**term));
    }
}

/// `word` lower-cased without its accents, into `out` (as [`term`] folds it).
fn fold_into(word: &str, out: &mut String) {
    out.clear();
    if word.is_ascii() {
        // ASCII has no accents to fold (the Unicode decomposition was a tenth of an import).
        out.push_str(word);
        out.make_ascii_lowercase();
    } else {
        out.extend(
            word.chars()
                .flat_map(char::to_lowercase)
                .nfd()
                .filter(|c| !('\u{300}'..='\u{36f}').contains(c))
                .nfc(),
        );
    }
}

/// The Snowball English stem of `word` (ASCII lower-case letters) into `out`; the stems of
/// short words are remembered.
fn stem_into(word: &str, out: &mut String) {
    out.clear();
    if word.len() > STEM_REMEMBERED_BYTES {
        out.push_str(&STEMMER.stem(word));
        return;
    }
    STEMS.with(|stems| {
        let mut stems = stems.borrow_mut();
        if let Some(stem) = stems.get(word) {
            out.push_str(stem);
            return;
        }
        let stem = STEMMER.stem(word).into_owned();
        out.push_str(&stem);
        if stems.len() >= STEMS_REMEMBERED {
            stems.clear();
        }
        stems.insert(word.to_owned(), stem);
    });
}

/// `term` cut to [`MAX_TERM_BYTES`] on a character boundary.
fn cut(term: &str) -> &str {
    if term.len() <= MAX_TERM_BYTES {
        return term;
    }
    let mut end = MAX_TERM_BYTES;
    while !term.is_char_boundary(end) {
        end -= 1;
    }
    &term[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(text: &str) -> Vec<String> {
        tokens(text).map(|t| t.term).collect()
    }

    #[test]
    fn splits_on_everything_but_letters_and_digits() {
        assert_eq!(
            terms("src/lexer.rs:42 foo_bar well-known <div>&amp; -42 E0308 ident15031"),
            [
                "src",
                "lexer",
                "rs",
                "42",
                "foo",
                "bar",
                "well",
                "known",
                "div",
                "amp",
                "42",
                "e0308",
                "ident15031"
            ]
        );
    }

    /// The rule as written before the ASCII path and the remembered stems: every word through
    /// the Unicode folding, every stem computed.
    fn term_unoptimized(word: &str) -> String {
        let folded: String = word
            .chars()
            .flat_map(char::to_lowercase)
            .nfd()
            .filter(|c| !('\u{300}'..='\u{36f}').contains(c))
            .nfc()
            .collect();
        let mut term = if folded.bytes().all(|b| b.is_ascii_lowercase()) {
            STEMMER.stem(&folded).into_owned()
        } else {
            folded
        };
        let mut end = MAX_TERM_BYTES.min(term.len());
        while !term.is_char_boundary(end) {
            end -= 1;
        }
        term.truncate(end);
        term
    }

    #[test]
    fn the_fast_paths_give_the_terms_of_the_rule() {
        let text = "Running RUNS ran runner's Cafe\u{301} café E0308 ident15031 TestFailed \
                    generalizations GENERALIZATIONS x y 42 failing Failing fails failed \
                    ÆSIR straße Ünïcödé connection connections relational";
        let long = "Abcdefghij".repeat(20);
        for word in text
            .split(' ')
            .chain([long.as_str()])
            .flat_map(|w| token_spans(w).map(move |(s, e)| &w[s..e]))
        {
            // Twice: computed, then remembered.
            assert_eq!(term(word), term_unoptimized(word), "{word}");
            assert_eq!(term(word), term_unoptimized(word), "{word} (remembered)");
        }
    }

    #[test]
    fn folds_case_and_accents_and_stems_english() {
        assert_eq!(
            terms("Café CAFÉ cafe\u{301} failing FAILED fails the"),
            ["cafe", "cafe", "cafe", "fail", "fail", "fail", "the"]
        );
        // Other scripts are folded, not stemmed; an accent splits off by decomposition only.
        assert_eq!(
            terms("ПРИВЕТ Привет мир Ёлка 東京タワー"),
            ["привет", "привет", "мир", "елка", "東京タワー"]
        );
    }

    #[test]
    fn spans_point_into_the_text() {
        let text = "«Ünïcode» and spaces";
        let words: Vec<&str> = token_spans(text).map(|(s, e)| &text[s..e]).collect();
        assert_eq!(words, ["Ünïcode", "and", "spaces"]);
    }

    #[test]
    fn long_tokens_are_cut_on_a_char_boundary() {
        let t = term(&"é".repeat(200));
        assert!(t.len() <= MAX_TERM_BYTES && t.len() > MAX_TERM_BYTES - 2);
    }

    /// The indexed terms as made before [`for_each_indexed_term`]: a term per token, counted
    /// in a map of owned terms.
    fn indexed_terms_unoptimized(text: &str) -> Vec<Option<String>> {
        let mut seen: HashMap<String, usize> = HashMap::new();
        token_spans(text)
            .take(MAX_INDEXED_TOKENS)
            .map(|(s, e)| {
                let term = term_unoptimized(&text[s..e]);
                let n = seen.entry(term.clone()).or_insert(0);
                *n += 1;
                (*n <= MAX_TERM_POSITIONS).then_some(term)
            })
            .collect()
    }

    #[test]
    fn indexed_terms_are_those_of_the_rule() {
        let long = "Abcdefghij".repeat(20);
        let accented = "é".repeat(200);
        let texts = [
            "Running RUNS ran runner's Cafe\u{301} café E0308 ident15031 TestFailed \
             generalizations GENERALIZATIONS x y 42 failing Failing fails failed",
            "ÆSIR straße Ünïcödé connection connections relational ПРИВЕТ Привет 東京タワー",
            long.as_str(),
            accented.as_str(),
            "src/lexer.rs:42 foo_bar well-known <div>&amp; -42 ",
            "",
        ];
        let repeated = "the cat ".repeat(MAX_TERM_POSITIONS + 5);
        // Three spellings of one term: their positions count together.
        let spellings = "the The THE failing failed ".repeat(MAX_TERM_POSITIONS / 2);
        for text in texts
            .iter()
            .copied()
            .chain([repeated.as_str(), spellings.as_str()])
        {
            // Twice: stems computed, then remembered.
            assert_eq!(
                indexed_terms(text),
                indexed_terms_unoptimized(text),
                "{text}"
            );
            assert_eq!(
                indexed_terms(text),
                indexed_terms_unoptimized(text),
                "{text}"
            );
        }
    }

    proptest::proptest! {
        /// Any text, of words that repeat in other cases and spellings (so that tokens share
        /// a term), accents alone and other scripts: the terms of the rule as first written.
        #[test]
        fn any_text_has_the_indexed_terms_of_the_rule(
            words in proptest::collection::vec(
                proptest::sample::select(vec![
                    "the", "The", "THE", "fail", "failed", "Failing", "café", "Cafe\u{301}",
                    "\u{301}", "ПРИВЕТ", "привет", "東京", "e0308", "42", "x", "ß", "İ",
                    "-", "_", " ", "\n", "<", "é", "\u{E002}",
                ]),
                0..400,
            )
        ) {
            let text: String = words.concat();
            proptest::prop_assert_eq!(indexed_terms(&text), indexed_terms_unoptimized(&text));
            let spans: Vec<(usize, usize)> = token_spans(&text).collect();
            proptest::prop_assert_eq!(spans, token_spans_unoptimized(&text));
        }
    }

    /// The spans as first written: every character decoded.
    fn token_spans_unoptimized(text: &str) -> Vec<(usize, usize)> {
        let mut chars = text.char_indices().peekable();
        std::iter::from_fn(move || {
            let (start, _) = chars.find(|(_, c)| c.is_alphanumeric())?;
            let mut end = text.len();
            while let Some(&(i, c)) = chars.peek() {
                if !(c.is_alphanumeric() || is_combining_mark(c)) {
                    end = i;
                    break;
                }
                chars.next();
            }
            Some((start, end))
        })
        .collect()
    }

    #[test]
    fn caps_positions_per_term_and_tokens_per_text() {
        let text = "the ".repeat(MAX_TERM_POSITIONS + 2) + "end";
        let indexed = indexed_terms(&text);
        assert_eq!(indexed.len(), MAX_TERM_POSITIONS + 3);
        assert_eq!(indexed[MAX_TERM_POSITIONS - 1].as_deref(), Some("the"));
        assert_eq!(indexed[MAX_TERM_POSITIONS], None);
        assert_eq!(indexed.last().cloned().flatten().as_deref(), Some("end"));
        let long: String = (0..MAX_INDEXED_TOKENS + 10)
            .map(|i| format!("w{i} "))
            .collect();
        assert_eq!(indexed_terms(&long).len(), MAX_INDEXED_TOKENS);
    }
}
