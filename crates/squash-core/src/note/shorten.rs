//! Shorter fact lines from a model that may only delete: the prose facts of a note (what was
//! asked, what was answered, decided, left open) are offered to the model line by line, and a
//! shortened line replaces its fact only when Squash can see that nothing but words went —
//! every word of it stands in the original in the same order (a few joining words aside),
//! every anchor, number and negation stayed, and no talk about the task came in. A line that
//! fails keeps its original text, so the note is never less faithful than the extract.

use super::lines::{fact_lines, NoteForm};
use super::meta::meta_phrases;
use crate::ledger::{check_facts, Fact, FactKind, Ledger};
use crate::tokens::estimate_tokens;

/// A note above this share of its selection, in percent, is worth shortening: the size a
/// person's own note of a conversation comes to.
pub const SHORTEN_ABOVE_PERCENT: u64 = 30;

/// A line of at most this many tokens has nothing to take out.
const WORTH_ASKING_TOKENS: u64 = 12;

/// The prefix a request's fact text carries; the model sees the request without it.
const REQUEST_PREFIX: &str = "User: ";

/// Words a shortened line may use that its original does not have: the glue of a terse note
/// ("moved to Thursday: room booked"). Never a negation: one added would turn a fact over.
const GLUE: &[&str] = &[
    "a", "an", "the", "and", "or", "of", "to", "in", "on", "at", "for", "with", "by", "from", "as",
    "is", "are", "was", "were", "be",
];

/// Words that turn a statement over: a shortened line keeps as many as its original has.
const NEGATIONS: &[&str] = &[
    "not",
    "never",
    "no",
    "none",
    "nothing",
    "nobody",
    "neither",
    "nor",
    "without",
    "cannot",
    "nicht",
    "kein",
    "keine",
    "nie",
    "не",
    "нет",
    "ни",
    "никогда",
];

/// The facts a model is offered to shorten: prose, not what tools did (a command's line, a
/// file's path and a fix's history are exact already).
pub fn offered(ledger: &Ledger) -> Vec<usize> {
    ledger
        .facts
        .iter()
        .enumerate()
        .filter(|(_, f)| {
            matches!(
                f.kind,
                FactKind::Request
                    | FactKind::Answer
                    | FactKind::Decision
                    | FactKind::OpenItem
                    | FactKind::Value
            )
        })
        .map(|(i, _)| i)
        .collect()
}

/// The lines the model reads for the facts `offered` names, in order: each fact's text, a
/// request without its "User: " prefix.
pub fn offered_lines(ledger: &Ledger, offered: &[usize]) -> Vec<String> {
    offered
        .iter()
        .map(|&i| {
            let text = &ledger.facts[i].text;
            text.strip_prefix(REQUEST_PREFIX).unwrap_or(text).to_owned()
        })
        .collect()
}

/// What came of one offered line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shortened {
    /// The model's line replaces the fact's text.
    Kept(String),
    /// The original stays, and why.
    Refused(Refusal),
}

/// Why a model's shorter line was not taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The answer has no line of that number.
    Missing,
    /// It is not shorter than the original.
    NotShorter,
    /// A word of it is not in the original, or not in the original's order.
    NewWords,
    /// It left out one of the fact's anchors or numbers.
    LostTerm,
    /// It has fewer negations than the original.
    LostNegation,
    /// It speaks about the task.
    Meta,
}

/// The numbered lines of a model's `answer` ("3. text" or "3) text"), by number (1-based).
pub fn numbered_lines(answer: &str) -> Vec<(usize, String)> {
    answer
        .lines()
        .filter_map(|line| {
            let line = line.trim().trim_start_matches(['-', '*']).trim_start();
            let (number, rest) = line.split_once(['.', ')'])?;
            let number: usize = number.trim().parse().ok()?;
            let rest = rest.trim();
            (!rest.is_empty()).then(|| (number, rest.to_owned()))
        })
        .collect()
}

/// Judges the model's `answer` to the offered lines of `ledger`'s facts `offered`: one outcome
/// per offered fact. `source` is the selection's text (for talk about the task).
pub fn judge(ledger: &Ledger, offered: &[usize], answer: &str, source: &str) -> Vec<Shortened> {
    let lines = numbered_lines(answer);
    let originals = offered_lines(ledger, offered);
    offered
        .iter()
        .zip(&originals)
        .enumerate()
        .map(|(n, (&i, original))| {
            // The first line of a number counts: a model that numbers twice repeats itself.
            match lines.iter().find(|(number, _)| *number == n + 1) {
                Some((_, line)) => judge_line(&ledger.facts[i], original, line, source),
                None => Shortened::Refused(Refusal::Missing),
            }
        })
        .collect()
}

