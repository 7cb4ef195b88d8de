//! `squash search` through the built binary: hits with their conversation, position and the
//! match marked, `--conversation`, `--limit`, `--json`, and a clear refusal of an empty query.

use serde_json::Value;

#[test]
fn search_prints_hits_and_refuses_an_empty_query() {
    let env = crate::sandbox();
    for (conv, texts) in [
        (
            "Lexer",
            [
                "The lexer panics on empty input",
                "Guarded the lexer; tests pass",
            ],
        ),
        (
            "Notes",
            ["Release notes mention the lexer fix", "Nothing else"],
        ),
    ] {
        env.ok(&["conversation", "new", conv, "--project", "/tmp/search-cli"]);
        for text in texts {
            env.ok(&["message", "add", conv, "--role", "user", "--text", text]);
        }
    }

    let text = env.ok(&["search", "lexer"]);
    assert!(text.contains("«lexer»"), "{text}");
    assert!(text.contains("Lexer @1 [user]"), "{text}");
    assert!(text.trim_end().ends_with("3 matching messages"), "{text}");

    let json: Value =
        serde_json::from_str(&env.ok(&["--json", "search", "lexer", "--conversation", "Notes"]))
            .expect("JSON answer");
    assert_eq!(json["total"], 1);
    assert_eq!(json["hits"][0]["conversation_name"], "Notes");
    assert_eq!(json["hits"][0]["position"], 1);

    let limited: Value =
        serde_json::from_str(&env.ok(&["--json", "search", "lexer", "-n", "1"])).expect("JSON");
    assert_eq!(limited["hits"].as_array().map(Vec::len), Some(1));
    assert_eq!(limited["total"], 3);

    let refused = env.run(&["search", "***"]);
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("no words"), "{stderr}");
}
