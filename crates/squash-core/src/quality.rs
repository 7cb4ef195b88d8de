//! Checks on a model's squash output and the quality report shown next to a result.
//!
//! A squash replaces messages, so a bad answer is worse than no answer: [`check_output`]
//! (or [`clean_output`] then [`guard_output`]) turns the common failure shapes of LLM output —
//! empty, only a preamble, a refusal, an echo of the prompt, a runaway loop, longer than the
//! input — into an [`OutputProblem`] before anything is applied. [`quality_report`] then says
//! how much was compressed and which salient terms (paths, identifiers, numbers, error codes)
//! survived, were dropped or appeared from nowhere, so a person can judge the result at a
//! glance.

use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::ledger::{FactReport, Fallback, SizeLimit};
use crate::prompt::undo_escaping;
use crate::tokens::{estimate_tokens, format_count};

/// Why a model's answer was not accepted as a squash result. Every variant means nothing was
/// applied; the messages stay as they were.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum OutputProblem {
    /// Nothing but whitespace.
    #[error("the model returned an empty answer; nothing was applied")]
    Empty,
    #[error(
        "the model's answer is only a comment about the task, not a compressed message; \
         nothing was applied"
    )]
    /// Only talk about the task ("Here is the compressed message:" and nothing after it).
    MetaOnly,
    #[error(
        "the model's answer is {} the messages it should compress ({} vs {} characters); \
         nothing was applied",
        if .output_chars > .input_chars { "longer than" } else { "as long as" },
        format_count(*.output_chars),
        format_count(*.input_chars)
    )]
    /// At least as long as the input, in characters: no compression happened.
    NotShorter { input_chars: u64, output_chars: u64 },
    #[error("the model refused to compress the messages (\"{excerpt}\"); nothing was applied")]
    /// A refusal; `excerpt` is the start of its first line.
    Refusal { excerpt: String },
    #[error(
        "the model's answer repeats the prompt's markup (`{markup}`) instead of giving a \
         compressed message; nothing was applied"
    )]
    /// The prompt's own tags in the answer (and not in the messages).
    EchoedMarkup { markup: String },
    #[error(
        "the model's answer repeats itself (\"{repeated}\" appears {times} times); \
         nothing was applied"
    )]
    /// A line, sentence, word sequence or character pattern repeated like a runaway loop.
    Looping { repeated: String, times: u64 },
    #[error(
        "the model's answer only copies a part of the messages ({} of {} characters, word for \
         word) instead of compressing them all; nothing was applied",
        format_count(*.output_chars),
        format_count(*.input_chars)
    )]
    /// The answer is a verbatim piece of the input, at most half of it: small models copy
    /// one message (often the first) instead of compressing the selection.
    CopiedPart { input_chars: u64, output_chars: u64 },
}

impl OutputProblem {
    /// A stable machine-readable name, for logs, metrics and API error bodies.
    pub fn class(&self) -> &'static str {
        match self {
            OutputProblem::Empty => "empty",
            OutputProblem::MetaOnly => "meta_only",
            OutputProblem::NotShorter { .. } => "not_shorter",
            OutputProblem::Refusal { .. } => "refusal",
            OutputProblem::EchoedMarkup { .. } => "echoed_markup",
            OutputProblem::Looping { .. } => "looping",
            OutputProblem::CopiedPart { .. } => "copied_part",
        }
    }
}

/// The whole acceptance path for a raw model answer: [`clean_output`], then
/// [`undo_escaping`] (models sometimes copy the prompt's `&lt;`), then [`guard_output`].
/// `input_text` is [`messages_text`](crate::prompt::messages_text) of the squashed messages.
pub fn check_output(input_text: &str, raw: &str) -> Result<String, OutputProblem> {
    let cleaned = clean_output(raw)?;
    let cleaned = undo_escaping(&cleaned, input_text);
    guard_output(input_text, &cleaned)?;
    Ok(cleaned)
}

// ---------------------------------------------------------------------------------------------
// Cleaning

/// A whole first line that only announces the answer: "Here is the compressed message:",
/// "Sure! Here's a concise summary:", "**Compressed message:**", "## Summary", "Sure!".
static PLEASANTRY_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^(?:(?:sure|certainly|of course|okay|ok|alright|absolutely|got it|understood)(?-u:\b)[\s!.,]*(?:here (?:you go|it is))?|here (?:you go|it is))[\s!.,:]*$",
    )
    .expect("static regex")
});
static OPENER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^(?:(?:sure|certainly|of course|okay|ok|alright|absolutely)(?-u:\b)[!.,]*\s*)?(?:here(?:'s| is| are)|below is|this is|the following is|i(?:'ve| have) (?:compressed|condensed|summari[sz]ed|squashed|combined|merged|shortened))(?-u:\b)",
    )
    .expect("static regex")
});
static TASK_WORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)compress|condens|concise|squash|summar|shorten|combin|merg|rewrit|tl;?dr|here (?:you go|it is)")
        .expect("static regex")
});
static LABEL_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^(?:the\s+)?(?:(?:compressed|condensed|squashed|combined|merged|shortened|concise|final)\s+)?(?:message|version|text|summary|output|result|tl;?dr)\s*:?$",
    )
    .expect("static regex")
});
/// A label that starts the first line, the content following on the same line:
/// "Compressed message: We fixed …", "Summary: …", "Here is the squashed version: …".
static INLINE_LABEL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^[#*_\s]*(?:(?:the\s+)?(?:compressed|condensed|squashed|combined|merged|shortened)\s+(?:message|version|text|summary|output|result)|summary|tl;?dr|(?:(?:sure|certainly|of course|okay|ok)(?-u:\b)[!.,]*\s*)?(?:here(?:'s| is| are)|below is)(?-u:\b)[^\n:]{0,100}?(?:compress|condens|concise|squash|summar|shorten|combin|merg)[^\n:]{0,60})\s*:[*_]*[ \t]*",
    )
    .expect("static regex")
});
/// Closing offers that are about the exchange, not the content.
static CLOSING_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^(?:let me know(?-u:\b)|i hope this helps|hope this helps|feel free to(?-u:\b)|is there anything else|would you like me to(?-u:\b)|if you(?:'d| would) like(?-u:\b)|if you need (?:any|more)(?-u:\b))",
    )
    .expect("static regex")
});
/// A short answer that only talks about the task: "I have compressed the messages above.",
/// "I'll compress these messages for you."
static META_ONLY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^(?:the (?:messages?|conversation|text|content) (?:have|has|were|was|is|are)(?: been)? \w*(?:compress|condens|squash|summar|combin|merg|shorten)|(?:i(?:'ve| have| will|'ll)?|here(?:'s| is| are)|sure|certainly|okay|done)(?-u:\b).{0,80}?(?-u:\b)(?:compress|condens|squash|summar|combin|merg|shorten)\w*(?-u:\b).{0,60}?(?-u:\b)(?:messages?|conversation|the above|the text|the content|the following)(?-u:\b))",
    )
    .expect("static regex")
});

/// Tags a model may wrap its answer in; the prompt's own tags are not here (an answer wrapped
/// in those is an echo, refused by [`guard_output`]).
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

