//! Cleaning a raw model answer: what models put around the content despite the prompt.

use super::problem::OutputProblem;
use crate::text::{normalise_quotes, patterns};

patterns! {
    /// A whole first line that only announces the answer: "Here is the compressed message:",
    /// "Sure! Here's a concise summary:", "**Compressed message:**", "## Summary", "Sure!".
    PLEASANTRY_LINE = r"(?i)^(?:(?:sure|certainly|of course|okay|ok|alright|absolutely|got it|understood)(?-u:\b)[\s!.,]*(?:here (?:you go|it is))?|here (?:you go|it is))[\s!.,:]*$";
    OPENER = r"(?i)^(?:(?:sure|certainly|of course|okay|ok|alright|absolutely)(?-u:\b)[!.,]*\s*)?(?:here(?:'s| is| are)|below is|this is|the following is|i(?:'ve| have) (?:compressed|condensed|summari[sz]ed|squashed|combined|merged|shortened))(?-u:\b)";
    TASK_WORD = r"(?i)compress|condens|concise|squash|summar|shorten|combin|merg|rewrit|tl;?dr|here (?:you go|it is)";
    LABEL_LINE = r"(?i)^(?:the\s+)?(?:(?:compressed|condensed|squashed|combined|merged|shortened|concise|final)\s+)?(?:message|version|text|summary|output|result|tl;?dr)\s*:?$";
    /// A label that starts the first line, the content following on the same line:
    /// "Compressed message: We fixed …", "Summary: …", "Here is the squashed version: …".
    INLINE_LABEL = r"(?i)^[#*_\s]*(?:(?:the\s+)?(?:compressed|condensed|squashed|combined|merged|shortened)\s+(?:message|version|text|summary|output|result)|summary|tl;?dr|(?:(?:sure|certainly|of course|okay|ok)(?-u:\b)[!.,]*\s*)?(?:here(?:'s| is| are)|below is)(?-u:\b)[^\n:]{0,100}?(?:compress|condens|concise|squash|summar|shorten|combin|merg)[^\n:]{0,60})\s*:[*_]*[ \t]*";
    /// Closing offers that are about the exchange, not the content.
    CLOSING_LINE = r"(?i)^(?:let me know(?-u:\b)|i hope this helps|hope this helps|feel free to(?-u:\b)|is there anything else|would you like me to(?-u:\b)|if you(?:'d| would) like(?-u:\b)|if you need (?:any|more)(?-u:\b))";
    /// A short answer that only talks about the task: "I have compressed the messages above.",
    /// "I'll compress these messages for you."
    META_ONLY = r"(?i)^(?:the (?:messages?|conversation|text|content) (?:have|has|were|was|is|are)(?: been)? \w*(?:compress|condens|squash|summar|combin|merg|shorten)|(?:i(?:'ve| have| will|'ll)?|here(?:'s| is| are)|sure|certainly|okay|done)(?-u:\b).{0,80}?(?-u:\b)(?:compress|condens|squash|summar|combin|merg|shorten)\w*(?-u:\b).{0,60}?(?-u:\b)(?:messages?|conversation|the above|the text|the content|the following)(?-u:\b))";
}

/// Tags a model may wrap its answer in; the prompt's own tags are not here (an answer wrapped
/// in those is an echo, refused by [`guard_output`](super::guard_output)).
const WRAPPING_TAGS: &[&str] = &[
    "compressed",
    "compressed_message",
    "squashed",
    "squashed_message",
    "message",
    "summary",
    "output",
    "answer",
    "result",
    "response",
];

/// Code-fence info strings that mean "this is just text", not code worth keeping fenced.
const TEXT_FENCES: &[&str] = &["", "text", "txt", "plaintext", "markdown", "md"];

/// Trims a raw model answer and strips what models put around the content despite the
/// prompt: a leading preamble ("Here is the compressed message:", "Sure! Here's a concise
/// summary:", "Compressed message:", a `Summary:` label), a wrapping plain-text code fence,
/// a wrapping `<compressed>`/`<message>` tag, and closing offers ("Let me know if …").
///
/// Errors: [`OutputProblem::Empty`] for a blank answer, [`OutputProblem::MetaOnly`] when
/// nothing but such commentary was there.
pub fn clean_output(raw: &str) -> Result<String, OutputProblem> {
    let mut text = raw.trim().to_owned();
    if text.is_empty() {
        return Err(OutputProblem::Empty);
    }
    // The wrappers nest in any order ("Sure!\nHere it is:\n```\n…\n```"), so peel until
    // nothing changes; the bound only guards against a pathological answer.
    for _ in 0..8 {
        let before = text.len();
        text = strip_preamble(&text);
        text = strip_fence(&text);
        text = strip_wrapping_tag(&text);
        text = strip_closing(&text);
        if text.len() == before {
            break;
        }
    }
    if text.is_empty() || is_meta_only(&text) {
        return Err(OutputProblem::MetaOnly);
    }
    Ok(text)
}

