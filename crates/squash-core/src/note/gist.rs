//! The gist: the few sentences of prose a model writes above the facts, kept only where they
//! speak about the conversation, whole, and once.

use super::meta::{is_heading, meta_phrases};
use crate::ledger::{Ended, RunEnd};
use crate::text::{patterns, sentences, single_spaced};
use crate::tokens::estimate_tokens;

/// The most sentences of a gist: what was wanted and what came of it need no more.
pub const GIST_MAX_SENTENCES: usize = 2;

/// A sentence this long that stands word for word in the selection is a copy, not a gist.
const COPIED_MIN_CHARS: usize = 60;

patterns! {
    /// What a sentence says a run came to: a failure, told in the past tense only ("a failing
    /// test", "the build fails" describe the problem, not a run), or a success. "not
    /// successful" is read whole, before "successful" could be.
    OUTCOME = r"(?xi)
        (?P<failed>\bnot\ (?:successful|succeed\w*|work\w*|pass\w*)\b
          | \bunsuccessful(?:ly)?\b | \bfailed\b
          | \bdid(?:\ not|n't)\ (?:work|pass|succeed)\b | \berrored\b)
      | (?P<passed>\bpass(?:ed|es)\b | \bsucceed(?:ed|s)\b | \bsuccessful(?:ly)?\b
          | \bworked\b)";
    /// A span in backticks: how a model names a command.
    CODE_SPAN = r"`([^`]+)`";
}

/// The gist of a model's `answer` about `source` (the selection's text): its prose sentences
/// without headings, lists, questions, talk about the squash or the prompt ([`meta_phrases`]),
/// sentences copied from the selection, a last sentence cut off mid-way, and sentences that
/// say a run ended otherwise than its result does ([`contradicts`]); at most `max` sentences.
/// `None` when nothing is left.
pub fn clean_gist(answer: &str, source: &str, runs: &[RunEnd], max: usize) -> Option<String> {
    let prose: Vec<&str> = answer
        .lines()
        .map(str::trim)
        // What follows a label line ("Details:", "Requests:", "Files:") is a list the model made
        // of the facts, which the note has already.
        .take_while(|line| !(is_heading(line) && line.trim_end_matches(['*', '_']).ends_with(':')))
        .filter(|line| !line.is_empty() && !is_heading(line) && !is_list_item(line))
        .collect();
    let source_flat = flat(source);
    let mut kept: Vec<String> = Vec::new();
    let all = sentences(&prose.join("\n"));
    let last = all.len().saturating_sub(1);
    for (i, sentence) in all.into_iter().enumerate() {
        let whole = sentence.ends_with(['.', '!', '…', ')', '"', '»']) || i < last;
        let copied =
            sentence.chars().count() >= COPIED_MIN_CHARS && source_flat.contains(&flat(&sentence));
        if sentence.ends_with('?')
            || !whole
            || copied
            || !meta_phrases(&sentence, source).is_empty()
            || contradicts(&sentence, runs)
        {
            continue;
        }
        if !kept.iter().any(|k| flat(k) == flat(&sentence)) {
            kept.push(sentence);
        }
        if kept.len() == max {
            break;
        }
    }
    (!kept.is_empty()).then(|| kept.join(" "))
}

/// The leading sentences of `gist` that together take at most `max_tokens`; `None` when not
/// even the first does. A gist is cut between sentences, never inside one.
pub fn gist_within(gist: &str, max_tokens: u64) -> Option<String> {
    let mut kept: Vec<String> = Vec::new();
    for sentence in sentences(gist) {
        kept.push(sentence);
        if estimate_tokens(&kept.join(" ")) > max_tokens {
            kept.pop();
            break;
        }
    }
    (!kept.is_empty()).then(|| kept.join(" "))
}

/// Whether `sentence` says a run ended otherwise than its result does: a small model tells the
/// story of the runs out of order ("it ran another command, but it was not successful" of the
/// run that passed), and the facts below the gist tell each run's outcome from its result. The
/// sentence's last outcome word is its claim; it is held against the runs it names (by their
/// command), or, naming none, against the selection's last run.
fn contradicts(sentence: &str, runs: &[RunEnd]) -> bool {
    let Some(claim) = OUTCOME.captures_iter(sentence).last().map(|c| {
        if c.name("failed").is_some() {
            Ended::Failed
        } else {
            Ended::Passed
        }
    }) else {
        return false;
    };
    let named: Vec<&RunEnd> = runs
        .iter()
        .filter(|r| names(sentence, &r.command))
        .collect();
    match named.as_slice() {
        [] => runs.last().is_some_and(|last| last.ended != claim),
        named => named.iter().all(|r| r.ended != claim),
    }
}

/// A command spans this many characters at least before a sentence's span of it names it.
const NAMING_MIN_CHARS: usize = 6;

/// Whether `sentence` names `command`: whole, or by a span in backticks that is the command
/// cut short or the command with its output plumbing.
fn names(sentence: &str, command: &str) -> bool {
    let command = command.trim();
    if command.chars().count() < NAMING_MIN_CHARS {
        return false;
    }
    sentence.contains(command)
        || CODE_SPAN.captures_iter(sentence).any(|c| {
            let span = c[1].trim().trim_end_matches(['…', '.']);
            span.chars().count() >= NAMING_MIN_CHARS
                && (command.starts_with(span) || span.starts_with(command))
        })
}

fn is_list_item(line: &str) -> bool {
    let bare = line.trim_start();
    bare.starts_with(['-', '*', '•'])
        || bare
            .split_once(['.', ')'])
            .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

/// Lower case, whitespace folded: how a copy is recognised.
fn flat(text: &str) -> String {
    single_spaced(&text.to_lowercase())
}
