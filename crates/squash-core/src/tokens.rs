//! Token estimates, for refusing a squash that cannot fit before spending seconds (and money)
//! on a call that the provider would reject anyway. The context windows of known models are
//! squash-llm's table (`squash_llm::context_window_for`).
//!
//! The numbers here are estimates on purpose: the domain knows no tokenizer (each provider has
//! its own, and shipping BPE tables would make this crate heavy). The provider's own count, when
//! it reports one, is what gets recorded as usage.

use std::fmt;

use crate::message::{ContentItem, ImageSource, Message, Role, ToolResultData};
use crate::render;

/// What an image costs: about what the providers charge for a large one (Anthropic: width ×
/// height / 750, capped near 1,600 for a 1.15-megapixel image; OpenAI's high detail is less).
/// The pixels are not known here, so every image is priced at the cap: erring high, as the
/// text estimate does.
pub const IMAGE_TOKENS: u64 = 1_600;

/// Framing a message costs besides its text: the role marker and the turn's start and end
/// tokens of the chat template (`<|im_start|>assistant\n…<|im_end|>\n` is 4–5 tokens in
/// ChatML; the Anthropic and OpenAI APIs bill a similar few per message).
pub const MESSAGE_OVERHEAD: u64 = 4;

/// A cheap estimate of how many tokens `text` costs a typical BPE tokenizer (OpenAI's
/// `cl100k`/`o200k`, Anthropic's, Llama 3's, Qwen's — they land within ~20% of each other).
///
/// Why not `bytes / 4` (codex-rs's rule)? It is fine for English prose but undercounts the
/// text a squash sees most: code, paths, JSON and logs cost one token per ~2.5–3 bytes because
/// punctuation rarely merges, and CJK text costs about one token per character (3 bytes).
/// So the text is walked once and each run of characters is priced by its class:
///
/// - ASCII letter runs: one token, plus one per 6 letters after the first ("the" = 1,
///   "function" = 2, "implementation" = 3) — above real vocabularies, which hold many long
///   English words whole, and close for identifiers, which split at case changes.
/// - digit runs: one token per started 3 digits (`cl100k`, `o200k` and Llama 3 split numbers
///   into groups of three).
/// - ASCII punctuation runs: one token per started 3 characters (`();` → 1, `")?;` → 2).
/// - whitespace: a single space is free (it merges into the next word); a line break or an
///   indentation run costs 1.
/// - CJK characters (Han, kana, Hangul): 1 each; other non-ASCII letters (accents, Cyrillic,
///   Greek, Arabic …): one per started 2; other symbols 1, emoji and pictographs 2.
///
/// The result is never below `bytes / 4`, so it is at least as safe as that rule everywhere.
/// Measured against `cl100k` on prose, Rust, Python, TOML, JSON, compiler logs, German,
/// Russian, Chinese and emoji samples it lands at 0.88–1.24× the real count, mostly 1.1–1.2×
/// (`bytes / 4`: 0.54–1.18×). It errs high on purpose, which is the right side for a context-window check:
/// refusing a squash that would just have fit costs a retry with fewer messages; sending one
/// that does not fit costs a failed call, and Anthropic's tokenizer counts more than `cl100k`.
/// Random base64 is the known weak spot (~0.5×); the prompt never carries it, tool results
/// show binary data as a placeholder.
pub fn estimate_tokens(text: &str) -> u64 {
    if text.is_ascii() {
        return ascii_tokens(text.as_bytes()).max(text.len() as u64 / 4);
    }
    // Walked by byte, not by `char`: nearly every byte of what a session holds is ASCII, also
    // in a text with other characters (a file read has `12→` on every line), and a fit
    // estimates every output of a session (tens of MB). Each ASCII stretch is counted as ASCII
    // text is; only the runs that start on another character are decoded, and classed as
    // `CharClass::of` says, so the count is the same as a walk by `char` (tested against one).
    let bytes = text.as_bytes();
    let mut tokens: u64 = 0;
    let mut i = 0;
    while i < bytes.len() {
        let stretch = bytes[i..]
            .iter()
            .position(|b| !b.is_ascii())
            .unwrap_or(bytes.len() - i);
        let end = i + stretch;
        // Spaces that end a stretch may go on in a non-ASCII space: they start the run below.
        let open = if end < bytes.len() {
            bytes[i..end]
                .iter()
                .rev()
                .take_while(|&&b| ASCII_CLASSES[usize::from(b)] == CharClass::Space)
                .count()
        } else {
            0
        };
        tokens += ascii_tokens(&bytes[i..end - open]);
        i = end - open;
        if i < bytes.len() {
            let (run, next) = run_at(text, i);
            tokens += run;
            i = next;
        }
    }
    tokens.max(text.len() as u64 / 4)
}