fn strip_preamble(text: &str) -> String {
    let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
    if is_preamble_line(first) {
        return rest.trim().to_owned();
    }
    if let Some(m) = INLINE_LABEL.find(first) {
        let after = &first[m.end()..];
        if !after.trim().is_empty() {
            return format!("{}{}", after.trim(), line_rest(rest))
                .trim()
                .to_owned();
        }
    }
    text.to_owned()
}

fn line_rest(rest: &str) -> String {
    if rest.is_empty() {
        String::new()
    } else {
        format!("\n{rest}")
    }
}

fn is_preamble_line(line: &str) -> bool {
    let bare = normalise_quotes(
        line.trim()
            .trim_start_matches(['#', '*', '_', '>', ' ', '\t'])
            .trim_end_matches(['*', '_', ' ', '\t']),
    );
    if bare.is_empty() {
        return false;
    }
    if PLEASANTRY_LINE.is_match(&bare) {
        return true;
    }
    let mentions_task = TASK_WORD.is_match(&bare);
    if OPENER.is_match(&bare) && mentions_task && bare.len() <= 160 {
        return true;
    }
    LABEL_LINE.is_match(&bare) && (mentions_task || bare.ends_with(':'))
}

fn strip_fence(text: &str) -> String {
    let Some((open, body)) = text.split_once('\n') else {
        return text.to_owned();
    };
    let open = open.trim_end();
    let fence_char = match open.chars().next() {
        Some(c @ ('`' | '~')) => c,
        _ => return text.to_owned(),
    };
    let fence_len = open.chars().take_while(|&c| c == fence_char).count();
    let info = open[fence_len..].trim().to_lowercase();
    if fence_len < 3 || !TEXT_FENCES.contains(&info.as_str()) {
        return text.to_owned();
    }
    let Some((inner, close)) = body.trim_end().rsplit_once('\n') else {
        return text.to_owned();
    };
    let close = close.trim();
    let closes = close.len() >= fence_len && close.chars().all(|c| c == fence_char);
    // A second fence inside means several blocks with text between them, not one wrapper.
    let single = !inner
        .lines()
        .any(|l| l.trim_start().starts_with(&open[..fence_len]));
    if closes && single {
        inner.trim().to_owned()
    } else {
        text.to_owned()
    }
}

fn strip_wrapping_tag(text: &str) -> String {
    for tag in WRAPPING_TAGS {
        let open = format!("<{tag}>");
        let close = format!("</{tag}>");
        let Some(inner_end) = text.len().checked_sub(close.len()) else {
            continue;
        };
        // `get` returns None off a character boundary, so no slice below can panic.
        let opens = text
            .get(..open.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(&open));
        let closes = text
            .get(inner_end..)
            .is_some_and(|s| s.eq_ignore_ascii_case(&close));
        if opens && closes && open.len() <= inner_end {
            if let Some(inner) = text.get(open.len()..inner_end) {
                return inner.trim().to_owned();
            }
        }
    }
    text.to_owned()
}

fn strip_closing(text: &str) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    while let Some(last) = lines.last() {
        let bare = normalise_quotes(last.trim());
        if bare.is_empty() || CLOSING_LINE.is_match(&bare) {
            lines.pop();
        } else {
            break;
        }
    }
    // Leave a lone closing line alone: a message that is only that is meta-only, reported as
    // such, rather than silently empty.
    if lines.is_empty() {
        return text.to_owned();
    }
    lines.join("\n").trim().to_owned()
}

fn is_meta_only(text: &str) -> bool {
    let bare = normalise_quotes(text.trim());
    if CLOSING_LINE.is_match(&bare) && bare.lines().count() == 1 {
        return true;
    }
    bare.chars().count() <= 300 && bare.lines().count() <= 3 && META_ONLY.is_match(&bare)
}
