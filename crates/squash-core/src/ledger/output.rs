//! Reading a tool's output: how it ended (the exit status it reports, the line that sums the
//! run up), the lines that say what went wrong and the terms they name, and its first lines as
//! a sample.

use std::borrow::Cow;

use super::anchors::{anchors_of, content_words};
use crate::lines::Lines;
use crate::text::{one_line, patterns};

/// Error lines kept per failed run: the first ones name the cause, later ones its echoes.
const LINES_PER_RUN: usize = 3;
pub(super) const LINE_MAX_CHARS: usize = 140;

/// A count a tally line holds ("4 passed", "3 failing", "1 test"): one pattern for the line
/// and for its counts.
macro_rules! tally_count {
    () => {
        r"(?-u:\b)\d+ (?:passed|failed|failing|passing|pending|skipped|errors?|tests?|failures?|doctests?|examples?|warnings?|issues?|problems?)(?-u:\b)"
    };
}

patterns! {
    /// Word boundaries are ASCII (`(?-u:\b)`): every word it looks for is ASCII, and a Unicode
    /// boundary makes the regex engine leave its fast automaton for a backtracker on any line with
    /// a non-ASCII character — every line of Claude Code's `Read` output (`  12→…`) has one, and
    /// this regex reads every line of every output a fit trims.
    ERROR_LINE = r"(?:(?-u:\b)error(?:\[[A-Z]*\d+\])?(?::|\s+[A-Z]{1,3}\d{3,})|(?-u:\b)ERROR(?-u:\b)|(?-u:\b)FAIL(?:ED|URE)?(?-u:\b)|panicked at|(?-u:\b)[A-Z][A-Za-z]*(?:Error|Exception)(?-u:\b)|(?-u:\b)Error:|npm ERR!|(?-u:\b)fatal:|syntax error|(?-u:\b)CONFLICT(?-u:\b)|●|command not found|No such file or directory|Permission denied|Segmentation fault|(?-u:\b)Assertion|(?m:^)\s*\*\* \()";
    CODE = r"(?-u:\b)(?:E\d{4}|TS\d{4}|[A-Z]{1,4}\d{3,5}|E[A-Z]{3,9}|[A-Z][A-Za-z]*(?:Error|Exception))(?-u:\b)";
    TEST_NAME = r"(?-u:\b)(?:[a-z_][a-z0-9_]*::)+[a-z_][a-z0-9_]*(?-u:\b)|(?-u:\b)test_[A-Za-z0-9_]+(?-u:\b)|(?-u:\b)[\w/.-]+\.(?:py|ts|js|rs|go)::[\w:]+";

    EXIT_CODE = r"(?i)(?:exited with (?:code|status)|exit (?:code|status)|exit_code)\W{0,3}(-?\d+)";
    /// A compiler's closing count of the errors it already printed ("error: could not compile
    /// `config` (lib) due to 1 previous error", "error: aborting due to 2 previous errors").
    ERROR_TALLY = r"^\s*error: (?:could not compile|aborting due to)(?-u:\b).*previous errors?";
    /// `[branch 1a2b3c4] message`, `[main (root-commit) 1a2b3c4] message`.
    COMMIT_LINE = r"^\[[\w./-]+(?: \(root-commit\))? ([0-9a-f]{7,40})\] ";
    /// A diagnostic that points at a place in a file: `src/a.go:455:20: appendAssign: …`, or
    /// at a line: a Go test's `explain_test.go:1032: verbose output should show prompts`.
    DIAGNOSTIC = r"^[\w./@+-]+\.\w+:\d+(?::\d+)?:\s+\S";
    /// A toolchain's own verdict that a build or a test failed, on a line of its own: Go's
    /// `--- FAIL: TestX`, `FAIL\tpkg [build failed]`, Rust's `error[E0425]: …` and `error: could
    /// not compile`. A run piped into `head` ends well whatever it printed.
    FAILED_VERDICT = r"(?m)^(?:--- FAIL: |FAIL\t|error\[E\d{4}\]: |error: could not compile )";
    /// A line that complains in plain words, for a failed run none of whose lines reads as an
    /// error.
    COMPLAINT = r"(?i)(?-u:\b)(?:failed|failure|invalid|cannot|can't|could not|couldn't|unable to|not found|denied|refused|missing|unknown|unrecognized|unexpected|no such|not allowed|forbidden|timed out|aborted|expired|unauthorized|not permitted|not installed)(?-u:\b)";
    /// One count of a tally: "4 passed", "3 failing", "1 test".
    COUNT = concat!("(?i)", tally_count!());
    /// Multi-line, so that it reads a whole output at once as it reads a line (`crate::lines`).
    SUMMARY_LINE = concat!(r"(?im)^\s*(?:test result:.*|.*", tally_count!(), r".*|(?:build|compilation) (?:succeeded|failed|finished).*|finished in .*)$");
}

