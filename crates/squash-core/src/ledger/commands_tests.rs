use super::*;

#[test]
fn anchors_name_program_and_subcommand() {
    assert_eq!(anchor_of("cargo test -p config"), "cargo test");
    assert_eq!(anchor_of("cd crates/x && npm run build"), "npm run");
    assert_eq!(
        anchor_of("python3 scripts/move_fn.py a b"),
        "scripts/move_fn.py"
    );
    assert_eq!(anchor_of("RUST_LOG=debug cargo run"), "cargo run");
    assert_eq!(anchor_of("ls -la"), "ls");
}

#[test]
fn plumbing_is_shown_but_not_part_of_the_command() {
    let (display, cut) = display_of("cargo test -p config 2>&1 | tail -20");
    assert_eq!(
        (display.as_str(), cut),
        ("cargo test -p config 2>&1 | tail -20", false)
    );
    assert_eq!(key_of(&display), "cargo test -p config");
    assert_eq!(
        key_of(&display_of("make 2>&1 | head -n 5\nsecond line").0),
        "make"
    );
    let (long, cut) = display_of(&"x".repeat(300));
    assert_eq!((long.len(), cut), (DISPLAY_MAX_CHARS, true));
    // A cut does not leave half of a word (an id, a path) that ends soon after.
    let id = "ICW4F7W98BX6840UBEGPMU5EFA";
    let command = format!("aws cloudfront get-invalidation --distribution-id E12FYIQ8RRXOJ1 --query 'x' --id {id} --output json");
    let (shown, cut) = display_of(&command);
    assert!(shown.ends_with(id), "{shown}");
    assert!(cut);
    let (plumbing, _) = display_of(&format!("{} cargo test 2>&1 | tail -20", "z".repeat(85)));
    // Plumbing is finished too: no line ends in half of `2>&1`.
    assert!(plumbing.ends_with("cargo test 2>&1"), "{plumbing}");
    let (whole, cut) = display_of(&format!("{} {id}", "y".repeat(90)));
    assert_eq!(
        (whole.as_str(), cut),
        (format!("{} {id}", "y".repeat(90)).as_str(), false)
    );
    assert_eq!(key_of("bd show x 2>/dev/null"), "bd show x");
}

#[test]
fn a_command_whose_first_line_leaves_it_open_is_shown_with_its_next_lines() {
    let (display, cut) = display_of(
        "ssh root@host 'bash -c \"\n  redis-cli CONFIG SET protected-mode no\n  systemctl restart redis\n\"'",
    );
    assert_eq!(
        (display.as_str(), cut),
        (
            "ssh root@host 'bash -c \" redis-cli CONFIG SET protected-mode no systemctl restart redis \"'",
            false
        )
    );
    assert_eq!(
        display_of("cargo build \\\n  --release").0,
        "cargo build \\ --release"
    );
    // A here-document's body is the file it writes; a whole first line is the command.
    assert_eq!(
        display_of("cat > /tmp/a.sh << 'EOF'\necho hi\nEOF").0,
        "cat > /tmp/a.sh << 'EOF'"
    );
    assert_eq!(display_of("make\nmake test").0, "make");
}

#[test]
fn a_commit_is_found_by_its_hash_and_a_harness_header_is_not_output() {
    // Codex heads a shell call's output with its own lines; what the run printed follows
    // `Output:`. Of a commit, the line naming the hash comes first, its counts after.
    let output = "Command: /bin/zsh -lc 'git commit -m \"Fix layout\"'\nChunk ID: 7e445c\n\
                  Wall time: 0.3114 seconds\nProcess exited with code 0\n\
                  Original token count: 27\nOutput:\n[main b59b2af] Fix layout\n \
                  4 files changed, 120 insertions(+), 59 deletions(-)\n";
    let body = printed(output);
    assert!(body.starts_with("[main b59b2af]"), "{body}");
    assert_eq!(
        found_in(&body, Status::Ok).as_deref(),
        Some("[main b59b2af] Fix layout (4 files changed, 120 insertions(+), 59 deletions(-))")
    );
    // Without the header the output is read as it is; a line that only looks like one stays.
    assert_eq!(printed("Command: x\nthe rest"), "Command: x\nthe rest");
    assert_eq!(
        found_in("one\ntwo\nthree", Status::Ok).as_deref(),
        Some("one … three")
    );
}