/// Typographic apostrophes (’) as ASCII, so that one pattern matches both spellings.
fn normalise_quotes(s: &str) -> String {
    s.replace(['\u{2019}', '\u{2018}'], "'")
}

// ---------------------------------------------------------------------------------------------
// Guarding

static REFUSAL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^(?:(?:(?:i'm|i am)\s+)?sorry(?-u:\b)[^.\n]{0,40}?(?-u:\b)(?:can't|cannot|can not|unable|won't|not able)(?-u:\b)|i apologi[sz]e(?-u:\b)[^.\n]{0,40}?(?-u:\b)(?:can't|cannot|can not|unable|won't|not able)(?-u:\b)|as an ai(?-u:\b)|i (?:can't|cannot|can not|won't|am unable to|'m unable to|am not able to|'m not able to) (?:help|assist|comply|fulfil|fulfill|do that|complete|process|provide|summari[sz]e|compress|squash|perform)(?-u:\b))",
    )
    .expect("static regex")
});
static PROMPT_MARKUP: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)</?(?:messages_to_squash|additional_instructions|rules|task)\s*>|<message\s+index\s*=|</message\s*>",
    )
    .expect("static regex")
});

/// A line or sentence this long, seen this often, is a loop rather than a list item.
const LOOP_MIN_CHARS: usize = 20;
const LOOP_MIN_REPEATS: usize = 3;
/// Word shingles: a text with at least `SHINGLE_MIN_WORDS` words of which at least
/// `SHINGLE_LOOP_SHARE` sit in 8-word sequences seen 3+ times is repeating itself, even when
/// each repeat is worded across lines differently.
const SHINGLE_WORDS: usize = 8;
const SHINGLE_MIN_WORDS: usize = 40;
const SHINGLE_LOOP_SHARE: f64 = 0.4;
/// Degenerate character loops ("!!!!…", "abcabcabc…") without spaces, longer than this.
const CHAR_LOOP_MIN_CHARS: usize = 200;
const CHAR_LOOP_MAX_PERIOD: usize = 16;

/// Rejects a cleaned answer that cannot be a squash of `input_text`: empty, a refusal
/// ("I'm sorry, but I can't…", "As an AI…"), an echo of the prompt's markup, a loop, or not
/// shorter than the input. A pattern that already occurs in the input (a conversation about
/// prompts may contain `<task>`, a log may repeat a line) does not count against the answer.
pub fn guard_output(input_text: &str, output: &str) -> Result<(), OutputProblem> {
    let output = output.trim();
    if output.is_empty() {
        return Err(OutputProblem::Empty);
    }
    let input_lower = normalise_quotes(&input_text.to_lowercase());

    let head: String = normalise_quotes(output).chars().take(300).collect();
    if let Some(m) = REFUSAL.find(&head) {
        if !input_lower.contains(&m.as_str().to_lowercase()) {
            let excerpt: String = head.lines().next().unwrap_or("").chars().take(80).collect();
            return Err(OutputProblem::Refusal { excerpt });
        }
    }

    for m in PROMPT_MARKUP.find_iter(output) {
        if !input_lower.contains(&m.as_str().to_lowercase()) {
            return Err(OutputProblem::EchoedMarkup {
                markup: m.as_str().to_owned(),
            });
        }
    }

    if let Some((repeated, times)) = find_loop(input_text, output) {
        return Err(OutputProblem::Looping { repeated, times });
    }

    let input_chars = input_text.trim().chars().count() as u64;
    let output_chars = output.chars().count() as u64;
    if output_chars >= input_chars {
        return Err(OutputProblem::NotShorter {
            input_chars,
            output_chars,
        });
    }
    if is_copied_part(input_text, output) {
        return Err(OutputProblem::CopiedPart {
            input_chars,
            output_chars,
        });
    }
    Ok(())
}

/// Whether `output`, fences and whitespace aside, occurs word for word in the input and is at
/// most half of it. Short answers (under 40 characters) may legitimately quote one line.
fn is_copied_part(input_text: &str, output: &str) -> bool {
    let squeeze = |t: &str| -> String {
        t.lines()
            .filter(|l| !l.trim_start().starts_with("```"))
            .flat_map(str::split_whitespace)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let (input, output) = (squeeze(input_text), squeeze(output));
    output.chars().count() >= 40 && output.len() * 2 <= input.len() && input.contains(&output)
}

fn find_loop(input_text: &str, output: &str) -> Option<(String, u64)> {
    let lines = |t: &'_ str| -> Vec<String> { t.lines().map(|l| l.trim().to_owned()).collect() };
    if let Some(found) = repeated_unit(&lines(output), &lines(input_text)) {
        return Some(found);
    }
    if let Some(found) = repeated_unit(&sentences(output), &sentences(input_text)) {
        return Some(found);
    }
    if shingle_loop(input_text).is_none() {
        if let Some(found) = shingle_loop(output) {
            return Some(found);
        }
    }
    char_loop(output)
}

/// The most repeated unit of at least [`LOOP_MIN_CHARS`] seen [`LOOP_MIN_REPEATS`]+ times in
/// `units` and fewer times in `input_units`.
fn repeated_unit(units: &[String], input_units: &[String]) -> Option<(String, u64)> {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for unit in units {
        if unit.chars().count() >= LOOP_MIN_CHARS {
            *counts.entry(unit.as_str()).or_default() += 1;
        }
    }
    let (unit, times) = counts
        .into_iter()
        .filter(|&(_, n)| n >= LOOP_MIN_REPEATS)
        .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(a.0)))?;
    let in_input = input_units.iter().filter(|u| u.as_str() == unit).count();
    (in_input < times).then(|| (excerpt(unit), times as u64))
}

fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\n' {
            out.push(std::mem::take(&mut current));
            continue;
        }
        current.push(c);
        if matches!(c, '.' | '!' | '?') && chars.peek().is_none_or(|n| n.is_whitespace()) {
            out.push(std::mem::take(&mut current));
        }
    }
    out.push(current);
    out.into_iter()
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .collect()
}

fn shingle_loop(text: &str) -> Option<(String, u64)> {
    let words: Vec<String> = text
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect();
    if words.len() < SHINGLE_MIN_WORDS {
        return None;
    }
    let mut counts: HashMap<&[String], usize> = HashMap::new();
    for window in words.windows(SHINGLE_WORDS) {
        *counts.entry(window).or_default() += 1;
    }
    let mut covered = vec![false; words.len()];
    for (start, window) in words.windows(SHINGLE_WORDS).enumerate() {
        if counts.get(window).copied().unwrap_or(0) >= LOOP_MIN_REPEATS {
            covered[start..start + SHINGLE_WORDS].fill(true);
        }
    }
    let share = covered.iter().filter(|&&c| c).count() as f64 / words.len() as f64;
    if share < SHINGLE_LOOP_SHARE {
        return None;
    }
    let (window, times) = counts
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(a.0)))?;
    Some((excerpt(&window.join(" ")), times as u64))
}

