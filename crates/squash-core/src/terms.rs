//! Salient terms: what a reader of a squash would miss if it were lost, or distrust if it
//! appeared from nowhere — paths, identifiers, numbers, URLs, error codes. The fact ledger
//! anchors its facts on them and the quality report compares them; both read them here.

use std::collections::BTreeSet;

use regex::Regex;

use crate::text::patterns;

patterns! {
    // The extraction's own markup (see `prompt::messages_text`) is not content: its omission
    // markers, the line numbers of `cat -n`-style tool output (`    12\t…`, `    12→…`) and the
    // argument names of `Called Tool(key="value")` lines would otherwise count as dropped terms.
    OMISSION_MARKER = r"\[… [\d,]+ characters omitted …\]";
    LINE_NUMBER = r"(?m)^[ \t]*(\d+)(?:\t|→)";
    /// Applied to `Called …` lines only.
    CALL_ARG_NAME = r"(?:^Called [^\s(]+\(|, )([A-Za-z_]\w*)=";

    URL = r#"(?-u:\b)(?:https?|ftp|file)://[^\s<>"'`]+"#;
    /// Every pair of backticks, however long the span: a span is a term only up to
    /// [`SPAN_MAX_CHARS`], but a longer one still pairs its backticks.
    BACKTICKED = r"`([^`\n]+)`";
    WINDOWS_PATH = r#"(?-u:\b)[A-Za-z]:\\(?:[^\\\s"'<>|*?]+\\)*[^\\\s"'<>|*?]*"#;
    UNIX_PATH = r#"(?:^|[\s("'`=\[{,])((?:~|\.{1,2})?/?(?:[\w.@+-]+/)+[\w.@+-]*)"#;
    FILE_NAME = r"(?-u:\b)[\w-]+\.(?:rs|ts|tsx|js|jsx|mjs|cjs|py|go|java|kt|kts|rb|php|cs|c|h|cc|cpp|hpp|swift|m|scala|sql|sh|bash|zsh|ps1|md|txt|toml|json|yaml|yml|xml|html|css|scss|lock|gradle|env|cfg|ini|conf|log|csv|proto|vue|svelte|dart|lua|ex|exs|zig|nix)(?-u:\b)";
    HTTP_STATUS = r"(?i)(?-u:\b)(?:HTTP(?:/\d(?:\.\d)?)?|status(?:\s+code)?:?)\s+([1-5]\d\d)(?-u:\b)";
    EXIT_CODE = r"(?i)(?-u:\b)exit(?:ed)?\s+(?:with\s+)?(?:code|status)\s*:?\s*(-?\d+)(?-u:\b)";
    ERROR_CODE = r"(?-u:\b)[A-Z]{1,4}\d{3,5}(?-u:\b)";
    ERRNO = r"(?-u:\b)(?:ENOENT|EACCES|EPERM|EEXIST|EISDIR|ENOTDIR|ENOTEMPTY|EADDRINUSE|EADDRNOTAVAIL|ECONNREFUSED|ECONNRESET|ECONNABORTED|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EPIPE|ENOSPC|EMFILE|ENFILE|EAGAIN|EWOULDBLOCK|EINVAL|EBADF|EBUSY|ENOMEM|EINTR|EIO|ENOTFOUND|EAI_AGAIN|SIGSEGV|SIGKILL|SIGTERM|SIGABRT|SIGINT|OOMKilled)(?-u:\b)";
    RUST_PATH = r"(?-u:\b)[A-Za-z_]\w*(?:::[A-Za-z_]\w*)+(?:\(\))?";
    CALL = r"(?-u:\b)[A-Za-z_][\w.]*\(\)";
    DOTTED = r"(?-u:\b)[A-Za-z_]\w+(?:\.[A-Za-z_]\w+)+(?-u:\b)";
    FLAG = r#"(?:^|[\s("'`=\[])(--[A-Za-z0-9][\w-]*)"#;
    VERSION = r"(?-u:\b)v?\d+\.\d+\.\d+(?:[-+][0-9A-Za-z][\w.]*)?(?-u:\b)";
    PERCENT = r"(?-u:\b)\d+(?:\.\d+)?%";
    HEX = r"(?-u:\b)0x[0-9a-fA-F]+(?-u:\b)";
    THOUSANDS = r"(?-u:\b)\d{1,3}(?:,\d{3})+(?:\.\d+)?(?-u:\b)";
    DECIMAL = r"(?-u:\b)\d+\.\d+(?-u:\b)";
    INTEGER = r"(?-u:\b)\d{2,}(?-u:\b)";
    SNAKE = r"(?-u:\b)_*[A-Za-z][A-Za-z0-9]*(?:_+[A-Za-z0-9]+)+_*(?-u:\b)";
    CAMEL = r"(?-u:\b)[a-z]+[0-9]*(?:[A-Z][a-z0-9]*)+(?-u:\b)";
    PASCAL = r"(?-u:\b)[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+(?-u:\b)";
}

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
    /// Drop a backticked span longer than [`SPAN_MAX_CHARS`] (a command, a line of code).
    Span,
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
        (&BACKTICKED, Take::Normalised("{}"), Post::Span),
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

/// The longest backticked span that is a term.
const SPAN_MAX_CHARS: usize = 100;

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
        Post::Span if term.chars().count() > SPAN_MAX_CHARS => return None,
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

/// How the salient terms of a text compare with those of the text it replaces.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TermsCompared {
    /// Terms of the input that the output still has, in input order.
    pub kept: Vec<String>,
    /// Terms of the input that the output lost, in input order.
    pub dropped: Vec<String>,
    /// Terms of the output that the input never had (possible inventions), in output order.
    pub introduced: Vec<String>,
}

/// Compares the terms of `output_text` with those of `input_text`, the text it replaces.
///
/// A term counts as kept when the output has it as a term or contains it as a whole word
/// (`src/main.rs` is kept by "fixed src/main.rs:42"), and as introduced only when the input
/// contains it neither way (`main.rs` is not new when the input said `src/main.rs`).
pub fn compare_terms(input_text: &str, output_text: &str) -> TermsCompared {
    let input_terms = salient_terms(input_text);
    let output_terms = salient_terms(output_text);
    let (kept, dropped) = in_text_order(&input_terms, input_text)
        .into_iter()
        .partition(|t| output_terms.contains(t) || contains_term(output_text, t));
    let introduced = in_text_order(&output_terms, output_text)
        .into_iter()
        .filter(|t| !input_terms.contains(t) && !contains_term(input_text, t))
        .collect();
    TermsCompared {
        kept,
        dropped,
        introduced,
    }
}

/// Terms in the order they first appear in `text` — the order of the conversation, which
/// reads better than the alphabet. Normalised spellings (`HTTP 404`) that do not occur
/// literally go last, alphabetically.
pub fn in_text_order(terms: &BTreeSet<String>, text: &str) -> Vec<String> {
    let mut placed: Vec<(usize, &String)> = terms
        .iter()
        .map(|t| (text.find(t.as_str()).unwrap_or(usize::MAX), t))
        .collect();
    placed.sort();
    placed.into_iter().map(|(_, t)| t.clone()).collect()
}

#[cfg(test)]
#[path = "terms_tests.rs"]
mod tests;
