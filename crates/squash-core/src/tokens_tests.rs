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
        ContentItem::tool_call("t1", "Grep", serde_json::json!({ "pattern": "fn main" })),
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
    let code = "fn main() {\n    let x: Vec<u8> = vec![1, 2, 3];\n    println!(\"{x:?}\");\n}\n";
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
        ContentItem::tool_call("t1", "Grep", serde_json::json!({ "p": 1 })),
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

/// Each character's class as the estimate classed it before its byte walk and the shortcut
/// for symbol blocks: what `CharClass::of` must still say.
fn class_as_written(c: char) -> CharClass {
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

/// The estimate as written before its byte walk: one `char` at a time.
fn estimate_by_char(text: &str) -> u64 {
    let mut tokens: u64 = 0;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let class = class_as_written(c);
        let mut len: u64 = 1;
        let mut has_newline = c == '\n';
        if class.forms_runs() {
            while let Some(&next) = chars.peek() {
                if class_as_written(next) != class {
                    break;
                }
                has_newline |= next == '\n';
                len += 1;
                chars.next();
            }
        }
        // The walk is what is tested: a run's price is the product's.
        tokens += class.run_tokens(len, has_newline);
    }
    tokens.max(text.len() as u64 / 4)
}

#[test]
fn every_character_is_classed_as_before() {
    for c in (0..=u32::from(char::MAX)).filter_map(char::from_u32) {
        assert!(class_as_written(c) == CharClass::of(c), "{c:?}");
        if c.is_ascii() {
            assert!(ASCII_CLASSES[c as usize] == CharClass::of(c), "{c:?}");
        }
    }
}

#[test]
fn the_byte_walk_counts_as_the_char_walk() {
    let texts = [
        "",
        "  12→fn main() {\n    let x = 1;\n  13→}\n",
        "mixed spaces:\u{a0} \t\n\u{2003}\u{b}\u{c}\r\nend",
        "accents café naïve Ærøskøbing, Cyrillic привет мир, Greek αβγ",
        "CJK 这是测试 かな 한국어 ｆｕｌｌ",
        "emoji 🚀🚀 ☀ ✓ and symbols © ® ™ — “quoted” … ├── src/ └── x",
        "digits 1234567 3.14159 0x1F600 2026-12-04T15:10:07Z",
        "punct ();{}[]<>!?@#$%^&*_+=|\\/~`'\",.:-",
        "\u{0}\u{1}\u{7f}control\u{85}next\u{2028}line\u{2029}para",
    ];
    for text in texts {
        assert_eq!(estimate_tokens(text), estimate_by_char(text), "{text:?}");
    }
}

proptest::proptest! {
    #[test]
    fn any_text_counts_as_the_char_walk(text in "\\PC{0,200}", ascii in "[ -~\\n\\t]{0,200}") {
        proptest::prop_assert_eq!(estimate_tokens(&text), estimate_by_char(&text));
        proptest::prop_assert_eq!(estimate_tokens(&ascii), estimate_by_char(&ascii));
        let mixed = format!("{ascii}{text}{ascii}");
        proptest::prop_assert_eq!(estimate_tokens(&mixed), estimate_by_char(&mixed));
    }

    /// ASCII stretches between other characters, where a run of spaces goes on in a non-ASCII
    /// space and a run of letters stops at an accented one.
    #[test]
    fn ascii_stretches_between_other_characters_count_as_the_char_walk(
        pieces in proptest::collection::vec(
            proptest::sample::select(vec![
                " ", "  ", "\n", "\t", "\r\n", "\u{a0}", "\u{2003}", "\u{85}", "ab", "x",
                "12", "1234", "();", "-", "→", "é", "привет", "这", "🚀", "©", "",
            ]),
            0..24,
        ),
    ) {
        let text = pieces.concat();
        proptest::prop_assert_eq!(estimate_tokens(&text), estimate_by_char(&text), "{:?}", text);
    }
}
