//! The excerpt a hit shows, made in Rust from the message's searchable text by the rule of
//! `tokens`, the same on both backends: the window of [`SNIPPET_WORDS`] tokens that holds the
//! most distinct query terms (the first such window), cut out of the text as it is written,
//! with the matching words as parts of their own.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use unicode_normalization::UnicodeNormalization;

use super::tokens::{term, token_spans, MAX_INDEXED_TOKENS};
use super::SearchQuery;

/// How many tokens a snippet spans.
pub const SNIPPET_WORDS: usize = 24;

/// What stands for text a snippet leaves out at either end.
const ELLIPSIS: &str = "…";

/// A piece of a snippet: text, and whether it is a match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SnippetPart {
    pub text: String,
    pub hit: bool,
}

/// A snippet on one line, for a terminal or a model: the matched words in `«…»`, white space
/// folded.
pub fn marked_line(parts: &[SnippetPart]) -> String {
    parts
        .iter()
        .map(|p| {
            if p.hit {
                format!("«{}»", p.text)
            } else {
                p.text.clone()
            }
        })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The snippet of `text` for `query`: plain text parts, never markup.
pub fn snippet(text: &str, query: &SearchQuery) -> Vec<SnippetPart> {
    let wanted: HashSet<&str> = query
        .index_terms()
        .iter()
        .flatten()
        .map(String::as_str)
        .collect();
    // Stemming is the cost: a token whose first letter starts no query term cannot be one
    // (folding and stemming keep the first letter, accents aside), so it is not stemmed.
    let firsts: HashSet<char> = wanted.iter().filter_map(|t| t.chars().next()).collect();
    // A word is stemmed once, however often it comes back.
    let mut seen: HashMap<&str, Option<&str>> = HashMap::new();
    let spans: Vec<(usize, usize, Option<&str>)> = token_spans(text)
        .take(MAX_INDEXED_TOKENS)
        .map(|(start, end)| {
            let word = &text[start..end];
            let hit = *seen.entry(word).or_insert_with(|| {
                let first = word.chars().flat_map(char::to_lowercase).nfd().next();
                first
                    .filter(|c| firsts.contains(c))
                    .map(|_| term(word))
                    .and_then(|t| wanted.get(t.as_str()).copied())
            });
            (start, end, hit)
        })
        .collect();
    if spans.is_empty() {
        return Vec::new();
    }
    let window = SNIPPET_WORDS.min(spans.len());
    let distinct = |from: usize| {
        spans[from..from + window]
            .iter()
            .filter_map(|s| s.2)
            .collect::<HashSet<_>>()
            .len()
    };
    // Only windows that start at a hit can hold more than the one before them.
    let best = (0..=spans.len() - window)
        .filter(|&i| i == 0 || spans[i].2.is_some())
        .max_by_key(|&i| (distinct(i), std::cmp::Reverse(i)))
        .unwrap_or(0);
    let shown = &spans[best..best + window];
    let mut parts: Vec<SnippetPart> = Vec::new();
    let mut push = |text: &str, hit: bool| match parts.last_mut() {
        Some(last) if last.hit == hit => last.text.push_str(text),
        _ if text.is_empty() => {}
        _ => parts.push(SnippetPart {
            text: text.to_owned(),
            hit,
        }),
    };
    let mut at = if best > 0 {
        push(ELLIPSIS, false);
        shown[0].0
    } else {
        text.len() - text.trim_start().len()
    };
    for &(start, end, hit) in shown {
        push(&text[at..start], false);
        push(&text[start..end], hit.is_some());
        at = end;
    }
    if best + window < spans.len() {
        push(ELLIPSIS, false);
    } else {
        push(text[at..].trim_end(), false);
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marked(text: &str, query: &str) -> String {
        let q = SearchQuery::parse(query).expect("query");
        snippet(text, &q)
            .into_iter()
            .map(|p| {
                if p.hit {
                    format!("[{}]", p.text)
                } else {
                    p.text
                }
            })
            .collect()
    }

    #[test]
    fn marks_the_words_that_match_by_their_terms() {
        assert_eq!(
            marked("The test FAILED in src/lexer.rs:42.", "fail lexer"),
            "The test [FAILED] in src/[lexer].rs:42."
        );
    }

    #[test]
    fn shows_the_window_with_the_most_query_terms() {
        let filler = "word ".repeat(40);
        let text = format!("needle {filler}needle and haystack together {filler}");
        assert_eq!(
            marked(&text, "needle haystack"),
            format!(
                "…[needle] and [haystack] together {}…",
                "word ".repeat(SNIPPET_WORDS - 4).trim_end()
            )
        );
    }

    #[test]
    fn a_short_text_is_shown_whole() {
        assert_eq!(marked("a b c", "b"), "a [b] c");
        assert!(marked("  ", "b").is_empty());
    }
}