fn char_loop(text: &str) -> Option<(String, u64)> {
    let chars: Vec<char> = text.chars().collect();
    for period in 1..=CHAR_LOOP_MAX_PERIOD {
        // `run` counts consecutive positions equal to the one a period earlier; the repeating
        // stretch is then `run + period` characters long.
        let mut run = 0;
        for i in period..chars.len() {
            if chars[i] != chars[i - period] {
                run = 0;
                continue;
            }
            run += 1;
            if run + period < CHAR_LOOP_MIN_CHARS {
                continue;
            }
            let start = i + 1 - run - period;
            let unit: String = chars[start..start + period].iter().collect();
            if unit.trim().is_empty() {
                // Whitespace padding is not a loop; look for another stretch.
                run = 0;
                continue;
            }
            let mut end = i + 1;
            while end < chars.len() && chars[end] == chars[end - period] {
                end += 1;
            }
            return Some((excerpt(&unit), ((end - start) / period) as u64));
        }
    }
    None
}

fn excerpt(s: &str) -> String {
    const MAX: usize = 60;
    if s.chars().count() <= MAX {
        s.to_owned()
    } else {
        let mut out: String = s.chars().take(MAX).collect();
        out.push('…');
        out
    }
}

// ---------------------------------------------------------------------------------------------
// Salient terms (word boundaries ASCII, as in `fit::trim`: a Unicode `\b` costs a backtracking
// search on any non-ASCII text)

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).expect("static regex")
}

// The extraction's own markup (see `prompt::messages_text`) is not content: its omission
// markers, the line numbers of `cat -n`-style tool output (`    12\t…`, `    12→…`) and the
// argument names of `Called Tool(key="value")` lines would otherwise count as dropped terms.
static OMISSION_MARKER: LazyLock<Regex> =
    LazyLock::new(|| re(r"\[… [\d,]+ characters omitted …\]"));