/// The tokens of the run of one class that starts at byte `i` of `text` (a character
/// boundary), and where the next run starts.
fn run_at(text: &str, mut i: usize) -> (u64, usize) {
    let bytes = text.as_bytes();
    let (class, width) = class_at(text, i);
    let mut has_newline = bytes[i] == b'\n';
    i += width;
    let mut len: u64 = 1;
    // CJK and symbols are priced per character, so they never form runs.
    if matches!(
        class,
        CharClass::Letter | CharClass::Digit | CharClass::Punct
    ) {
        // Classes of ASCII alone: their runs are counted in bytes.
        let run = bytes[i..]
            .iter()
            .position(|&b| !b.is_ascii() || ASCII_CLASSES[usize::from(b)] != class)
            .unwrap_or(bytes.len() - i);
        len += run as u64;
        i += run;
    } else if class.forms_runs() {
        while i < bytes.len() {
            let (next, width) = class_at(text, i);
            if next != class {
                break;
            }
            has_newline |= bytes[i] == b'\n';
            len += 1;
            i += width;
        }
    }
    (class.run_tokens(len, has_newline), i)
}

/// [`estimate_tokens`] of ASCII text (nearly all a session holds), before its floor: every
/// character's class is a table look-up and no run needs decoding, so the walk is one tight
/// loop per run.
fn ascii_tokens(bytes: &[u8]) -> u64 {
    let mut tokens = 0;
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        let class = ASCII_CLASSES[usize::from(bytes[i])];
        i += 1;
        while i < bytes.len() && ASCII_CLASSES[usize::from(bytes[i])] == class {
            i += 1;
        }
        let len = (i - start) as u64;
        // A run of more than one space costs as one with a line break does.
        tokens += class.run_tokens(len, bytes[start] == b'\n');
    }
    tokens
}

/// The class of the character starting at byte `i` of `text` (a character boundary), and its
/// length in bytes.
#[inline]
fn class_at(text: &str, i: usize) -> (CharClass, usize) {
    let byte = text.as_bytes()[i];
    if byte.is_ascii() {
        return (ASCII_CLASSES[usize::from(byte)], 1);
    }
    match text.get(i..).and_then(|rest| rest.chars().next()) {
        Some(c) => (CharClass::of(c), c.len_utf8()),
        // Not reached: `i` is always where a character starts.
        None => (CharClass::Symbol, 1),
    }
}

/// `CharClass::of` of each ASCII character.
const ASCII_CLASSES: [CharClass; 128] = {
    let mut table = [CharClass::Punct; 128];
    let mut b = 0;
    while b < 128 {
        table[b] = CharClass::of_ascii(b as u8);
        b += 1;
    }
    table
};

/// The estimated tokens a model reads for `message` when its thread is sent: the text of each
/// item as `squash_llm`'s conversion sends it, plus [`MESSAGE_OVERHEAD`].
///
/// - text, assistant answers and system notes (`[system warning] …`): their text;
/// - a tool call: its name, id and input as compact JSON (what the tool-use block carries);
/// - a tool result: its tool-use id and its text; a base64 image in it costs
///   [`IMAGE_TOKENS`], other binary parts the placeholder that is sent instead;
/// - thinking: its text, on assistant messages only (no API takes it from another side);
/// - an image: [`IMAGE_TOKENS`], except a local file, which is sent as its label;
/// - content nobody modelled (`UnknownJson`): nothing, it is never sent.
///
/// The store keeps this number per message, so changing the rule means recomputing the
/// stored ones (a migration that clears them: they are filled again on open).
pub fn message_tokens(message: &Message) -> u64 {
    content_tokens(message.role, &message.content)
}

