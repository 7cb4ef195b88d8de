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

/// The terms of a clause of prose that a note of a conversation must keep, lower case (salient
/// terms first, then words in the order they appear): its strong terms (salient terms, numbers,
/// and names — capitalised words, except as the first word of a sentence: `opens_sentence`),
/// and its long words (hyphenated, or seven letters or more, not filler), which matter where a
/// sentence has no strong term ("the borrow checker", "eventual consistency").
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ProseTerms {
    pub strong: Vec<String>,
    pub long: Vec<String>,
}

impl ProseTerms {
    pub(crate) fn of(clause: &str, opens_sentence: bool) -> ProseTerms {
        let lower = clause.to_lowercase();
        // A normalised spelling (`3,214` → `3214`) is not what the clause says; its words are.
        let mut terms = ProseTerms {
            strong: in_text_order(&salient_terms(clause), clause)
                .into_iter()
                .filter(|t| is_useful_anchor(t))
                .map(|t| t.to_lowercase())
                .filter(|t| lower.contains(t.as_str()))
                .collect(),
            long: Vec::new(),
        };
        for (first, word) in words_with_opening(clause) {
            let Some(strength) = word_strength(word, first && opens_sentence) else {
                continue;
            };
            let lower = word.to_lowercase();
            if terms.all().any(|t| t.contains(&lower)) {
                continue;
            }
            match strength {
                Strength::Strong => terms.strong.push(lower),
                Strength::Long => terms.long.push(lower),
            }
        }
        terms
    }

    pub(crate) fn all(&self) -> impl Iterator<Item = &String> {
        self.strong.iter().chain(&self.long)
    }
}

/// Whether a sentence has a word [`ProseTerms`] would keep beyond its salient terms.
pub(crate) fn has_prose_words(sentence: &str) -> bool {
    words_with_opening(sentence).any(|(first, w)| word_strength(w, first).is_some())
}

enum Strength {
    Strong,
    Long,
}

/// What a word of prose is to a note: a number (of two characters or more) or a name (not
/// `first` of a sentence), a long word, or nothing of its own.
fn word_strength(word: &str, first: bool) -> Option<Strength> {
    let letters = word.chars().filter(|c| c.is_alphabetic()).count();
    let name = word.chars().next().is_some_and(char::is_uppercase) && letters >= 3 && !first;
    // A lone digit ("step 1", "Message 2:") is a count of the text's own, not a fact.
    let number = word.chars().any(|c| c.is_ascii_digit()) && word.chars().count() >= 2;
    if name || number {
        return Some(Strength::Strong);
    }
    let long = (word.contains('-') && letters >= 5)
        || (letters >= 7 && !FILLER.contains(&word.to_lowercase().as_str()));
    long.then_some(Strength::Long)
}

/// The words of a clause, without the punctuation around them.
fn prose_words(clause: &str) -> impl Iterator<Item = &str> {
    clause
        .split(|c: char| !(c.is_alphanumeric() || matches!(c, '-' | '\'' | '%' | '.' | ',')))
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '%'))
        .filter(|w| !w.is_empty())
}

/// The words of a clause, each with whether it is the first word of the clause's prose: a
/// list item's number ("1) Using …", "2. Logging …") comes before it, so that the capital
/// after the number opens the sentence rather than naming something.
fn words_with_opening(clause: &str) -> impl Iterator<Item = (bool, &str)> {
    let mut opened = false;
    prose_words(clause).map(move |w| {
        let first = !opened;
        opened |= w.chars().any(char::is_alphabetic);
        (first, w)
    })
}

/// Long words that carry nothing of a conversation's own.
const FILLER: &[&str] = &[
    "absolutely",
    "actually",
    "already",
    "another",
    "anything",
    "basically",
    "because",
    "certainly",
    "clearly",
    "completely",
    "definitely",
    "especially",
    "essentially",
    "everyone",
    "everything",
    "exactly",
    "example",
    "frankly",
    "generally",
    "honestly",
    "hopefully",
    "however",
    "important",
    "instead",
    "literally",
    "naturally",
    "obviously",
    "perhaps",
    "personally",
    "possible",
    "probably",
    "question",
    "questions",
    "really",
    "seriously",
    "something",
    "sometimes",
    "through",
    "typically",
    "usually",
    "whether",
    "without",
];

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
    fn prose_terms_are_numbers_and_names_then_long_words() {
        let terms = ProseTerms::of(
            "Python's garbage collector keeps 12 objects, really 1",
            false,
        );
        assert_eq!(terms.strong, vec!["12", "python's"]);
        assert_eq!(terms.long, vec!["garbage", "collector", "objects"]);
        // The first word of a sentence is capitalised for the sentence, not as a name.
        assert_eq!(
            ProseTerms::of("Sydney is large", true),
            ProseTerms::default()
        );
        assert_eq!(
            ProseTerms::of("the low base-rate", false).long,
            vec!["base-rate"]
        );
    }

    #[test]
    fn content_words_prefer_long_uncommon_words() {
        assert_eq!(
            content_words("Please refactor the authentication middleware", 2),
            vec!["authentication", "middleware"]
        );
    }
}