#[test]
fn a_commit_is_anchored_by_its_hash() {
    assert_eq!(
        commit_hash(
            "[main 43db013] fix: add missing CSS variables (--green, --green-dk) (1 file changed)"
        ),
        Some("43db013")
    );
    assert_eq!(
        commit_hash("[main (root-commit) 1a2b3c4] init"),
        Some("1a2b3c4")
    );
    assert_eq!(commit_hash("[lint] ERROR task failed"), None);
    assert_eq!(commit_hash("no commit"), None);
}

#[test]
fn a_search_of_a_log_for_errors_says_the_error_it_found() {
    let log = "    at createConnectionError (node:net:1652:14)\n    Error: connect ECONNREFUSED 127.0.0.1:6379\n    at afterConnect (node:net:1107:10)";
    let found = listing(log);
    assert_eq!(found.sample, ["Error: connect ECONNREFUSED 127.0.0.1:6379"]);
    // A listing of paths stays a listing of paths.
    assert_eq!(
        listing("src/error.rs\nsrc/main.rs").sample,
        ["src/error.rs", "src/main.rs"]
    );
}

#[test]
fn a_tally_printed_over_several_lines_is_said_whole() {
    let mocha = "  checkpoints\n    ✓ lists sessions\n\n  36 passing (2s)\n  2 pending\n  4 failing\n\n  1) sessions tree\n       shows details:\n     Error: Timeout of 2000ms exceeded.\n";
    assert_eq!(
        summary_line(mocha).as_deref(),
        Some("36 passing (2s); 2 pending; 4 failing")
    );
    let cargo =
        "running 4 tests\ntest a ... ok\n\ntest result: ok. 4 passed; 0 failed; 0 ignored\n";
    assert_eq!(
        summary_line(cargo).as_deref(),
        Some("test result: ok. 4 passed; 0 failed; 0 ignored")
    );
}

#[test]
fn a_linters_count_of_issues_is_its_tally() {
    // golangci-lint and eslint say how clean the code is in issues and problems.
    let golangci = "[lint] $ golangci-lint run ./...\n0 issues.\n[fmt] $ gofmt -w .\n";
    assert_eq!(summary_line(golangci).as_deref(), Some("0 issues."));
    let eslint = "/src/app.ts\n  3:7  error  'x' is unused  no-unused-vars\n\n✖ 1 problem (1 error, 0 warnings)\n";
    assert_eq!(
        summary_line(eslint).as_deref(),
        Some("✖ 1 problem (1 error, 0 warnings)")
    );
}

#[test]
fn the_runners_tally_is_said_over_a_harness_line_that_counts_less() {
    // VS Code's test harness ends with its own count of the failures, after mocha's tally.
    let run = "  47 passing (6s)\n  3 failing\n\n  1) checkpoints\n     AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\nExit code:   1\n3 tests failed.\n";
    assert_eq!(
        summary_line(run).as_deref(),
        Some("47 passing (6s); 3 failing")
    );
    // Tallies that count as much: the last one (cargo's doc-tests after its unit tests).
    let cargo = "test result: ok. 4 passed; 0 failed; 0 ignored\n\nDoc-tests config\n\ntest result: ok. 1 passed; 0 failed; 0 ignored\n";
    assert_eq!(
        summary_line(cargo).as_deref(),
        Some("test result: ok. 1 passed; 0 failed; 0 ignored")
    );
    // A tally of zeros counts least: a crate without doc-tests prints one after its 632.
    let cargo = "test result: ok. 632 passed; 0 failed; 0 ignored\n\n   Doc-tests tij\n\nrunning 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored\n";
    assert_eq!(
        summary_line(cargo).as_deref(),
        Some("test result: ok. 632 passed; 0 failed; 0 ignored")
    );
}
