//! The terms a fact is checked by, its anchors: the salient terms of its text, or for a fact
//! without any, its content words.

use crate::terms::{in_text_order, salient_terms};

/// The salient terms of `text` (paths, identifiers, numbers, codes, URLs), at most `max`, in
/// the order they appear.
pub(crate) fn anchors_of(text: &str, max: usize) -> Vec<String> {
    in_text_order(&salient_terms(text), text)
        .into_iter()
        .filter(|t| is_useful_anchor(t))
        .take(max)
        .collect()
}

/// Single digits, line references and bare years carry no fact of their own.
fn is_useful_anchor(term: &str) -> bool {
    let t = term.trim();
    if t.chars().count() < 2 {
        return false;
    }
    !(t.starts_with("L") && t[1..].chars().all(|c| c.is_ascii_digit()))
}

/// Content words of a text (letters only, at least 5 long, not common English), for facts that
/// have no salient term: they stand for the fact when checking a summary.
pub(crate) fn content_words(text: &str, max: usize) -> Vec<String> {
    const COMMON: &[&str] = &[
        "about",
        "after",
        "again",
        "could",
        "would",
        "should",
        "there",
        "their",
        "these",
        "those",
        "which",
        "while",
        "where",
        "please",
        "thanks",
        "thank",
        "something",
        "anything",
        "being",
        "every",
        "other",
        "first",
        "still",
        "before",
        "because",
        "since",
        "maybe",
        "think",
        "right",
        "using",
        "might",
        "make",
        "doesn",
        "didn",
        "haven",
        "isn't",
        "can't",
        "won't",
    ];
    let mut words: Vec<String> = Vec::new();
    for w in text.split(|c: char| !c.is_alphabetic() && c != '\'') {
        let lower = w.to_lowercase();
        if lower.chars().count() >= 5
            && !COMMON.contains(&lower.as_str())
            && !words.contains(&lower)
        {
            words.push(lower);
        }
    }
    // The longest words are the most specific.
    words.sort_by_key(|w| std::cmp::Reverse(w.chars().count()));
    words.truncate(max);
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_words_prefer_long_uncommon_words() {
        assert_eq!(
            content_words("Please refactor the authentication middleware", 2),
            vec!["authentication", "middleware"]
        );
    }
}
