use super::*;

fn terms(text: &str) -> Vec<String> {
    salient_terms(text).into_iter().collect()
}

fn assert_has(t: &[String], wanted: &[&str]) {
    for want in wanted {
        assert!(t.contains(&(*want).to_owned()), "missing {want:?} in {t:?}");
    }
}

fn assert_lacks(t: &[String], unwanted: &[&str]) {
    for not in unwanted {
        assert!(!t.contains(&(*not).to_owned()), "{not:?} in {t:?}");
    }
}

#[test]
fn paths_of_every_shape() {
    let t = terms(
        "Edit src/main.rs, then ./a/b.ts and ../up/c.py; see /etc/nginx/nginx.conf, \
             ~/.config/app.toml and C:\\Users\\me\\app.exe. Also main.ts and util.c.",
    );
    assert_has(
        &t,
        &[
            "src/main.rs",
            "./a/b.ts",
            "../up/c.py",
            "/etc/nginx/nginx.conf",
            "~/.config/app.toml",
            "C:\\Users\\me\\app.exe",
            "main.ts",
            "util.c",
        ],
    );
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
    assert_has(
        &t,
        &[
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
        ],
    );
    // Plain words, sentence starts and single digits are not terms.
    assert_lacks(&t, &["Call", "from", "run", "is", "with"]);
}

#[test]
fn numbers_versions_and_percentages() {
    let t = terms(
        "Upgraded to 1.95.0 and v0.8.12-beta.1; 3,214 rows (12.5%) took 0.75 s, \
             address 0x7ffe, 42 files, 7 dirs.",
    );
    assert_has(
        &t,
        &[
            "1.95.0",
            "v0.8.12-beta.1",
            "3214",
            "12.5%",
            "0.75",
            "0x7ffe",
            "42",
        ],
    );
    assert_lacks(&t, &["7", "95", "1.95", "214", "12.5"]);
}

#[test]
fn urls_and_error_codes() {
    let t = terms(
        "See https://doc.rust-lang.org/error_codes/E0308.html. rustc said E0308, tsc said \
             TS2345, open failed with ENOENT; the API answered HTTP/1.1 503 and later status \
             code 404; make exited with code 2 (exit status: 1).",
    );
    assert_has(
        &t,
        &[
            "https://doc.rust-lang.org/error_codes/E0308.html",
            "E0308",
            "TS2345",
            "ENOENT",
            "HTTP 503",
            "HTTP 404",
            "exit code 2",
            "exit code 1",
        ],
    );
}

#[test]
fn url_brackets_and_trailing_punctuation() {
    let t = terms("(see https://en.wikipedia.org/wiki/Rust_(language)), or https://x.io/a?b=1.");
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

#[test]
fn a_long_backticked_span_still_pairs_its_backticks() {
    // A command shown whole past 100 characters is no term, and the text after it is not read
    // as a span that opens where it closes.
    let command = format!("python3 {} && cargo test -p config 2>&1", "x/".repeat(40));
    let t = terms(&format!(
        "Ran `{command}`… → ok: 4 passed. Fixed: `cargo test` failed."
    ));
    assert_has(&t, &["cargo test"]);
    assert!(
        !t.iter()
            .any(|term| term.contains("4 passed") || term.contains(&command)),
        "{t:?}"
    );
}
