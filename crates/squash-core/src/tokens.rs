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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::ConversationId;
    use crate::message::SystemLevel;

    fn message(role: Role, content: Vec<ContentItem>) -> Message {
        let mut m = Message::text(ConversationId::new(), role, "x").unwrap();
        m.content = content;
        m
    }

    fn tool_result(data: ToolResultData) -> ContentItem {
        ContentItem::ToolResult {
            tool_use_id: "t1".into(),
            tool_name: "Read".into(),
            result: vec![data],
            is_error: false,
        }
    }

    // The expectations below are counted by hand with the rules of `estimate_tokens`.

    #[test]
    fn a_text_message_is_its_text_and_the_framing() {
        // "Hello" 1, " " 0, "world" 1.
        let m = message(
            Role::User,
            vec![ContentItem::text_for(Role::User, "Hello world")],
        );
        assert_eq!(message_tokens(&m), MESSAGE_OVERHEAD + 2);
        let a = message(
            Role::Assistant,
            vec![ContentItem::text_for(Role::Assistant, "Hello world")],
        );
        assert_eq!(message_tokens(&a), MESSAGE_OVERHEAD + 2);
    }

    #[test]
    fn a_tool_call_is_its_name_id_and_compact_input() {
        let m = message(
            Role::Assistant,
            vec![ContentItem::ToolCall {
                id: "t1".into(),
                name: "Grep".into(),
                // Compact: {"pattern":"fn main"} — `{"` 1, pattern 2, `":"` 1, fn 1, main 1,
                // `"}` 1 = 7; pretty-printed it would cost more.
                input: serde_json::json!({ "pattern": "fn main" }),
            }],
        );
        // Grep 1 + t1 2 + input 7.
        assert_eq!(message_tokens(&m), MESSAGE_OVERHEAD + 10);
    }

    #[test]
    fn a_tool_result_is_its_id_and_text() {
        // t1 2 + "src/main.rs": src 1, / 1, main 1, . 1, rs 1.
        let text = ToolResultData::Text {
            text: "src/main.rs".into(),
        };
        let m = message(Role::User, vec![tool_result(text)]);
        assert_eq!(message_tokens(&m), MESSAGE_OVERHEAD + 7);
    }

    #[test]
    fn binary_tool_output_costs_an_image_or_its_placeholder() {
        let png = ToolResultData::Base64 {
            media_type: "image/png".into(),
            data: "iVBORw0KGgo".repeat(1_000),
        };
        let m = message(Role::User, vec![tool_result(png)]);
        assert_eq!(message_tokens(&m), MESSAGE_OVERHEAD + 2 + IMAGE_TOKENS);
        // "[application/pdf, 4 bytes base64]": [ application(2) / pdf , 4 bytes base 64 ] = 11.
        let pdf = ToolResultData::Base64 {
            media_type: "application/pdf".into(),
            data: "AAAA".into(),
        };
        let m = message(Role::User, vec![tool_result(pdf)]);
        assert_eq!(message_tokens(&m), MESSAGE_OVERHEAD + 2 + 11);
    }

    #[test]
    fn images_cost_a_fixed_estimate_unless_only_a_path_is_sent() {
        let url = ContentItem::Image {
            source: ImageSource::Url {
                url: "https://example.com/a-very-long-name-that-does-not-matter.png".into(),
            },
        };
        // "[image: a.png]": [ image : a . png ] = 7.
        let file = ContentItem::Image {
            source: ImageSource::File {
                path: "a.png".into(),
            },
        };
        let m = message(Role::User, vec![url, file]);
        assert_eq!(message_tokens(&m), MESSAGE_OVERHEAD + IMAGE_TOKENS + 7);
    }

    #[test]
    fn thinking_counts_only_where_a_model_reads_it() {
        let thinking = ContentItem::Thinking {
            signature: "a-long-signature-that-is-never-shown".into(),
            thinking: "check src".into(),
        };
        let a = message(Role::Assistant, vec![thinking.clone()]);
        assert_eq!(message_tokens(&a), MESSAGE_OVERHEAD + 2);
        let u = message(Role::User, vec![thinking]);
        assert_eq!(message_tokens(&u), MESSAGE_OVERHEAD);
    }

    #[test]
    fn system_notes_are_sent_with_their_label_and_unknown_content_not_at_all() {
        let note = ContentItem::System {
            level: SystemLevel::Warning,
            content: "large file".into(),
            tool_use_id: None,
        };
        let blank = ContentItem::System {
            level: SystemLevel::Info,
            content: "  ".into(),
            tool_use_id: None,
        };
        let unknown = ContentItem::UnknownJson {
            json: serde_json::json!({ "kind": "something nobody modelled", "size": 123456 }),
        };
        // "[system warning] large file": [ system warning(2) ] large file = 7.
        let m = message(Role::System, vec![note, blank, unknown]);
        assert_eq!(message_tokens(&m), MESSAGE_OVERHEAD + 7);
    }

    #[test]
    fn a_message_is_the_sum_of_its_items() {
        let items = vec![
            ContentItem::text_for(Role::Assistant, "Hello world"),
            ContentItem::ToolCall {
                id: "t1".into(),
                name: "Grep".into(),
                input: serde_json::json!({ "pattern": "fn main" }),
            },
        ];
        let m = message(Role::Assistant, items);
        assert_eq!(message_tokens(&m), MESSAGE_OVERHEAD + 2 + 10);
    }

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
    fn compact_sizes_round_down_to_one_decimal() {
        assert_eq!(format_compact(0), "0");
        assert_eq!(format_compact(999), "999");
        assert_eq!(format_compact(1_000), "1k");
        assert_eq!(format_compact(48_213), "48.2k");
        assert_eq!(format_compact(48_299), "48.2k");
        assert_eq!(format_compact(99_999), "99.9k");
        assert_eq!(format_compact(128_000), "128k");
        assert_eq!(format_compact(200_000), "200k");
        assert_eq!(format_compact(999_999), "999k");
        assert_eq!(format_compact(1_000_000), "1M");
        assert_eq!(format_compact(1_500_000), "1.5M");
    }

    #[test]
    fn another_counter_prices_the_text_and_keeps_the_fixed_prices() {
        // One token per character: the counter sees exactly the texts a model reads.
        let chars = |t: &str| t.chars().count() as u64;
        let content = vec![
            ContentItem::text_for(Role::Assistant, "Hello"),
            ContentItem::ToolCall {
                id: "t1".into(),
                name: "Grep".into(),
                input: serde_json::json!({ "p": 1 }),
            },
            ContentItem::Image {
                source: ImageSource::Url { url: "u".into() },
            },
        ];
        // Hello 5 + Grep 4 + t1 2 + {"p":1} 7 + image.
        assert_eq!(
            content_tokens_with(Role::Assistant, &content, &chars),
            MESSAGE_OVERHEAD + 5 + 4 + 2 + 7 + IMAGE_TOKENS
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