fn judge_line(fact: &Fact, original: &str, line: &str, source: &str) -> Shortened {
    let line = line.trim();
    let refused = |why| Shortened::Refused(why);
    if estimate_tokens(line) >= estimate_tokens(original) {
        return refused(Refusal::NotShorter);
    }
    let original_words = words(original);
    let line_words = words(line);
    if !only_deletes(&original_words, &line_words) {
        return refused(Refusal::NewWords);
    }
    let alone = Ledger {
        facts: vec![fact.clone()],
    };
    let numbers_kept = original_words
        .iter()
        .filter(|w| w.chars().any(|c| c.is_ascii_digit()))
        .all(|w| line_words.contains(w));
    // A request's anchors may be spelled otherwise than its text ("50000" of "50,000"): what
    // the original did not state, the line need not; its numbers it must keep either way.
    let stated = |text: &str| !check_facts(&alone, text).kept.is_empty();
    if (stated(original) && !stated(line)) || !numbers_kept {
        return refused(Refusal::LostTerm);
    }
    if negations(&line_words) < negations(&original_words) || lost_contraction(original, line) {
        return refused(Refusal::LostNegation);
    }
    if !meta_phrases(line, source).is_empty() {
        return refused(Refusal::Meta);
    }
    let text = match fact.kind {
        FactKind::Request => format!("{REQUEST_PREFIX}{line}"),
        _ => line.to_owned(),
    };
    Shortened::Kept(text)
}

/// `ledger` with the kept lines of `outcomes` (one per fact of `offered`) in place of their
/// facts' texts; the anchors stay, as every kept line states them.
pub fn apply(ledger: &Ledger, offered: &[usize], outcomes: &[Shortened]) -> Ledger {
    let mut shorter = ledger.clone();
    for (&i, outcome) in offered.iter().zip(outcomes) {
        if let Shortened::Kept(text) = outcome {
            shorter.facts[i].text.clone_from(text);
        }
    }
    shorter
}

/// Whether `line` is `original` with words left out: its words, but for [`GLUE`], appear in
/// the original in the same order.
fn only_deletes(original: &[String], line: &[String]) -> bool {
    let mut from = 0;
    for w in line {
        if let Some(at) = original[from..].iter().position(|o| o == w) {
            from += at + 1;
        } else if !GLUE.contains(&w.as_str()) {
            return false;
        }
    }
    true
}

/// Lower-case words and numbers, in order ("1,000" is one; "u32" one; "don't" is "don't").
fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let inner = |c: &char| c.is_alphanumeric();
        let joins = matches!(c, '\'' | '’' | ',' | '.' | '-' | '_' | '%' | '/' | ':')
            && !word.is_empty()
            && chars.get(i + 1).is_some_and(inner);
        if c.is_alphanumeric() || c == '_' || joins {
            word.extend(c.to_lowercase());
        } else if !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

fn negations(words: &[String]) -> usize {
    words
        .iter()
        .filter(|w| NEGATIONS.contains(&w.as_str()) || w.ends_with("n't") || w.ends_with("n’t"))
        .count()
}

/// Whether the original's "n't" went ("doesn't" → "does"), which [`words`] keeps in the word
/// itself: a subsequence check alone would not see a word swapped for a shorter one.
fn lost_contraction(original: &str, line: &str) -> bool {
    let count = |s: &str| s.matches("n't").count() + s.matches("n’t").count();
    count(&line.to_lowercase()) < count(&original.to_lowercase())
}

/// Whether shortening is worth a model call: a note of `ledger`'s facts alone would be over
/// [`SHORTEN_ABOVE_PERCENT`] of the `selection_tokens` it replaces, and a prose line of it has
/// more than a few words to take out.
pub fn worth_asking(ledger: &Ledger, selection_tokens: u64) -> bool {
    let long_line = offered(ledger)
        .into_iter()
        .any(|i| estimate_tokens(&ledger.facts[i].text) > WORTH_ASKING_TOKENS);
    long_line && {
        let note = fact_lines(ledger, "", NoteForm::Whole).join("\n");
        estimate_tokens(&note) * 100 > selection_tokens * SHORTEN_ABOVE_PERCENT
    }
}

#[cfg(test)]
#[path = "shorten_tests.rs"]
mod tests;
