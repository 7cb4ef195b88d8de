//! Talk about the squash instead of the conversation: what small models write when the prompt's
//! own words leak into the answer ("What was wanted?", "Requests:", "No preamble, no comments.",
//! "The facts above show…"). A note speaks about the conversation only.

use crate::text::patterns;

patterns! {
    /// Phrases about the task, the prompt, the facts list or the answer itself.
    META = r"(?xi)
        \b(?:summar(?:y|ies|ise|ize|ised|ized|ising|izing)|compress\w*|squash\w*|condens\w*)\b
      | \bno\ (?:preamble|comments?)\b
      | \bwhat\ (?:was\ wanted|the\ (?:user|assistant)\ (?:wanted|did)|came\ of\ it)\b
      | \bhow\ it\ ended\b
      | \b(?:the|these|those)\ facts\b | \bfacts\ (?:above|below|recorded|listed)\b
      | \b(?:the|this)\ (?:prompt|instructions?)\b | \bas\ (?:instructed|requested)\b
      | \b(?:the|this)\ (?:above\ |following\ )?(?:conversation|transcript|exchange)\b
      | \bplain\ sentences?\b | \bexact\ names\b
      | \bthe\ assistant\ wanted\b
      | \bto\ put\ it\ simply\b | \bin\ (?:short|summary|conclusion)\b
      | ^\s*(?:here\ (?:is|are)|here's)\b";
    /// A line that is only a heading: "Requests:", "Details:", "## Outcome", "What was wanted?".
    HEADING = r"(?i)^\s*(?:#{1,6}\s*\S.*|[*_]*[\p{L} ]{1,40}[:?][*_]*)\s*$";
}

/// The meta phrases of `text` that `source` (the selection's text) does not have: a phrase the
/// conversation itself uses ("the summary of the release") is not talk about the squash.
pub fn meta_phrases(text: &str, source: &str) -> Vec<String> {
    let source = source.to_lowercase();
    text.lines()
        .flat_map(|line| {
            META.find_iter(line)
                .map(|m| m.as_str().trim().to_lowercase())
        })
        .filter(|m| !source.contains(m.as_str()))
        .collect()
}

/// Whether `line` is a heading of its own (a model's section title, not content).
pub(super) fn is_heading(line: &str) -> bool {
    HEADING.is_match(line)
}