static LINE_NUMBER: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^[ \t]*(\d+)(?:\t|→)"));
/// Applied to `Called …` lines only.
static CALL_ARG_NAME: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?:^Called [^\s(]+\(|, )([A-Za-z_]\w*)="));

static URL: LazyLock<Regex> = LazyLock::new(|| re(r#"(?-u:\b)(?:https?|ftp|file)://[^\s<>"'`]+"#));
static BACKTICKED: LazyLock<Regex> = LazyLock::new(|| re(r"`([^`\n]{1,100})`"));
static WINDOWS_PATH: LazyLock<Regex> =
    LazyLock::new(|| re(r#"(?-u:\b)[A-Za-z]:\\(?:[^\\\s"'<>|*?]+\\)*[^\\\s"'<>|*?]*"#));
static UNIX_PATH: LazyLock<Regex> =
    LazyLock::new(|| re(r#"(?:^|[\s("'`=\[{,])((?:~|\.{1,2})?/?(?:[\w.@+-]+/)+[\w.@+-]*)"#));
static FILE_NAME: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?-u:\b)[\w-]+\.(?:rs|ts|tsx|js|jsx|mjs|cjs|py|go|java|kt|kts|rb|php|cs|c|h|cc|cpp|hpp|swift|m|scala|sql|sh|bash|zsh|ps1|md|txt|toml|json|yaml|yml|xml|html|css|scss|lock|gradle|env|cfg|ini|conf|log|csv|proto|vue|svelte|dart|lua|ex|exs|zig|nix)(?-u:\b)",
    )
});
static HTTP_STATUS: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)(?-u:\b)(?:HTTP(?:/\d(?:\.\d)?)?|status(?:\s+code)?:?)\s+([1-5]\d\d)(?-u:\b)")
});
static EXIT_CODE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)(?-u:\b)exit(?:ed)?\s+(?:with\s+)?(?:code|status)\s*:?\s*(-?\d+)(?-u:\b)")
});
static ERROR_CODE: LazyLock<Regex> = LazyLock::new(|| re(r"(?-u:\b)[A-Z]{1,4}\d{3,5}(?-u:\b)"));
static ERRNO: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?-u:\b)(?:ENOENT|EACCES|EPERM|EEXIST|EISDIR|ENOTDIR|ENOTEMPTY|EADDRINUSE|EADDRNOTAVAIL|ECONNREFUSED|ECONNRESET|ECONNABORTED|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EPIPE|ENOSPC|EMFILE|ENFILE|EAGAIN|EWOULDBLOCK|EINVAL|EBADF|EBUSY|ENOMEM|EINTR|EIO|ENOTFOUND|EAI_AGAIN|SIGSEGV|SIGKILL|SIGTERM|SIGABRT|SIGINT|OOMKilled)(?-u:\b)",
    )
});
static RUST_PATH: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?-u:\b)[A-Za-z_]\w*(?:::[A-Za-z_]\w*)+(?:\(\))?"));
static CALL: LazyLock<Regex> = LazyLock::new(|| re(r"(?-u:\b)[A-Za-z_][\w.]*\(\)"));
static DOTTED: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?-u:\b)[A-Za-z_]\w+(?:\.[A-Za-z_]\w+)+(?-u:\b)"));
static FLAG: LazyLock<Regex> = LazyLock::new(|| re(r#"(?:^|[\s("'`=\[])(--[A-Za-z0-9][\w-]*)"#));
static VERSION: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?-u:\b)v?\d+\.\d+\.\d+(?:[-+][0-9A-Za-z][\w.]*)?(?-u:\b)"));
static PERCENT: LazyLock<Regex> = LazyLock::new(|| re(r"(?-u:\b)\d+(?:\.\d+)?%"));
static HEX: LazyLock<Regex> = LazyLock::new(|| re(r"(?-u:\b)0x[0-9a-fA-F]+(?-u:\b)"));
static THOUSANDS: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?-u:\b)\d{1,3}(?:,\d{3})+(?:\.\d+)?(?-u:\b)"));
static DECIMAL: LazyLock<Regex> = LazyLock::new(|| re(r"(?-u:\b)\d+\.\d+(?-u:\b)"));
static INTEGER: LazyLock<Regex> = LazyLock::new(|| re(r"(?-u:\b)\d{2,}(?-u:\b)"));
static SNAKE: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?-u:\b)_*[A-Za-z][A-Za-z0-9]*(?:_+[A-Za-z0-9]+)+_*(?-u:\b)"));
static CAMEL: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?-u:\b)[a-z]+[0-9]*(?:[A-Z][a-z0-9]*)+(?-u:\b)"));
static PASCAL: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?-u:\b)[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+(?-u:\b)"));

/// What a matcher does with its matches.
#[derive(Clone, Copy)]
enum Take {
    /// The whole match is the term; blank it out so later matchers do not split it up
    /// (`main.rs` inside `src/main.rs`, `1.2` inside `1.2.3`).
    WholeMasked,
    /// The whole match, leaving the text for later matchers.
    Whole,
    /// Capture group 1, masked (the group excludes a boundary character).
    GroupMasked,
    /// A normalised spelling built from capture group 1 (`status 404` → `HTTP 404`).
    Normalised(&'static str),
}

/// What a term needs after it was cut out.
#[derive(Clone, Copy)]
enum Post {
    None,
    /// Drop slash-words that are not paths.
    Path,
    /// `3,214` → `3214`.
    Thousands,
}

/// Terms whose loss or invention a reader of a squash would care about: file paths
/// (`src/main.rs`, `./a/b.ts`, `/etc/x`, `C:\x`, `main.ts`), technical identifiers
/// (`snake_case`, `camelCase`, `PascalCase`, `dotted.names`, `foo()`, `std::env::var`,
/// `--flags`), numbers of two or more digits, decimals, versions (`1.2.3`), percentages, hex,
/// URLs, error codes (`E0308`, `TS2345`, `ENOENT`, `HTTP 404`, `exit code 1`) and backticked
/// spans. Trailing punctuation is stripped; thousands separators are dropped from numbers
/// (`3,214` → `3214`) and status and exit codes get one spelling, so that the same fact written
/// two ways is one term.
pub fn salient_terms(text: &str) -> BTreeSet<String> {
    let mut terms = BTreeSet::new();
    // Masking replaces bytes with spaces one for one, so offsets stay valid and the text stays
    // UTF-8 (a match always starts and ends on a character boundary).
    let mut work = text.to_owned();
    let mut noise: Vec<std::ops::Range<usize>> = Vec::new();
    for regex in [&*OMISSION_MARKER, &*LINE_NUMBER] {
        noise.extend(
            regex
                .captures_iter(&work)
                .filter_map(|c| c.get(1).or_else(|| c.get(0)).map(|m| m.range())),
        );
    }
    let mut line_start = 0;
    for line in work.split_inclusive('\n') {
        if line.starts_with("Called ") {
            noise.extend(CALL_ARG_NAME.captures_iter(line).filter_map(|c| {
                c.get(1)
                    .map(|m| line_start + m.start()..line_start + m.end())
            }));
        }
        line_start += line.len();
    }
    for range in noise {
        work.replace_range(range.clone(), &" ".repeat(range.len()));
    }
    // Order matters: a matcher that masks hides its matches from every matcher after it.
    let matchers: [(&Regex, Take, Post); 22] = [
        (&URL, Take::WholeMasked, Post::None),
        (&BACKTICKED, Take::Normalised("{}"), Post::None),
        (&WINDOWS_PATH, Take::WholeMasked, Post::None),
        (&UNIX_PATH, Take::GroupMasked, Post::Path),
        (&HTTP_STATUS, Take::Normalised("HTTP {}"), Post::None),
        (&EXIT_CODE, Take::Normalised("exit code {}"), Post::None),
        (&ERROR_CODE, Take::Whole, Post::None),
        (&ERRNO, Take::Whole, Post::None),
        (&RUST_PATH, Take::WholeMasked, Post::None),
        (&CALL, Take::WholeMasked, Post::None),
        (&FILE_NAME, Take::WholeMasked, Post::None),
        (&DOTTED, Take::WholeMasked, Post::None),
        (&FLAG, Take::GroupMasked, Post::None),
        (&VERSION, Take::WholeMasked, Post::None),
        (&PERCENT, Take::WholeMasked, Post::None),
        (&HEX, Take::WholeMasked, Post::None),
        (&THOUSANDS, Take::WholeMasked, Post::Thousands),
        (&DECIMAL, Take::WholeMasked, Post::None),
        (&INTEGER, Take::Whole, Post::None),
        (&SNAKE, Take::WholeMasked, Post::None),
        (&CAMEL, Take::WholeMasked, Post::None),
        (&PASCAL, Take::WholeMasked, Post::None),
    ];
    for (regex, take, post) in matchers {
        let mut masks = Vec::new();
        for caps in regex.captures_iter(&work) {
            let (term, range) = match take {
                Take::WholeMasked | Take::Whole => {
                    let Some(m) = caps.get(0) else { continue };
                    (m.as_str().to_owned(), m.range())
                }
                Take::GroupMasked => {
                    let Some(m) = caps.get(1) else { continue };
                    (m.as_str().to_owned(), m.range())
                }
                Take::Normalised(template) => {
                    let Some(m) = caps.get(1) else { continue };
                    let Some(whole) = caps.get(0) else { continue };
                    (template.replace("{}", m.as_str()), whole.range())
                }
            };
            let Some(term) = normalise_term(&term, post) else {
                continue;
            };
            terms.insert(term);
            if matches!(take, Take::WholeMasked | Take::GroupMasked) {
                masks.push(range);
            }
        }
        for range in masks {
            work.replace_range(range.clone(), &" ".repeat(range.len()));
        }
    }
    terms
}

fn normalise_term(raw: &str, post: Post) -> Option<String> {
    let mut term = raw
        .trim()
        .trim_start_matches(['(', '[', '{', '"', '\'', '<'])
        .trim_end_matches(['.', ',', ';', ':', '!', '?', '"', '\'', '>'])
        .to_owned();
    // A closing bracket belongs to the term only when the term opened it (`foo()`,
    // `https://en.wikipedia.org/wiki/Rust_(language)`).
    for (open, close) in [('(', ')'), ('[', ']'), ('{', '}')] {
        while term.ends_with(close) && term.matches(close).count() > term.matches(open).count() {
            term.pop();
            term = term
                .trim_end_matches(['.', ',', ';', ':', '!', '?'])
                .to_owned();
        }
    }
    match post {
        Post::Path if !is_plausible_path(&term) => return None,
        Post::Thousands => term.retain(|c| c != ','),
        _ => {}
    }
    (term.chars().count() >= 2).then_some(term)
}

/// `and/or`, `TCP/IP` and `3/4` have a slash but are not paths; a path starts at a root
/// (`/`, `./`, `../`, `~/`), ends in a file name with an extension, or has two or more slashes.
fn is_plausible_path(term: &str) -> bool {
    if term.chars().all(|c| c == '/' || c == '.') {
        return false;
    }
    let rooted = ["/", "./", "../", "~/"].iter().any(|p| term.starts_with(p));
    let last = term.rsplit('/').next().unwrap_or("");
    let has_extension = last.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty() && ext.chars().any(|c| c.is_ascii_alphabetic())
    });
    rooted || has_extension || term.matches('/').count() >= 2
}

/// `term` occurs in `text` as a whole: not as part of a longer word or number (`42` is not in
/// `1420`, `foo` is not in `foo_bar`).
fn contains_term(text: &str, term: &str) -> bool {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let starts_word = term.chars().next().is_some_and(is_word);
    let ends_word = term.chars().next_back().is_some_and(is_word);
    text.match_indices(term).any(|(at, _)| {
        let before_ok = !starts_word || text[..at].chars().next_back().is_none_or(|c| !is_word(c));
        let after_ok = !ends_word
            || text[at + term.len()..]
                .chars()
                .next()
                .is_none_or(|c| !is_word(c));
        before_ok && after_ok
    })
}

// ---------------------------------------------------------------------------------------------
// Quality report

