//! Full-text search, the parts both store backends share: the text of a message that is
//! indexed ([`searchable_text`], computed once, in Rust, and stored with the message), what a
//! word of it is to search ([`tokens`]: the one rule both backends index and query by), the
//! query a person types ([`SearchQuery`], parsed once into terms, so that user input can never
//! be a syntax error of an engine), and the excerpt a hit shows ([`snippet()`]).

mod snippet;
pub mod tokens;

use thiserror::Error;

use crate::message::{ContentItem, Message, ToolResultData};

pub use snippet::{marked_line, snippet, SnippetPart, SNIPPET_WORDS};

/// Private-use characters that searchable text never holds ([`searchable_text`] removes
/// them): the backends once marked matches with them, and text stored since keeps that shape.
pub const MARK_START: char = '\u{E000}';
/// See [`MARK_START`].
pub const MARK_END: char = '\u{E001}';

/// The most text of one message that is indexed, in bytes. PostgreSQL refuses a `tsvector`
/// over 1 MB (the insert would fail); 200 KB of text stays far below it whatever its words,
/// and a tool output longer than that is a log whose head is what a person searches for.
pub const MAX_INDEXED_BYTES: usize = 200_000;

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
    let unwanted = [MARK_START, MARK_END, '\0'];
    let mut text: String = if out.contains(unwanted) {
        out.trim_end()
            .chars()
            .filter(|c| !unwanted.contains(c))
            .collect()
    } else {
        // Most texts hold none: no second copy.
        out.truncate(out.trim_end().len());
        out
    };
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
/// else is syntax: `OR`, `-`, `*`, `:` and parentheses are text (`lex*` is the word `lex`, not
/// a prefix), so whatever a person types is a valid query for both engines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchQuery {
    terms: Vec<SearchTerm>,
    /// Each term's index terms ([`tokens`]), in order.
    index_terms: Vec<Vec<String>>,
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
            let text = crate::text::single_spaced(text);
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
        let index_terms = terms
            .iter()
            .map(|t| tokens::tokens(t.text()).map(|t| t.term).collect())
            .collect();
        Ok(SearchQuery { terms, index_terms })
    }

    pub fn terms(&self) -> &[SearchTerm] {
        &self.terms
    }

    /// What each term looks for in the index: its index terms ([`tokens`]), one for a word,
    /// several — consecutive, in this order — for a phrase or a word the rule splits
    /// (`src/lexer.rs`). Never empty: a term holds a letter or digit.
    pub fn index_terms(&self) -> &[Vec<String>] {
        &self.index_terms
    }

    /// The query without its term `i`, for a search that also shows what holds all terms but
    /// one; `None` when that would leave no term.
    pub fn without(&self, i: usize) -> Option<SearchQuery> {
        if self.terms.len() < 2 || i >= self.terms.len() {
            return None;
        }
        let mut q = self.clone();
        q.terms.remove(i);
        q.index_terms.remove(i);
        Some(q)
    }
}

impl SearchTerm {
    /// The term as the person typed it (a phrase without its quotes).
    pub fn as_typed(&self) -> &str {
        self.text()
    }
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
    fn drops_one_term_at_a_time() {
        let q = SearchQuery::parse(r#"commit "review page" gqc"#).unwrap();
        let rest = q.without(1).unwrap();
        assert_eq!(
            rest.terms(),
            &[
                SearchTerm::Word("commit".into()),
                SearchTerm::Word("gqc".into())
            ]
        );
        assert_eq!(
            rest.index_terms(),
            &[vec!["commit".to_owned()], vec!["gqc".to_owned()]]
        );
        assert_eq!(q.without(3), None);
        assert_eq!(SearchQuery::parse("alone").unwrap().without(0), None);
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
    fn terms_are_looked_up_by_the_index_rule() {
        let q = SearchQuery::parse(r#"Failing "src/lexer.rs" lex* "should be""#).expect("query");
        assert_eq!(
            q.index_terms(),
            [
                vec!["fail"],
                vec!["src", "lexer", "rs"],
                vec!["lex"],
                vec!["should", "be"]
            ]
        );
    }
}