/// [`message_tokens`] of a message with `role` and `content`: what a store needs when it has
/// the two columns and no whole message.
pub fn content_tokens(role: Role, content: &[ContentItem]) -> u64 {
    content_tokens_with(role, content, &estimate_tokens)
}

/// The rule of [`message_tokens`] with another counter of text: a model's own tokenizer,
/// where the provider has one. Framing and images keep their fixed prices.
pub fn content_tokens_with(
    role: Role,
    content: &[ContentItem],
    count: &dyn Fn(&str) -> u64,
) -> u64 {
    MESSAGE_OVERHEAD
        + content
            .iter()
            .map(|item| item_tokens(role, item, count))
            .sum::<u64>()
}

fn item_tokens(role: Role, item: &ContentItem, count: &dyn Fn(&str) -> u64) -> u64 {
    match item {
        ContentItem::UserMessage { text } => count(text),
        ContentItem::AssistantMessage { structured } => count(&structured.full_text),
        ContentItem::ToolCall { id, name, input } => {
            count(name) + count(id) + count(&serde_json::to_string(input).unwrap_or_default())
        }
        ContentItem::ToolResult {
            tool_use_id,
            result,
            ..
        } => count(tool_use_id) + result.iter().map(|r| result_tokens(r, count)).sum::<u64>(),
        ContentItem::Thinking { thinking, .. } if role == Role::Assistant => count(thinking),
        ContentItem::Thinking { .. } | ContentItem::UnknownJson { .. } => 0,
        // Sent as `[system warning] …`; a blank one is not sent at all.
        ContentItem::System { content, .. } if content.trim().is_empty() => 0,
        ContentItem::System { .. } => count(&render::item_text(item)),
        ContentItem::Image {
            source: source @ ImageSource::File { .. },
        } => count(&format!("[image: {}]", render::image_label(source))),
        ContentItem::Image { .. } => IMAGE_TOKENS,
    }
}

fn result_tokens(data: &ToolResultData, count: &dyn Fn(&str) -> u64) -> u64 {
    match data {
        ToolResultData::Text { text } => count(text),
        ToolResultData::Base64 { media_type, .. } if media_type.starts_with("image/") => {
            IMAGE_TOKENS
        }
        other => count(&render::result_text(other)),
    }
}

