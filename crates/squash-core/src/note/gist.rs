//! The gist: the few sentences of prose a model writes above the facts, kept only where they
//! speak about the conversation, whole, and once.

use super::meta::{is_heading, meta_phrases};
use crate::text::sentences;

/// The most sentences of a gist: what was wanted and what came of it need no more.
pub const GIST_MAX_SENTENCES: usize = 3;

/// A sentence this long that stands word for word in the selection is a copy, not a gist.
const COPIED_MIN_CHARS: usize = 60;

/// The gist of a model's `answer` about `source` (the selection's text): its prose sentences
/// without headings, lists, questions, talk about the squash or the prompt ([`meta_phrases`]),
/// sentences copied from the selection and a last sentence cut off mid-way; at most `max`
/// sentences. `None` when nothing is left.
pub fn clean_gist(answer: &str, source: &str, max: usize) -> Option<String> {
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

fn is_list_item(line: &str) -> bool {
    let bare = line.trim_start();
    bare.starts_with(['-', '*', '•'])
        || bare
            .split_once(['.', ')'])
            .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

/// Lower case, whitespace folded: how a copy is recognised.
fn flat(text: &str) -> String {
    text.to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}
