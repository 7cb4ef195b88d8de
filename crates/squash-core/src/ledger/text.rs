//! The terms a fact is checked by (its anchors), and the other small text helpers the fact
//! extractors share.

use crate::terms::{in_text_order, salient_terms};
use crate::text::one_line;

/// The first lines of an output a fact shows: its first `paths` lines whole when they are
/// paths (no spaces, a `/` or a `.`, at most 160 characters), else its first line shortened to
/// `chars`; and whether they were paths.
pub(crate) fn sample_lines(lines: &[&str], paths: usize, chars: usize) -> (Vec<String>, bool) {
    let are_paths = !lines.is_empty()
        && lines.iter().take(paths).all(|l| {
            !l.contains(char::is_whitespace) && l.contains(['/', '.']) && l.chars().count() <= 160
        });
    let sample = if are_paths {
        lines.iter().take(paths).map(|l| (*l).to_owned()).collect()
    } else {
        lines.iter().take(1).map(|l| one_line(l, chars)).collect()
    };
    (sample, are_paths)
}

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