/// `48_213` → `"48.2k"`, `200_000` → `"200k"`, `1_500_000` → `"1.5M"`: sizes at a glance, as
/// a context meter shows them (exact counts use [`format_count`]). One decimal below 100 of
/// the unit, none above; rounded down, so a meter never shows more room used than there is
/// and never shows a full window before it is full.
pub fn format_compact(n: u64) -> String {
    let (unit, suffix) = match n {
        0..=999 => return n.to_string(),
        1_000..=999_999 => (1_000, "k"),
        _ => (1_000_000, "M"),
    };
    let whole = n / unit;
    let tenths = n % unit * 10 / unit;
    if whole >= 100 || tenths == 0 {
        format!("{whole}{suffix}")
    } else {
        format!("{whole}.{tenths}{suffix}")
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum CharClass {
    Letter,
    Digit,
    Punct,
    Space,
    Cjk,
    OtherLetter,
    Symbol,
    Pictograph,
}

impl CharClass {
    /// [`CharClass::of`] of an ASCII character, usable in a constant.
    const fn of_ascii(b: u8) -> CharClass {
        if b.is_ascii_alphabetic() {
            CharClass::Letter
        } else if b.is_ascii_digit() {
            CharClass::Digit
        } else if matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r') {
            // What `char::is_whitespace` takes in ASCII (the vertical tab too).
            CharClass::Space
        } else {
            CharClass::Punct
        }
    }

    fn of(c: char) -> CharClass {
        if c.is_ascii_alphabetic() {
            CharClass::Letter
        } else if c.is_ascii_digit() {
            CharClass::Digit
        } else if c.is_whitespace() {
            CharClass::Space
        } else if c.is_ascii() {
            CharClass::Punct
        } else if is_cjk(c) {
            CharClass::Cjk
        } else if is_plain_symbol(c) {
            // Spares the Unicode tables for the arrow of every line of a file read (`12→`).
            CharClass::Symbol
        } else if c.is_alphabetic() {
            CharClass::OtherLetter
        } else if u32::from(c) >= 0x1F000 || ('\u{2600}'..='\u{27BF}').contains(&c) {
            CharClass::Pictograph
        } else {
            CharClass::Symbol
        }
    }

    /// The tokens of a run of `len` characters of this class (`has_newline`: a line break
    /// among them).
    fn run_tokens(self, len: u64, has_newline: bool) -> u64 {
        match self {
            CharClass::Letter => 1 + (len - 1) / 6,
            CharClass::Digit | CharClass::Punct => len.div_ceil(3),
            CharClass::Space => u64::from(has_newline || len > 1),
            CharClass::OtherLetter => len.div_ceil(2),
            CharClass::Cjk | CharClass::Symbol => 1,
            CharClass::Pictograph => 2,
        }
    }

    fn forms_runs(self) -> bool {
        !matches!(
            self,
            CharClass::Cjk | CharClass::Symbol | CharClass::Pictograph
        )
    }
}

/// Blocks with neither letters nor spaces, common in tool output: general punctuation
/// (dashes, quotes, `…`), arrows, box drawing.
fn is_plain_symbol(c: char) -> bool {
    matches!(u32::from(c), 0x2010..=0x2027 | 0x2190..=0x21FF | 0x2500..=0x257F)
}

fn is_cjk(c: char) -> bool {
    matches!(u32::from(c),
        0x3040..=0x30FF      // Hiragana, Katakana
        | 0x3400..=0x4DBF    // CJK Extension A
        | 0x4E00..=0x9FFF    // CJK Unified Ideographs
        | 0xAC00..=0xD7AF    // Hangul syllables
        | 0xF900..=0xFAFF    // CJK compatibility ideographs
        | 0xFF00..=0xFFEF    // full-width forms
        | 0x20000..=0x2FA1F) // CJK Extensions B–F, compatibility supplement
}

/// The prompt does not fit the model's context window next to the room kept for the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooLarge {
    /// Estimated prompt tokens.
    pub estimated: u64,
    /// Tokens the prompt may use: the window minus the room kept for the answer.
    pub available: u64,
    /// The model's whole context window.
    pub window: u32,
}

impl fmt::Display for TooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let reserved = u64::from(self.window).saturating_sub(self.available);
        write!(
            f,
            "the selected messages need about {} tokens, but the model can read at most {} \
             ({} in its context window, {} of them kept for the answer); \
             select fewer messages or use a model with a larger context window",
            format_count(self.estimated),
            format_count(self.available),
            format_count(u64::from(self.window)),
            format_count(reserved),
        )
    }
}

impl std::error::Error for TooLarge {}

/// Whether a prompt of `prompt_tokens` fits a model with a context window of `window` tokens
/// when `max_output` tokens are kept for the answer.
pub fn check_fits(prompt_tokens: u64, max_output: u64, window: u32) -> Result<(), TooLarge> {
    let available = u64::from(window).saturating_sub(max_output);
    if prompt_tokens <= available {
        Ok(())
    } else {
        Err(TooLarge {
            estimated: prompt_tokens,
            available,
            window,
        })
    }
}

/// `1234567` → `"1,234,567"`: counts in messages meant for people.
pub fn format_count(n: u64) -> String {
    let digits = n.to_string();
    // The first group takes the remainder (1–3 digits), every later group exactly three.
    let (first, rest) = digits.split_at((digits.len() - 1) % 3 + 1);
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    out.push_str(first);
    for group in rest.as_bytes().chunks(3) {
        out.push(',');
        // ASCII digits, so every chunk is valid UTF-8.
        out.extend(group.iter().map(|&b| char::from(b)));
    }
    out
}

#[cfg(test)]
#[path = "tokens_tests.rs"]
mod tests;
