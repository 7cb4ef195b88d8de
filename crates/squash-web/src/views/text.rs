//! Short text for the cards: a tool input on one line, a first line cut to its width.

/// A JSON value on one line (a tool input in a card's summary).
pub(super) fn compact(value: &serde_json::Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// The first line, at most `max` characters.
pub(super) fn shorten(text: &str, max: usize) -> String {
    let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let mut out: String = line.chars().take(max).collect();
    if line.chars().count() > max || text.trim().lines().count() > 1 {
        out.push('…');
    }
    out
}
