//! Full-text search, the parts both store backends share: the text of a message that is
//! indexed ([`searchable_text`], computed once, in Rust, and stored with the message), the
//! query a person types ([`SearchQuery`], parsed once and rendered for each engine so that user
//! input can never be a syntax error there), and the snippet a backend returns with its
//! matches marked ([`snippet_parts`]).

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::message::{ContentItem, Message, ToolResultData};

/// Opens a match inside a snippet a backend returns. A private-use character: stored text never
/// holds it ([`searchable_text`] removes it), so the marks cannot be forged by content and are
/// never confused with HTML.
pub const MARK_START: char = '\u{E000}';
/// Closes a match (see [`MARK_START`]).
pub const MARK_END: char = '\u{E001}';

/// The most text of one message that is indexed, in bytes. PostgreSQL refuses a `tsvector`
/// over 1 MB (the insert would fail); 200 KB of text stays far below it whatever its words,
/// and a tool output longer than that is a log whose head is what a person searches for.
pub const MAX_INDEXED_BYTES: usize = 200_000;

/// Characters PostgreSQL's text-search parser would join words with into one token (a path, a
/// host, an email, a version), turned into spaces in its index (migration 0006) and in
/// [`SearchQuery::to_websearch`], so that words match there as they do in SQLite FTS5.
pub const PG_WORD_BREAKS: &[char] = &['/', '.', ':', '@', '\\'];

/// The longest query accepted, in characters.
pub const MAX_QUERY_CHARS: usize = 500;
/// The most terms (words and phrases) in one query.
pub const MAX_QUERY_TERMS: usize = 32;

/// The text of `message` that search indexes: user and assistant text, each tool call's name
/// and input, tool results' text, system text. Thinking, images and unknown content are not
/// searched (they are not what a person reads in the thread). At most [`MAX_INDEXED_BYTES`].
pub fn searchable_text(message: &Message) -> String {
    searchable_content(&message.content)
}

/// [`searchable_text`] of a message's content, for rows read back from storage.
pub fn searchable_content(content: &[ContentItem]) -> String {
    let mut out = String::new();
    for item in content {
        let start = out.len();
        match item {
            ContentItem::UserMessage { text } => out.push_str(text),
            ContentItem::AssistantMessage { structured } => out.push_str(&structured.full_text),
            ContentItem::ToolCall { name, input, .. } => {
                out.push_str(name);
                push_json_leaves(&mut out, input);
            }
            ContentItem::ToolResult { result, .. } => {
                for data in result {
                    if let ToolResultData::Text { text } = data {
                        push_separated(&mut out, text);
                    }
                }
            }
            ContentItem::System { content, .. } => out.push_str(content),
            ContentItem::Thinking { .. }
            | ContentItem::Image { .. }
            | ContentItem::UnknownJson { .. } => {}
        }
        if out.len() > start {
            out.push_str("\n\n");
        }
        if out.len() >= MAX_INDEXED_BYTES {
            break;
        }
    }
    let mut text: String = out
        .trim_end()
        .chars()
        .filter(|c| *c != MARK_START && *c != MARK_END && *c != '\0')
        .collect();
    if text.len() > MAX_INDEXED_BYTES {
        let mut end = MAX_INDEXED_BYTES;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
    }
    text
}

fn push_separated(out: &mut String, text: &str) {
    if !out.is_empty() && !out.ends_with(char::is_whitespace) {
        out.push('\n');
    }
    out.push_str(text);
}

/// The string and number leaves of a tool input: the command, the path, the pattern — not the
/// JSON punctuation and key names around them, which every call of the tool shares.
fn push_json_leaves(out: &mut String, value: &serde_json::Value) {
    match value {
        serde_json::Value::String(s) => push_separated(out, s),
        serde_json::Value::Number(n) => push_separated(out, &n.to_string()),
        serde_json::Value::Array(items) => items.iter().for_each(|v| push_json_leaves(out, v)),
        serde_json::Value::Object(map) => map.values().for_each(|v| push_json_leaves(out, v)),
        serde_json::Value::Bool(_) | serde_json::Value::Null => {}
    }
}