/// How a squash result compares with the messages it replaces.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QualityReport {
    /// Characters (not bytes) of the messages' text.
    pub input_chars: u64,
    /// Characters of the result.
    pub output_chars: u64,
    /// Estimates ([`estimate_tokens`]), not the provider's counts.
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Output over input characters; 0 when the input is empty.
    pub char_ratio: f64,
    /// Output over input estimated tokens; 0 when the input is empty.
    pub token_ratio: f64,
    /// Salient terms of the input that the output still has, in input order.
    pub kept: Vec<String>,
    /// Salient terms of the input that the output lost, in input order.
    pub dropped: Vec<String>,
    /// Salient terms of the output that the input never had (possible inventions), in output
    /// order.
    pub introduced: Vec<String>,
    /// The fact ledger against the result; `None` for a report made without a ledger.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facts: Option<FactReport>,
    /// How many repair requests were sent after the first answer.
    #[serde(default)]
    pub repairs: u32,
    /// Set when another style stood in for the one asked for (the extractive squash after
    /// unusable answers).
    #[serde(default)]
    pub fallback: Option<Fallback>,
    /// The size limit of a selection of 200 tokens or more, and what was applied.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<SizeLimit>,
}

/// Compares a squash result with the text of the messages it replaces (use
/// [`messages_text`](crate::prompt::messages_text), the text the model saw).
///
/// A term counts as kept when the output has it as a term or contains it as a whole word
/// (`src/main.rs` is kept by "fixed src/main.rs:42"), and as introduced only when the input
/// contains it neither way (`main.rs` is not new when the input said `src/main.rs`).
pub fn quality_report(input_text: &str, output_text: &str) -> QualityReport {
    let input_terms = salient_terms(input_text);
    let output_terms = salient_terms(output_text);
    let (kept, dropped): (Vec<String>, Vec<String>) = in_text_order(&input_terms, input_text)
        .into_iter()
        .partition(|t| output_terms.contains(t) || contains_term(output_text, t));
    let introduced = in_text_order(&output_terms, output_text)
        .into_iter()
        .filter(|t| !input_terms.contains(t) && !contains_term(input_text, t))
        .collect();
    let input_chars = input_text.chars().count() as u64;
    let output_chars = output_text.chars().count() as u64;
    let input_tokens = estimate_tokens(input_text);
    let output_tokens = estimate_tokens(output_text);
    let ratio = |out: u64, inp: u64| {
        if inp == 0 {
            0.0
        } else {
            out as f64 / inp as f64
        }
    };
    QualityReport {
        input_chars,
        output_chars,
        input_tokens,
        output_tokens,
        char_ratio: ratio(output_chars, input_chars),
        token_ratio: ratio(output_tokens, input_tokens),
        kept,
        dropped,
        introduced,
        facts: None,
        repairs: 0,
        fallback: None,
        size: None,
    }
}

/// Terms in the order they first appear in `text` — the order of the conversation, which
/// reads better than the alphabet. Normalised spellings (`HTTP 404`) that do not occur
/// literally go last, alphabetically.
fn in_text_order(terms: &BTreeSet<String>, text: &str) -> Vec<String> {
    let mut placed: Vec<(usize, &String)> = terms
        .iter()
        .map(|t| (text.find(t.as_str()).unwrap_or(usize::MAX), t))
        .collect();
    placed.sort();
    placed.into_iter().map(|(_, t)| t.clone()).collect()
}

/// How many terms a one-line summary lists before "and N more".
const RENDER_MAX_TERMS: usize = 8;

impl QualityReport {
    /// Share of the input's salient terms the output kept; 1.0 when the input had none.
    pub fn salient_recall(&self) -> f64 {
        let total = self.kept.len() + self.dropped.len();
        if total == 0 {
            1.0
        } else {
            self.kept.len() as f64 / total as f64
        }
    }

    /// One line for a person: "compressed 4,210 → 612 chars (14.5%), ~1,052 → ~153 tokens;
    /// kept 12/14 salient terms; dropped: src/b.rs, 42; new: foo_bar".
    pub fn render(&self) -> String {
        let mut out = format!(
            "compressed {} → {} chars ({:.1}%), ~{} → ~{} tokens",
            format_count(self.input_chars),
            format_count(self.output_chars),
            self.char_ratio * 100.0,
            format_count(self.input_tokens),
            format_count(self.output_tokens),
        );
        let total = self.kept.len() + self.dropped.len();
        if total == 0 {
            out.push_str("; no salient terms");
        } else {
            out.push_str(&format!(
                "; kept {}/{} salient terms",
                self.kept.len(),
                total
            ));
        }
        if let Some(facts) = &self.facts {
            out.push_str(&format!(
                "; facts: {}/{} stated",
                facts.stated(),
                facts.total
            ));
            if !facts.restored.is_empty() {
                out.push_str(&format!(
                    " ({} restored under \"Details\")",
                    facts.restored.len()
                ));
            }
            if !facts.invented.is_empty() {
                let terms: Vec<String> = facts.invented.iter().map(|t| t.term.clone()).collect();
                out.push_str(&format!("; invented and removed: {}", list_terms(&terms)));
            }
        }
        if self.repairs > 0 {
            out.push_str(&format!("; {} repair request(s)", self.repairs));
        }
        if let Some(fallback) = &self.fallback {
            out.push_str(&format!(
                "; fell back to the {} style: {}",
                fallback.style, fallback.reason
            ));
        }
        if let Some(size) = self.size.filter(SizeLimit::exceeded) {
            out.push_str(&format!(
                "; over the size limit: the facts alone need ~{} tokens (the limit is ~{}, \
                 {}% of the selection)",
                format_count(size.applied_tokens),
                format_count(size.limit_tokens),
                crate::ledger::SIZE_LIMIT_PERCENT
            ));
        }
        if !self.dropped.is_empty() {
            out.push_str(&format!("; dropped: {}", list_terms(&self.dropped)));
        }
        if !self.introduced.is_empty() {
            out.push_str(&format!("; new: {}", list_terms(&self.introduced)));
        }
        out
    }
}

impl fmt::Display for QualityReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