/// What the command printed, without the header a harness writes above it: Codex heads a
/// shell call's output with `Command: …`, `Chunk ID: …`, `Wall time: …`, `Process exited with
/// code …`, `Original token count: …` (or `Exit code: …`) and an `Output:` line — the run's
/// status, which [`last_exit_code`] reads from the whole text, not what the run found. Code
/// mode hands back a nested command's result as JSON (`{"exit_code": 1, "output": "…"}`):
/// its `output`.
pub(crate) fn printed(output: &str) -> Cow<'_, str> {
    if let Some(nested) = nested_output(output) {
        return Cow::Owned(nested);
    }
    Cow::Borrowed(headless(output))
}

/// The `output` of a code-mode command's JSON result, when the text is one.
fn nested_output(output: &str) -> Option<String> {
    Some(nested_result(output)?.get("output")?.as_str()?.to_owned())
}

/// The exit code of a code-mode command's JSON result, when the text is one.
fn nested_exit_code(output: &str) -> Option<i64> {
    nested_result(output)?.get("exit_code")?.as_i64()
}

fn nested_result(output: &str) -> Option<serde_json::Value> {
    let text = output.trim();
    if !(text.starts_with('{') && text.contains("\"exit_code\"")) {
        return None;
    }
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    value.get("exit_code")?;
    Some(value)
}

fn headless(output: &str) -> &str {
    const HEADER: &[&str] = &[
        "Command: ",
        "Chunk ID: ",
        "Wall time: ",
        "Process exited with code ",
        "Exit code: ",
        "Original token count: ",
        "Process running with session ID ",
        "Script running with cell ID ",
        "Script completed",
        "Script failed",
        "Wall time ",
    ];
    let mut rest = output;
    while let Some((line, after)) = rest.split_once('\n') {
        let line = line.trim_end();
        if line == "Output:" {
            return after;
        }
        if !HEADER.iter().any(|h| line.starts_with(h)) {
            break;
        }
        rest = after;
    }
    output
}

/// The line of a commit a run made, as git prints it: `[main b59b2af] Fix the layout`.
pub(crate) fn commit_line(output: &str) -> Option<&str> {
    output
        .lines()
        .map(str::trim)
        .find(|l| COMMIT_LINE.is_match(l))
}

/// The hash of a commit line (`[main 43db013] fix: …`, `[main (root-commit) 1a2b3c4] …`).
pub(crate) fn commit_hash(line: &str) -> Option<&str> {
    Some(COMMIT_LINE.captures(line)?.get(1)?.as_str())
}

/// The lines of an output that say something, trimmed: not blank, and not the exit status a
/// harness adds ("Process exited with code 1").
pub(super) fn content_lines(output: &str) -> Vec<&str> {
    output
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !EXIT_CODE.is_match(l))
        .collect()
}

/// The exit status an output reports: a code-mode command's JSON result's, else the one the
/// harness's header states above `Output:` (what the command printed may name other exit
/// codes: "Extension host exited with code: 0"), else the last one the text states ("Process
/// exited with code 1", "Exit code: 2"). The ledger, the trims and the web UI's tool cards
/// read it the same way.
pub fn exit_code(output: &str) -> Option<i64> {
    nested_exit_code(output)
        .or_else(|| header_exit_code(output))
        .or_else(|| last_exit_code(output))
}

/// The exit code the harness's header above `Output:` states.
fn header_exit_code(output: &str) -> Option<i64> {
    let body = headless(output);
    let header = &output[..output.len() - body.len()];
    if header.is_empty() {
        return None;
    }
    last_exit_code(header)
}