/// Why a query was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SearchQueryError {
    #[error("the search query has no words to look for")]
    Empty,
    #[error("the search query is longer than {MAX_QUERY_CHARS} characters")]
    TooLong,
    #[error("the search query has more than {MAX_QUERY_TERMS} words and phrases")]
    TooManyTerms,
}

/// One thing a query looks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchTerm {
    /// A word (or a run like `foo_bar.rs`, which each engine splits into its own tokens).
    Word(String),
    /// Words that must appear in this order, written between double quotes.
    Phrase(String),
}

impl SearchTerm {
    fn text(&self) -> &str {
        match self {
            SearchTerm::Word(t) | SearchTerm::Phrase(t) => t,
        }
    }
}

/// A parsed query: plain words and `"quoted phrases"`, all of which a hit must contain. Nothing
/// else is syntax: `OR`, `-`, `*`, `:` and parentheses are text, so whatever a person types is
/// a valid query for both engines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchQuery {
    terms: Vec<SearchTerm>,
}

impl SearchQuery {
    pub fn parse(input: &str) -> Result<SearchQuery, SearchQueryError> {
        if input.chars().count() > MAX_QUERY_CHARS {
            return Err(SearchQueryError::TooLong);
        }
        let mut terms = Vec::new();
        let mut rest = input;
        loop {
            rest = rest.trim_start();
            let Some(first) = rest.chars().next() else {
                break;
            };
            let (text, phrase, after) = if first == '"' {
                let body = &rest[1..];
                match body.find('"') {
                    Some(end) => (&body[..end], true, &body[end + 1..]),
                    // An unclosed quote runs to the end, as a person means it.
                    None => (body, true, ""),
                }
            } else {
                let end = rest
                    .find(|c: char| c.is_whitespace() || c == '"')
                    .unwrap_or(rest.len());
                (&rest[..end], false, &rest[end..])
            };
            rest = after;
            let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
            // A term without a letter or digit is no token to either engine: an empty FTS5
            // phrase, an empty tsquery. Dropping it keeps `C++ "***"` meaning `C`.
            if !text.chars().any(char::is_alphanumeric) {
                continue;
            }
            let is_phrase = phrase && text.contains(' ');
            terms.push(if is_phrase {
                SearchTerm::Phrase(text)
            } else {
                SearchTerm::Word(text)
            });
        }
        if terms.is_empty() {
            return Err(SearchQueryError::Empty);
        }
        if terms.len() > MAX_QUERY_TERMS {
            return Err(SearchQueryError::TooManyTerms);
        }
        Ok(SearchQuery { terms })
    }

    pub fn terms(&self) -> &[SearchTerm] {
        &self.terms
    }

    /// The query in SQLite FTS5 syntax: each term a string (`"…"`, inner quotes doubled), which
    /// FTS5 reads as a phrase of its tokens and never as an operator; terms side by side are
    /// ANDed.
    pub fn to_fts5(&self) -> String {
        self.quoted()
    }

