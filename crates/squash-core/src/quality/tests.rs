use std::collections::BTreeSet;

use super::*;
use crate::terms::salient_terms;

const INPUT: &str = "Find all TypeScript files under src/ and check them for type errors.\n\n\
        Called Grep(pattern=\"**/*.ts\", path=\"src\")\n\n\
        Grep returned:\nsrc/main.ts\nsrc/util/format.ts\nsrc/api/client.ts\n(42 files)\n\n\
        Called Bash(command=\"npx tsc --noEmit\")\n\n\
        Bash failed:\nsrc/main.ts(12,5): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.\n\
        src/main.ts(30,1): error TS2304: Cannot find name 'fetchUser'.\n\
        Found 3 errors. Process exited with code 2.";

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
    let input = "I'm sorry, but I can't make the meeting; notes follow. We chose PostgreSQL 16.";
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
    let input = "Wrap the rules in <rules> tags and the goal in <task> tags, like the spec does.";
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