fn list_terms(terms: &[String]) -> String {
    let mut out = terms
        .iter()
        .take(RENDER_MAX_TERMS)
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ");
    if terms.len() > RENDER_MAX_TERMS {
        out.push_str(&format!(" and {} more", terms.len() - RENDER_MAX_TERMS));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const INPUT: &str = "Find all TypeScript files under src/ and check them for type errors.\n\n\
        Called Grep(pattern=\"**/*.ts\", path=\"src\")\n\n\
        Grep returned:\nsrc/main.ts\nsrc/util/format.ts\nsrc/api/client.ts\n(42 files)\n\n\
        Called Bash(command=\"npx tsc --noEmit\")\n\n\
        Bash failed:\nsrc/main.ts(12,5): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.\n\
        src/main.ts(30,1): error TS2304: Cannot find name 'fetchUser'.\n\
        Found 3 errors. Process exited with code 2.";

    fn terms(text: &str) -> Vec<String> {
        salient_terms(text).into_iter().collect()
    }

    // --- clean_output ------------------------------------------------------------------------

    #[test]
    fn clean_strips_common_preambles() {
        let body = "Found 42 TypeScript files; tsc reports 3 errors in src/main.ts.";
        for raw in [
            format!("Here is the compressed message:\n\n{body}"),
            format!("Here's a concise summary:\n{body}"),
            format!("Compressed message: {body}"),
            format!("Sure! Here is the squashed version of the messages:\n\n{body}"),
            format!("Certainly.\nHere it is:\n{body}"),
            format!("**Compressed message:**\n\n{body}"),
            format!("## Summary\n\n{body}"),
            format!("Summary: {body}"),
            format!("Here’s the compressed text:\n{body}"),
            format!("  \n\n{body}\n\n  "),
            format!("```\n{body}\n```"),
            format!("```text\n{body}\n```"),
            format!("Here is the compressed message:\n```markdown\n{body}\n```"),
            format!("<compressed>\n{body}\n</compressed>"),
            format!("<message>{body}</message>"),
            format!("<Summary>{body}</Summary>"),
            format!("<result>\n{body}\n</RESULT>"),
            format!("{body}\n\nLet me know if you'd like any changes!"),
            format!("Sure!\n\n{body}\n\nI hope this helps."),
        ] {
            assert_eq!(clean_output(&raw).as_deref(), Ok(body), "{raw:?}");
        }
    }

    #[test]
    fn clean_keeps_content_that_only_looks_like_a_preamble() {
        for raw in [
            "Here's the fix: change `parse()` to return Result<u64, ParseError>.",
            "Result: all 212 tests pass after the fix in src/lib.rs.",
            "```rust\nfn main() {}\n```",
            "```\na\n```\nthen\n```\nb\n```",
            "I merged the branch and pushed it to origin/main.",
            "The message queue was compressed with zstd to 40% of its size.",
            "Sure enough, the cache was stale: clearing ~/.cache/app fixed it.",
        ] {
            assert_eq!(clean_output(raw).as_deref(), Ok(raw), "{raw:?}");
        }
    }

    #[test]
    fn clean_refuses_empty_and_meta_only_answers() {
        assert_eq!(clean_output(""), Err(OutputProblem::Empty));
        assert_eq!(clean_output(" \n\t "), Err(OutputProblem::Empty));
        for raw in [
            "Here is the compressed message:",
            "Sure!",
            "```\n\n```",
            "<compressed></compressed>",
            "I have compressed the messages above into a single message.",
            "I'll squash these messages for you.",
            "The messages have been compressed.",
            "Let me know if you need anything else!",
        ] {
            assert_eq!(clean_output(raw), Err(OutputProblem::MetaOnly), "{raw:?}");
        }
    }

    #[test]
    fn clean_never_slices_inside_a_character() {
        for raw in [
            "<message>é",
            "é</message>",
            "<summary>",
            "</summary>",
            "<summary></summary>",
            "İ<message>İ</message>",
        ] {
            let _ = clean_output(raw);
        }
        assert_eq!(
            clean_output("<message>日本</message>").as_deref(),
            Ok("日本")
        );
    }

    #[test]
    fn clean_handles_unicode() {
        assert_eq!(
            clean_output("Here is the compressed message:\n修复了 src/main.rs 中的 3 个错误 ✓")
                .as_deref(),
            Ok("修复了 src/main.rs 中的 3 个错误 ✓")
        );
    }

    // --- guard_output ------------------------------------------------------------------------

    #[test]
    fn guard_accepts_a_real_compression() {
        let out = "Found 42 TypeScript files in src/; `npx tsc --noEmit` reports 3 errors in \
                   src/main.ts (TS2345 at 12:5, TS2304 `fetchUser` undefined at 30:1).";
        assert_eq!(guard_output(INPUT, out), Ok(()));
        assert_eq!(
            check_output(INPUT, &format!("Compressed message:\n{out}")).as_deref(),
            Ok(out)
        );
    }

    #[test]
    fn guard_refuses_output_not_shorter() {
        let err = guard_output("short input", "a somewhat longer output").unwrap_err();
        assert_eq!(
            err,
            OutputProblem::NotShorter {
                input_chars: 11,
                output_chars: 24
            }
        );
        assert_eq!(
            err.to_string(),
            "the model's answer is longer than the messages it should compress (24 vs 11 \
             characters); nothing was applied"
        );
        assert_eq!(err.class(), "not_shorter");
        let same = guard_output("same", "same").unwrap_err();
        assert!(
            same.to_string().contains("is as long as the messages"),
            "{same}"
        );
        let big = OutputProblem::NotShorter {
            input_chars: 987,
            output_chars: 1_234,
        };
        assert!(big.to_string().contains("(1,234 vs 987 characters)"));
    }

    #[test]
    fn guard_refuses_refusals() {
        for out in [
            "I'm sorry, but I can't help with that request.",
            "Sorry, I cannot compress these messages.",
            "As an AI language model, I don't have access to those files.",
            "I cannot help with this.",
            "I apologize, but I am unable to process this content.",
            "I’m sorry, but I can’t do that.",
        ] {
            let err = guard_output(INPUT, out).unwrap_err();
            assert_eq!(err.class(), "refusal", "{out}");
        }
        let err = guard_output(INPUT, "I'm sorry, but I can't help with that.").unwrap_err();
        assert_eq!(
            err.to_string(),
            "the model refused to compress the messages (\"I'm sorry, but I can't help with \
             that.\"); nothing was applied"
        );
    }

    #[test]
    fn guard_accepts_first_person_content_that_is_no_refusal() {
        let input = "User: I cannot reproduce the crash on macOS 14.2, can you check the logs? \
                     Assistant: I checked them: the crash is a null deref in src/render.rs:88, \
                     fixed by guarding `frame.surface`. I'm unable to test on macOS myself.";
        for out in [
            "I cannot reproduce the crash on macOS 14.2; it was a null deref in src/render.rs:88, fixed.",
            "I am unable to reproduce the crash; fixed a null deref in src/render.rs:88.",
        ] {
            assert_eq!(guard_output(input, out), Ok(()), "{out}");
        }
        // The same words the user wrote are no refusal either.
        let input =
            "I'm sorry, but I can't make the meeting; notes follow. We chose PostgreSQL 16.";
        assert_eq!(
            guard_output(input, "I'm sorry, but I can't make the meeting."),
            Ok(())
        );
    }

    #[test]
    fn guard_refuses_echoed_markup() {
        for (out, markup) in [
            (
                "<messages_to_squash>found 42 files</messages_to_squash>",
                "<messages_to_squash>",
            ),
            (
                "<message index=\"1\" role=\"user\">find files",
                "<message index=",
            ),
            ("Found 42 files.</message>", "</message>"),
            ("<rules>keep it short</rules> 42 files", "<rules>"),
            ("<TASK>", "<TASK>"),
        ] {
            assert_eq!(
                guard_output(INPUT, out),
                Err(OutputProblem::EchoedMarkup {
                    markup: markup.to_owned()
                }),
                "{out}"
            );
        }
        // A conversation about prompts may name the tags itself.
        let input =
            "Wrap the rules in <rules> tags and the goal in <task> tags, like the spec does.";
        assert_eq!(guard_output(input, "Use <rules> and <task> tags."), Ok(()));
    }

    #[test]
    fn guard_refuses_repeated_lines() {
        let line = "Fixed the type error in src/main.ts.";
        let out = format!("Summary of work:\n{line}\n{line}\n{line}\n{line}");
        let input = "x".repeat(1_000);
        let err = guard_output(&input, &out).unwrap_err();
        assert_eq!(
            err,
            OutputProblem::Looping {
                repeated: line.to_owned(),
                times: 4
            }
        );
        assert_eq!(
            err.to_string(),
            "the model's answer repeats itself (\"Fixed the type error in src/main.ts.\" \
             appears 4 times); nothing was applied"
        );
    }

    #[test]
    fn guard_refuses_repeated_sentences_on_one_line() {
        let sentence = "The build passes on CI now.";
        let out = format!("{sentence} {sentence} {sentence}");
        let err = guard_output(&"y".repeat(1_000), &out).unwrap_err();
        assert_eq!(err.class(), "looping");
    }

    #[test]
    fn guard_refuses_reworded_loops_by_shingles() {
        // Same 12-word run, broken differently across lines each time.
        let run = "the parser reads the config file and then the parser reads the config file";
        let out = format!("{run} again\n{run},\n{run}; {run}");
        let input: String = (0..300).map(|i| format!("step {i} done; ")).collect();
        let err = guard_output(&input, &out).unwrap_err();
        assert_eq!(err.class(), "looping", "{err}");
    }

    #[test]
    fn guard_refuses_degenerate_character_loops() {
        let out = format!("Fixed it{}", "!".repeat(300));
        let err = guard_output(&"w".repeat(2_000), &out).unwrap_err();
        assert_eq!(
            err,
            OutputProblem::Looping {
                repeated: "!".into(),
                times: 300
            }
        );
        let out = format!("Result: {}", "ab12".repeat(80));
        assert_eq!(
            guard_output(&"w".repeat(2_000), &out).unwrap_err().class(),
            "looping"
        );
        // Padding is not a loop.
        assert_eq!(
            guard_output(&"w".repeat(2_000), &format!("a{}b", " ".repeat(400))),
            Ok(())
        );
    }

    #[test]
    fn guard_tolerates_repetition_the_input_had() {
        let log_line = "WARN pool exhausted, retrying in 500ms";
        let input = format!(
            "{}\nthen it recovered after 12 retries",
            format!("{log_line}\n").repeat(12)
        );
        let out = format!("{log_line}\n{log_line}\n{log_line}\nRecovered after 12 retries.");
        assert_eq!(guard_output(&input, &out), Ok(()));
    }

    #[test]
    fn guard_accepts_lists_of_similar_lines() {
        let out = "- Fixed TS2345 in src/main.ts:12\n- Fixed TS2304 in src/main.ts:30\n\
                   - Fixed TS2322 in src/util/format.ts:7";
        assert_eq!(guard_output(INPUT, out), Ok(()));
    }

    #[test]
    fn guard_refuses_empty() {
        assert_eq!(guard_output(INPUT, "  "), Err(OutputProblem::Empty));
    }

    #[test]
    fn every_problem_has_a_class_and_plain_message() {
        let problems = [
            OutputProblem::Empty,
            OutputProblem::MetaOnly,
            OutputProblem::NotShorter {
                input_chars: 1,
                output_chars: 2,
            },
            OutputProblem::Refusal {
                excerpt: "no".into(),
            },
            OutputProblem::EchoedMarkup {
                markup: "<task>".into(),
            },
            OutputProblem::Looping {
                repeated: "x".into(),
                times: 3,
            },
        ];
        let classes: BTreeSet<&str> = problems.iter().map(OutputProblem::class).collect();
        assert_eq!(classes.len(), problems.len());
        for p in &problems {
            assert!(p.to_string().ends_with("nothing was applied"), "{p}");
        }
    }

    #[test]
    fn check_output_undoes_copied_escaping() {
        let input = "Change the signature to fn parse(s: &str) -> Result<Vec<u8>, Error> and rerun the 212 tests, all of which should pass.";
        assert_eq!(
            check_output(
                input,
                "Changed parse to return Result&lt;Vec&lt;u8&gt;, Error&gt;."
            )
            .as_deref(),
            Ok("Changed parse to return Result<Vec<u8>, Error>.")
        );
    }

    // --- salient_terms -----------------------------------------------------------------------

    #[test]
    fn paths_of_every_shape() {
        let t = terms(
            "Edit src/main.rs, then ./a/b.ts and ../up/c.py; see /etc/nginx/nginx.conf, \
             ~/.config/app.toml and C:\\Users\\me\\app.exe. Also main.ts and util.c.",
        );
        for want in [
            "src/main.rs",
            "./a/b.ts",
            "../up/c.py",
            "/etc/nginx/nginx.conf",
            "~/.config/app.toml",
            "C:\\Users\\me\\app.exe",
            "main.ts",
            "util.c",
        ] {
            assert!(t.contains(&want.to_owned()), "missing {want:?} in {t:?}");
        }
        // A path is one term, not also its file name.
        assert!(!t.contains(&"main.rs".to_owned()), "{t:?}");
    }

    #[test]
    fn slash_words_are_not_paths() {
        let t = terms("Use and/or, TCP/IP and 3/4 of the budget; src/components/ is a dir.");
        assert_eq!(t, ["src/components/"]);
    }

    #[test]
    fn technical_identifiers() {
        let t = terms(
            "Call build_squash_prompt from ConversationService via getUserName, \
             serde_json.to_string and std::env::var; run parse() and self.flush() with \
             --no-emit. MAX_TOKENS is 4096.",
        );
        for want in [
            "build_squash_prompt",
            "ConversationService",
            "getUserName",
            "serde_json.to_string",
            "std::env::var",
            "parse()",
            "self.flush()",
            "--no-emit",
            "MAX_TOKENS",
            "4096",
        ] {
            assert!(t.contains(&want.to_owned()), "missing {want:?} in {t:?}");
        }
        // Plain words, sentence starts and single digits are not terms.
        for not in ["Call", "from", "run", "is", "with"] {
            assert!(!t.contains(&not.to_owned()), "{not:?} in {t:?}");
        }
    }

    #[test]
    fn numbers_versions_and_percentages() {
        let t = terms(
            "Upgraded to 1.95.0 and v0.8.12-beta.1; 3,214 rows (12.5%) took 0.75 s, \
             address 0x7ffe, 42 files, 7 dirs.",
        );
        for want in [
            "1.95.0",
            "v0.8.12-beta.1",
            "3214",
            "12.5%",
            "0.75",
            "0x7ffe",
            "42",
        ] {
            assert!(t.contains(&want.to_owned()), "missing {want:?} in {t:?}");
        }
        for not in ["7", "95", "1.95", "214", "12.5"] {
            assert!(!t.contains(&not.to_owned()), "{not:?} in {t:?}");
        }
    }

    #[test]
    fn urls_and_error_codes() {
        let t = terms(
            "See https://doc.rust-lang.org/error_codes/E0308.html. rustc said E0308, tsc said \
             TS2345, open failed with ENOENT; the API answered HTTP/1.1 503 and later status \
             code 404; make exited with code 2 (exit status: 1).",
        );
        for want in [
            "https://doc.rust-lang.org/error_codes/E0308.html",
            "E0308",
            "TS2345",
            "ENOENT",
            "HTTP 503",
            "HTTP 404",
            "exit code 2",
            "exit code 1",
        ] {
            assert!(t.contains(&want.to_owned()), "missing {want:?} in {t:?}");
        }
    }

    #[test]
    fn url_brackets_and_trailing_punctuation() {
        let t =
            terms("(see https://en.wikipedia.org/wiki/Rust_(language)), or https://x.io/a?b=1.");
        assert!(
            t.contains(&"https://en.wikipedia.org/wiki/Rust_(language)".to_owned()),
            "{t:?}"
        );
        assert!(t.contains(&"https://x.io/a?b=1".to_owned()), "{t:?}");
    }

    #[test]
    fn backticked_spans_are_terms() {
        let t = terms("Run `cargo test -p squash-core` then `make`.");
        assert!(t.contains(&"cargo test -p squash-core".to_owned()), "{t:?}");
        assert!(t.contains(&"make".to_owned()), "{t:?}");
    }

    #[test]
    fn extraction_markup_is_not_a_term() {
        let text = "Called Grep(pattern=\"fn main\", output_mode=\"files_with_matches\")\n\
                    Read returned:\n     1\tuse std::io;\n    12→fn main_loop() {}\n\
                    [… 3,214 characters omitted …]\nSet max_tokens=4096, retry_count=3.";
        let t = terms(text);
        assert_eq!(
            t,
            [
                "4096",
                "files_with_matches",
                "main_loop()",
                "max_tokens",
                "retry_count",
                "std::io"
            ],
            "{t:?}"
        );
    }

    #[test]
    fn terms_of_nothing_and_of_unicode() {
        assert!(salient_terms("").is_empty());
        assert!(salient_terms("Just a friendly chat about the weather.").is_empty());
        let t = terms("Файл src/главный.rs содержит 404 ошибки — ✓ 日本語 config_値");
        assert!(t.contains(&"src/главный.rs".to_owned()), "{t:?}");
        assert!(t.contains(&"404".to_owned()), "{t:?}");
    }

    #[test]
    fn terms_of_very_long_text() {
        let text: String = (0..5_000)
            .map(|i| format!("line {i}: call handler_{i}() in src/mod_{i}.rs\n"))
            .collect();
        let t = salient_terms(&text);
        assert!(t.contains("src/mod_4999.rs"));
        assert!(t.contains("handler_4999()"));
    }

    // --- quality_report ----------------------------------------------------------------------

    #[test]
    fn report_sorts_terms_into_kept_dropped_and_introduced() {
        let out = "Found 42 TypeScript files; `npx tsc --noEmit` failed with TS2345 and TS2304 \
                   in src/main.ts (exit code 2). Suggest fixing parse_user.";
        let r = quality_report(INPUT, out);
        for kept in [
            "42",
            "TS2345",
            "TS2304",
            "src/main.ts",
            "exit code 2",
            "--noEmit",
            "TypeScript",
        ] {
            assert!(
                r.kept.contains(&kept.to_owned()),
                "{kept:?} not kept: {r:?}"
            );
        }
        for dropped in ["src/util/format.ts", "src/api/client.ts", "fetchUser"] {
            assert!(
                r.dropped.contains(&dropped.to_owned()),
                "{dropped:?} not dropped: {r:?}"
            );
        }
        assert_eq!(r.introduced, ["parse_user"]);
        assert!(r.salient_recall() > 0.0 && r.salient_recall() < 1.0);
        assert_eq!(r.input_chars, INPUT.chars().count() as u64);
        assert!(r.char_ratio < 1.0 && r.token_ratio < 1.0);
        let sum = r.kept.len() + r.dropped.len();
        assert_eq!(sum, salient_terms(INPUT).len());
    }

    #[test]
    fn shortened_terms_are_not_inventions() {
        // `main.ts` is in the input (inside `src/main.ts`); 3 errors is a single digit.
        let r = quality_report(INPUT, "3 errors in main.ts");
        assert!(r.introduced.is_empty(), "{r:?}");
        assert!(r.dropped.contains(&"src/main.ts".to_owned()));
    }

    #[test]
    fn numbers_match_as_whole_numbers_only() {
        let r = quality_report("It took 42 seconds.", "It took 1420 ms.");
        assert_eq!(r.dropped, ["42"]);
        assert_eq!(r.introduced, ["1420"]);
        let r = quality_report("3,214 characters", "3214 chars");
        assert_eq!(r.kept, ["3214"]);
    }

    #[test]
    fn report_renders_one_line() {
        let r = QualityReport {
            input_chars: 4_210,
            output_chars: 612,
            input_tokens: 1_052,
            output_tokens: 153,
            char_ratio: 612.0 / 4_210.0,
            token_ratio: 153.0 / 1_052.0,
            kept: (0..12).map(|i| format!("t{i:02}")).collect(),
            dropped: vec!["src/b.rs".into(), "42".into()],
            introduced: vec!["foo_bar".into()],
            facts: None,
            repairs: 0,
            fallback: None,
            size: None,
        };
        assert_eq!(
            r.render(),
            "compressed 4,210 → 612 chars (14.5%), ~1,052 → ~153 tokens; kept 12/14 salient \
             terms; dropped: src/b.rs, 42; new: foo_bar"
        );
        assert_eq!(r.to_string(), r.render());
        assert!((r.salient_recall() - 12.0 / 14.0).abs() < 1e-9);
    }

    #[test]
    fn long_term_lists_are_capped() {
        let r = QualityReport {
            input_chars: 10,
            output_chars: 5,
            input_tokens: 3,
            output_tokens: 2,
            char_ratio: 0.5,
            token_ratio: 0.67,
            kept: vec![],
            dropped: (0..11).map(|i| format!("d{i:02}")).collect(),
            introduced: vec![],
            facts: None,
            repairs: 0,
            fallback: None,
            size: None,
        };
        assert!(
            r.render()
                .ends_with("dropped: d00, d01, d02, d03, d04, d05, d06, d07 and 3 more"),
            "{}",
            r.render()
        );
    }

    #[test]
    fn report_of_empty_texts() {
        let r = quality_report("", "");
        assert_eq!(r.char_ratio, 0.0);
        assert_eq!(r.salient_recall(), 1.0);
        assert_eq!(
            r.render(),
            "compressed 0 → 0 chars (0.0%), ~0 → ~0 tokens; no salient terms"
        );
    }

    #[test]
    fn report_round_trips_through_json() {
        let r = quality_report(INPUT, "Found 42 files; 3 errors in src/main.ts.");
        let json = serde_json::to_string(&r).unwrap();
        let back: QualityReport = serde_json::from_str(&json).unwrap();
        assert_eq!(back, r);
    }

    #[test]
    fn a_copied_message_is_refused_but_a_quoted_line_is_not() {
        let input = "The build fails with error E0308 in src/main.rs line 42.\n\n\
                     Let me check src/main.rs. The mismatched type comes from load_config.\n\n\
                     Fixed E0308: load_config now returns Result<Config, Error>.";
        let copied =
            "```\nLet me check   src/main.rs. The mismatched type comes from load_config.\n```";
        assert_eq!(
            check_output(input, copied).map_err(|p| p.class()),
            Err("copied_part")
        );
        // Short verbatim answers and real compressions pass.
        assert!(check_output(input, "Fixed E0308.").is_ok());
        assert!(check_output(
            input,
            "E0308 in src/main.rs fixed: load_config returns Result<Config, Error>."
        )
        .is_ok());
    }
}