    /// The query for PostgreSQL's `websearch_to_tsquery`, which never raises a syntax error:
    /// each term quoted, so that `or` and a leading `-` stay words as they do in FTS5.
    pub fn to_websearch(&self) -> String {
        self.terms
            .iter()
            .map(|t| format!("\"{}\"", t.text().replace(PG_WORD_BREAKS, " ")))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn quoted(&self) -> String {
        self.terms
            .iter()
            .map(|t| format!("\"{}\"", t.text().replace('"', "\"\"")))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// A piece of a snippet: text, and whether it is a match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SnippetPart {
    pub text: String,
    pub hit: bool,
}

/// Splits a snippet whose matches a backend marked with [`MARK_START`] and [`MARK_END`] into
/// parts, joining neighbours of the same kind. Unbalanced marks are tolerated (a backend may
/// cut a snippet inside a match).
pub fn snippet_parts(marked: &str) -> Vec<SnippetPart> {
    let mut parts: Vec<SnippetPart> = Vec::new();
    let mut hit = false;
    let mut current = String::new();
    let flush = |parts: &mut Vec<SnippetPart>, text: &mut String, hit: bool| {
        if text.is_empty() {
            return;
        }
        match parts.last_mut() {
            Some(last) if last.hit == hit => last.text.push_str(text),
            _ => parts.push(SnippetPart {
                text: text.clone(),
                hit,
            }),
        }
        text.clear();
    };
    for c in marked.chars() {
        match c {
            MARK_START => {
                flush(&mut parts, &mut current, hit);
                hit = true;
            }
            MARK_END => {
                flush(&mut parts, &mut current, hit);
                hit = false;
            }
            c => current.push(c),
        }
    }
    flush(&mut parts, &mut current, hit);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::ConversationId;
    use crate::message::{Role, StructuredText};

    fn words(q: &str) -> Vec<SearchTerm> {
        SearchQuery::parse(q).map(|q| q.terms).unwrap_or_default()
    }

    #[test]
    fn parses_words_and_phrases() {
        assert_eq!(
            words(r#" cargo  "build failed"  OR -x "#),
            vec![
                SearchTerm::Word("cargo".into()),
                SearchTerm::Phrase("build failed".into()),
                SearchTerm::Word("OR".into()),
                SearchTerm::Word("-x".into()),
            ]
        );
        assert_eq!(
            words(r#"say "unclosed phrase"#),
            vec![
                SearchTerm::Word("say".into()),
                SearchTerm::Phrase("unclosed phrase".into())
            ]
        );
    }

    #[test]
    fn refuses_empty_and_oversized_queries() {
        assert_eq!(SearchQuery::parse("   "), Err(SearchQueryError::Empty));
        assert_eq!(
            SearchQuery::parse(r#""" *** ()"#),
            Err(SearchQueryError::Empty)
        );
        assert_eq!(
            SearchQuery::parse(&"a".repeat(MAX_QUERY_CHARS + 1)),
            Err(SearchQueryError::TooLong)
        );
        assert_eq!(
            SearchQuery::parse(&"a ".repeat(MAX_QUERY_TERMS + 1)),
            Err(SearchQueryError::TooManyTerms)
        );
    }

    #[test]
    fn renders_every_term_quoted() {
        let q = SearchQuery::parse(r#"NEAR(a "b c") x:y* -z"#).expect("query");
        assert_eq!(q.to_fts5(), r#""NEAR(a" "b c" "x:y*" "-z""#);
    }

    #[test]
    fn indexes_text_tool_names_inputs_and_results() {
        let conv = ConversationId::new();
        let mut m = Message::text(conv, Role::Assistant, "x").expect("message");
        m.content = vec![
            ContentItem::AssistantMessage {
                structured: StructuredText {
                    full_text: "Running the tests".into(),
                    ..Default::default()
                },
            },
            ContentItem::tool_call(
                "t1",
                "Bash",
                serde_json::json!({"command": "cargo test", "timeout": 60}),
            ),
            ContentItem::tool_result("t1", "Bash", format!("ok{MARK_START}"), false),
            ContentItem::Thinking {
                signature: String::new(),
                thinking: "secret plan".into(),
            },
        ];
        let text = searchable_text(&m);
        for part in ["Running the tests", "Bash", "cargo test", "60", "ok"] {
            assert!(text.contains(part), "{part} missing from {text:?}");
        }
        assert!(!text.contains("secret") && !text.contains("command"));
        assert!(!text.contains(MARK_START));
    }

    #[test]
    fn caps_indexed_text_on_a_char_boundary() {
        let m = Message::text(
            ConversationId::new(),
            Role::User,
            &"é".repeat(MAX_INDEXED_BYTES),
        )
        .expect("message");
        let text = searchable_text(&m);
        assert!(text.len() <= MAX_INDEXED_BYTES && text.len() > MAX_INDEXED_BYTES - 4);
    }

    #[test]
    fn splits_marked_snippets() {
        let marked = format!("a {MARK_START}b{MARK_END} c {MARK_START}d");
        assert_eq!(
            snippet_parts(&marked),
            vec![
                SnippetPart {
                    text: "a ".into(),
                    hit: false
                },
                SnippetPart {
                    text: "b".into(),
                    hit: true
                },
                SnippetPart {
                    text: " c ".into(),
                    hit: false
                },
                SnippetPart {
                    text: "d".into(),
                    hit: true
                },
            ]
        );
    }
}