/// The exit status a text states last.
fn last_exit_code(output: &str) -> Option<i64> {
    EXIT_CODE
        .captures_iter(output)
        .last()
        .and_then(|c| c.get(1))
        .and_then(|m| m.as_str().parse().ok())
}

/// The lines of an output that sum a run up ("test result: ok. 4 passed; 0 failed"). A tally
/// a runner prints over several lines (mocha's `36 passing (2s)` then `4 failing`, jest's
/// `Test Suites:` then `Tests:`) is said whole, up to [`TALLY_LINES_MAX`] lines. Of several
/// tallies the one that counts most, the last of those: the runner's "47 passing; 3 failing"
/// over the harness's "3 tests failed." printed after it; a tally of zeros counts least.
pub(super) fn summary_line(output: &str) -> Option<String> {
    let cut = Lines::new(output);
    let lines = cut.as_slice();
    let tally_lines: Vec<usize> = cut.matched_by(&SUMMARY_LINE).collect();
    let mut best: Option<((bool, usize), Vec<&str>)> = None;
    let mut end = lines.len();
    while let Some(&last) = tally_lines.iter().rev().find(|&&i| i < end) {
        let mut tally = vec![lines[last]];
        let mut first = last;
        for (at, line) in lines[..last].iter().enumerate().rev() {
            if tally.len() == TALLY_LINES_MAX {
                break;
            }
            match line.trim() {
                "" => continue,
                l if SUMMARY_LINE.is_match(l) => {
                    tally.push(l);
                    first = at;
                }
                _ => break,
            }
        }
        // A tally of zeros ("0 passed; 0 failed": the doc-tests of a crate that has none)
        // counts less than one that counts something.
        let counts = tally.iter().flat_map(|l| COUNT.find_iter(l)).fold(
            (false, 0),
            |(something, n), count| {
                let zero = count.as_str().trim_start().starts_with('0');
                (something || !zero, n + 1)
            },
        );
        if best.as_ref().is_none_or(|(most, _)| counts > *most) {
            best = Some((counts, tally));
        }
        end = first;
    }
    let (_, mut tally) = best?;
    tally.reverse();
    let said: Vec<String> = tally.iter().map(|l| one_line(l.trim(), 100)).collect();
    Some(said.join("; "))
}

/// Whether an output holds a toolchain's verdict that its build or test failed.
pub(super) fn reports_failure(output: &str) -> bool {
    // One search of the whole output: a fit reads every output of a long session.
    FAILED_VERDICT.is_match(output)
}

/// Whether a tally ([`summary_line`]) counts a failure: "Tests 1 failed | 1444 passed", "3
/// failing", "Found 2 errors" — not "0 failed".
pub(super) fn counts_failures(tally: &str) -> bool {
    COUNT.find_iter(tally).any(|count| {
        let (n, word) = count.as_str().split_once(' ').unwrap_or(("0", ""));
        let failure = ["fail", "error"]
            .iter()
            .any(|w| word.to_lowercase().starts_with(w));
        failure && n.parse::<u64>().is_ok_and(|n| n > 0)
    })
}

/// Lines of one tally said together.
const TALLY_LINES_MAX: usize = 3;

/// The error lines of a failed run that add something (a line naming only what an earlier
/// line named is an echo of it), and the anchors they name together.
pub(super) fn run_errors(output: &str) -> (Vec<String>, Vec<String>) {
    let mut lines = Vec::new();
    let mut anchors: Vec<String> = Vec::new();
    for line in error_lines(output) {
        let own = anchors_of_error(&line);
        if !lines.is_empty() && own.iter().all(|a| anchors.contains(a)) {
            continue;
        }
        for a in own {
            if !anchors.contains(&a) && anchors.len() < 3 {
                anchors.push(a);
            }
        }
        lines.push(line);
    }
    (lines, anchors)
}

