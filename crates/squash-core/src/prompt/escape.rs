//! Message content is untrusted data: escaped so that it can never open or close one of the
//! prompt's tags, or fenced by a fence longer than any it holds; and a model's answer that
//! copied the escaping, restored.

/// Escapes `&`, `<` and `>`: enough for element content, where the text is placed. `&` goes
/// too, so that a literal `&lt;` in a message survives the round trip instead of turning into
/// `<` in the model's eyes.
pub fn escape_xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

/// Undoes the prompt's escaping where a model copied it into its answer (`Vec&lt;u8&gt;` for
/// `Vec<u8>`), which models do despite the rule against it. An entity is only decoded when the
/// original messages never contained it literally, so a conversation about HTML entities keeps
/// its `&lt;`.
pub fn undo_escaping(output: &str, input_text: &str) -> String {
    let mut out = output.to_owned();
    // `&amp;` last, so that `&amp;lt;` becomes `&lt;` and not `<`.
    for (entity, plain) in [("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")] {
        if out.contains(entity) && !input_text.contains(entity) {
            out = out.replace(entity, plain);
        }
    }
    out
}

/// A Markdown fence longer than every backtick run in `bodies` (at least three), so that no
/// message can close its own fence.
pub(super) fn fence_for(bodies: &[String]) -> String {
    let longest = bodies
        .iter()
        .flat_map(|b| b.split(|c| c != '`'))
        .map(str::len)
        .max()
        .unwrap_or(0);
    "`".repeat((longest + 1).max(3))
}
