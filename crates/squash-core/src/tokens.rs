//! Token estimates, for refusing a squash that cannot fit before spending seconds (and money)
//! on a call that the provider would reject anyway. The context windows of known models are
//! squash-llm's table (`squash_llm::context_window_for`).
//!
//! The numbers here are estimates on purpose: the domain knows no tokenizer (each provider has
//! its own, and shipping BPE tables would make this crate heavy). The provider's own count, when
//! it reports one, is what gets recorded as usage.

use std::fmt;

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
    let mut tokens: u64 = 0;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let class = CharClass::of(c);
        let mut len: u64 = 1;
        let mut has_newline = c == '\n';
        // CJK and symbols are priced per character, so they never form runs.
        if class.forms_runs() {
            while let Some(&next) = chars.peek() {
                if CharClass::of(next) != class {
                    break;
                }
                has_newline |= next == '\n';
                len += 1;
                chars.next();
            }
        }
        tokens += match class {
            CharClass::Letter => 1 + (len - 1) / 6,
            CharClass::Digit => len.div_ceil(3),
            CharClass::Punct => len.div_ceil(3),
            CharClass::Space => u64::from(has_newline || len > 1),
            CharClass::OtherLetter => len.div_ceil(2),
            CharClass::Cjk | CharClass::Symbol => 1,
            CharClass::Pictograph => 2,
        };
    }
    tokens.max(text.len() as u64 / 4)
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
        } else if c.is_alphabetic() {
            CharClass::OtherLetter
        } else if u32::from(c) >= 0x1F000 || ('\u{2600}'..='\u{27BF}').contains(&c) {
            CharClass::Pictograph
        } else {
            CharClass::Symbol
        }
    }

    fn forms_runs(self) -> bool {
        !matches!(
            self,
            CharClass::Cjk | CharClass::Symbol | CharClass::Pictograph
        )
    }
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

/// Tokens of framing every message costs besides its text (role markers, separators).
pub const MESSAGE_OVERHEAD_TOKENS: u64 = 4;

/// What a message costs a model: its items' text as rendered for a model, plus framing.
pub fn message_tokens(message: &crate::message::Message) -> u64 {
    estimate_tokens(&crate::render::message_text(message)) + MESSAGE_OVERHEAD_TOKENS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_text_costs_nothing() {
        assert_eq!(estimate_tokens(""), 0);
        assert_eq!(estimate_tokens(" "), 0);
    }

    #[test]
    fn prose_is_priced_near_real_tokenizers() {
        // o200k and cl100k both count 18 tokens.
        let text = "The quick brown fox jumps over the lazy dog, and then it runs into the forest.";
        let n = estimate_tokens(text);
        assert!((18..=22).contains(&n), "{n}");
    }

    #[test]
    fn code_costs_more_than_bytes_over_four() {
        let code =
            "fn main() {\n    let x: Vec<u8> = vec![1, 2, 3];\n    println!(\"{x:?}\");\n}\n";
        // cl100k counts 30; bytes / 4 says 17.
        let n = estimate_tokens(code);
        assert!((30..=36).contains(&n), "{n}");
    }

    #[test]
    fn cjk_counts_about_one_per_character() {
        let text = "这是一个测试句子用于估计令牌数量";
        assert_eq!(estimate_tokens(text), text.chars().count() as u64);
        assert!(estimate_tokens(text) > text.len() as u64 / 4);
    }

    #[test]
    fn other_scripts_and_emoji_are_counted() {
        assert_eq!(estimate_tokens("привет"), 3);
        assert_eq!(estimate_tokens("🚀🚀"), 4);
        assert_eq!(estimate_tokens("café"), 2);
    }

    #[test]
    fn never_below_bytes_over_four() {
        let long_word = "a".repeat(4000);
        assert_eq!(estimate_tokens(&long_word), 1000);
    }

    #[test]
    fn numbers_split_in_groups_of_three() {
        assert_eq!(estimate_tokens("1234567"), 3);
        assert_eq!(estimate_tokens("42"), 1);
    }

    #[test]
    fn fits_when_prompt_and_answer_fit() {
        assert_eq!(check_fits(1_000, 4_096, 8_192), Ok(()));
        assert_eq!(check_fits(4_096, 4_096, 8_192), Ok(()));
        let err = check_fits(4_097, 4_096, 8_192).unwrap_err();
        assert_eq!(
            err,
            TooLarge {
                estimated: 4_097,
                available: 4_096,
                window: 8_192
            }
        );
    }

    #[test]
    fn answer_room_larger_than_window_leaves_nothing() {
        let err = check_fits(1, 10_000, 8_192).unwrap_err();
        assert_eq!(err.available, 0);
    }

    #[test]
    fn too_large_says_both_numbers_in_words() {
        let err = check_fits(52_310, 4_096, 32_768).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the selected messages need about 52,310 tokens, but the model can read at most \
             28,672 (32,768 in its context window, 4,096 of them kept for the answer); select \
             fewer messages or use a model with a larger context window"
        );
    }

    #[test]
    fn counts_are_grouped_by_thousands() {
        assert_eq!(format_count(0), "0");
        assert_eq!(format_count(999), "999");
        assert_eq!(format_count(1_000), "1,000");
        assert_eq!(format_count(3_214), "3,214");
        assert_eq!(format_count(1_234_567), "1,234,567");
        assert_eq!(format_count(u64::MAX), "18,446,744,073,709,551,615");
    }
}