/// The lines of a failed run's output that say what went wrong, at most [`LINES_PER_RUN`]:
/// those that read as errors or point at a place in a file (a linter's `path:12:5: message`);
/// when none does, those that complain in plain words (`gh`'s "The token in default is
/// invalid.", node's "Cannot find module 'x'"); else the line that sums the run up, else the
/// last line.
pub(super) fn error_lines(output: &str) -> Vec<String> {
    let mut lines = first_lines(output, LINES_PER_RUN, |l| {
        is_error_line(l) || DIAGNOSTIC.is_match(l.trim())
    });
    if lines.is_empty() {
        lines = first_lines(output, LINES_PER_RUN, |l| {
            COMPLAINT.is_match(l) && !is_benign(l.trim())
        });
    }
    if lines.is_empty() {
        let fallback = summary_line(output).or_else(|| {
            output
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .map(|l| one_line(l.trim(), LINE_MAX_CHARS))
        });
        lines.extend(fallback);
    }
    lines
}

/// The first `max` distinct lines of an output that `says_wrong`, each cut to one short line;
/// a compiler's closing count of the errors is left out when they are among the lines.
fn first_lines(output: &str, max: usize, says_wrong: impl Fn(&str) -> bool) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for line in output.lines() {
        if lines.len() == max {
            break;
        }
        if says_wrong(line) {
            // The errors it counts are already among the lines.
            if !lines.is_empty() && ERROR_TALLY.is_match(line) {
                continue;
            }
            let shown = one_line(line.trim(), LINE_MAX_CHARS);
            if !lines.contains(&shown) {
                lines.push(shown);
            }
        }
    }
    lines
}

/// The patterns read over a whole output by [`Lines::matching`], each with whether a line is
/// trimmed before it is read alone.
#[cfg(test)]
pub(crate) fn line_patterns() -> Vec<(&'static regex::Regex, bool)> {
    vec![(&ERROR_LINE, true), (&SUMMARY_LINE, false)]
}

/// The lines of `cut` that read as errors ([`is_error_line`]), in order.
pub(crate) fn error_lines_of<'s>(cut: &'s Lines<'_>) -> impl Iterator<Item = usize> + 's {
    cut.matching(&ERROR_LINE, is_error_line)
}

/// Whether `line` reads as an error (benign mentions such as "0 failed" aside).
pub(crate) fn is_error_line(line: &str) -> bool {
    let trimmed = line.trim();
    ERROR_LINE.is_match(trimmed) && !is_benign(trimmed)
}

/// Lines that mention errors without being one ("0 errors", "error handling").
fn is_benign(line: &str) -> bool {
    let lower = line.to_lowercase();
    lower.contains(" 0 failed") && !lower.contains("failed;") && lower.contains("ok")
        || lower.starts_with("test result: ok")
}

pub(super) fn anchors_of_error(line: &str) -> Vec<String> {
    let mut anchors: Vec<String> = CODE
        .find_iter(line)
        .chain(TEST_NAME.find_iter(line))
        .map(|m| m.as_str().to_owned())
        .fold(Vec::new(), |mut acc, a| {
            if !acc.contains(&a) {
                acc.push(a);
            }
            acc
        });
    anchors.truncate(3);
    if anchors.is_empty() {
        anchors = anchors_of(line, 2);
    }
    if anchors.is_empty() {
        anchors = content_words(line, 2);
    }
    anchors
}

/// The first lines of an output a fact shows: its first `paths` lines whole when they are
/// paths (no spaces, a `/` or a `.`, at most 160 characters), else its first line shortened to
/// `chars`; and whether they were paths.
pub(super) fn sample_lines(lines: &[&str], paths: usize, chars: usize) -> (Vec<String>, bool) {
    let are_paths = !lines.is_empty()
        && lines.iter().take(paths).all(|l| {
            !l.contains(char::is_whitespace) && l.contains(['/', '.']) && l.chars().count() <= 160
        });
    let sample = if are_paths {
        lines.iter().take(paths).map(|l| (*l).to_owned()).collect()
    } else {
        lines.iter().take(1).map(|l| one_line(l, chars)).collect()
    };
    (sample, are_paths)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_lines_skip_success_summaries() {
        let out = "running 4 tests\ntest a ... ok\ntest tests::parses ... FAILED\n\
                   thread 'tests::parses' panicked at src/lib.rs:3:5\n\
                   test result: FAILED. 3 passed; 1 failed";
        assert_eq!(
            error_lines(out),
            vec![
                "test tests::parses ... FAILED".to_owned(),
                "thread 'tests::parses' panicked at src/lib.rs:3:5".to_owned(),
                "test result: FAILED. 3 passed; 1 failed".to_owned()
            ]
        );
        assert_eq!(
            error_lines("test result: ok. 4 passed; 0 failed"),
            vec!["test result: ok. 4 passed; 0 failed".to_owned()]
        );
    }

    #[test]
    fn error_anchors_prefer_codes_and_test_names() {
        assert_eq!(
            anchors_of_error("error[E0425]: cannot find function `x` in this scope"),
            vec!["E0425".to_owned()]
        );
        assert_eq!(
            anchors_of_error("test tests::parses_minimal_file ... FAILED"),
            vec!["tests::parses_minimal_file".to_owned()]
        );
        assert_eq!(
            anchors_of_error("FileNotFoundError: config.yaml"),
            vec!["FileNotFoundError".to_owned()]
        );
    }

    #[test]
    fn error_lines_are_found_among_non_ascii_lines() {
        // Claude Code's Read output: every line has a `→`; the error words are still words.
        let read = "     1→use std::fmt;\n     2→// ERROR: keep this in sync\n     3→let é = 1;\n\
                    \u{20}    4→panic!(\"FAILED — überall\");\n     5→let xFAILED = 0;";
        assert_eq!(
            first_lines(read, 5, is_error_line),
            vec![
                "2→// ERROR: keep this in sync".to_owned(),
                "4→panic!(\"FAILED — überall\");".to_owned()
            ]
        );
        assert!(first_lines("Ошибка → all fine, 0 problems\n", 5, is_error_line).is_empty());
        assert!(first_lines("", 5, is_error_line).is_empty());
    }

    #[test]
    fn a_failed_runs_errors_are_a_linters_places_or_its_complaints_in_plain_words() {
        // golangci-lint: the place and the check, above the task runner's own "ERROR".
        let lint = "[lint] $ golangci-lint run ./...\ncmd/cli/committed.go:455:20: appendAssign: append result not assigned to the same slice (gocritic)\nfilesToArchive := append(standardFiles, chunkFiles...)\n1 issues:\n[lint] ERROR task failed\n";
        assert_eq!(
            error_lines(lint),
            [
                "cmd/cli/committed.go:455:20: appendAssign: append result not assigned to the same slice (gocritic)",
                "[lint] ERROR task failed"
            ]
        );
        // gh: no line reads as an error; the complaints are what went wrong, not the hints
        // printed last.
        let gh = "github.com\n  X Failed to log in to github.com account cysp (default)\n  - Active account: true\n  - The token in default is invalid.\n  - To re-authenticate, run: gh auth login -h github.com\n";
        assert_eq!(
            error_lines(gh),
            [
                "X Failed to log in to github.com account cysp (default)",
                "- The token in default is invalid."
            ]
        );
        let node =
            "Cannot find module '@openai/codex-sdk'\nRequire stack:\n- /home/u/agentv/[eval]\n";
        assert_eq!(
            error_lines(node),
            ["Cannot find module '@openai/codex-sdk'"]
        );
        // Nothing complains: the last line, as before.
        assert_eq!(error_lines("building\nstep 2 of 3\n"), ["step 2 of 3"]);
    }

    #[test]
    fn exit_codes_are_read_from_outputs() {
        assert_eq!(last_exit_code("Process exited with code 1\nfoo"), Some(1));
        assert_eq!(last_exit_code("Exit code: 0"), Some(0));
        assert_eq!(last_exit_code("exit status 2"), Some(2));
        assert_eq!(last_exit_code("all good"), None);
        // The header's status, not an exit code the command printed after it.
        let out = "Exit code: 1\nWall time: 16 seconds\nOutput:\n  1 failing\nExtension host exited with code: 0, signal: unknown.\n";
        assert_eq!(exit_code(out), Some(1));
        assert_eq!(
            exit_code("{\"exit_code\": 2, \"output\": \"exit code 0\"}"),
            Some(2)
        );
        assert_eq!(exit_code("make: *** Error 2\nexit status 2"), Some(2));
    }
}
