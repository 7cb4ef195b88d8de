//! Small text helpers the whole crate shares: the crate's regex patterns, shortening a text for
//! a line of output, and splitting prose into sentences.

use regex::Regex;

/// Declares statics that hold the crate's regex patterns, each compiled on first use by
/// [`regex()`]: `patterns! { /// What it finds. \n NAME = r"…"; }`.
macro_rules! patterns {
    ($($(#[$attr:meta])* $name:ident = $pattern:expr;)+) => {
        $(
            $(#[$attr])*
            static $name: std::sync::LazyLock<regex::Regex> =
                std::sync::LazyLock::new(|| $crate::text::regex($pattern));
        )+
    };
}
pub(crate) use patterns;

/// A pattern written in this crate's source, compiled. A bad pattern is a bug that the first
/// test touching it finds, never something input can cause.
///
/// Word boundaries in the crate's patterns are ASCII (`(?-u:\b)`): with a Unicode one the regex
/// engine cannot use its lazy DFA on text holding any non-ASCII character and falls back to
/// backtracking, which was two thirds of a fit's planning time (BENCHMARKS.md, issue 20).
pub(crate) fn regex(pattern: &str) -> Regex {
    Regex::new(pattern).expect("static regex")
}

/// At most `max` characters of `s`, with "…" when cut (cut by characters, wherever they fall).
pub(crate) fn shorten(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s.to_owned(),
    }
}

/// The texts `pick` finds in `items`, one a line.
pub(crate) fn lines_of<'a, T>(
    items: &'a [T],
    pick: impl FnMut(&'a T) -> Option<&'a str>,
) -> String {
    items.iter().filter_map(pick).collect::<Vec<_>>().join("\n")
}

/// Typographic apostrophes (’) as ASCII, so that one pattern matches both spellings.
pub(crate) fn normalise_quotes(s: &str) -> String {
    s.replace(['\u{2019}', '\u{2018}'], "'")
}

/// At most `max` characters of `s` on one line, with "…" when cut.
pub(crate) fn one_line(s: &str, max: usize) -> String {
    let flat = single_spaced(s);
    if flat.chars().count() <= max {
        return flat;
    }
    let cut: String = flat.chars().take(max.saturating_sub(1)).collect();
    // Cut at a word boundary when one is near, so no word is shown half.
    let cut = match cut.rfind(' ') {
        Some(i) if i >= max / 2 => cut[..i].to_owned(),
        _ => cut,
    };
    format!("{}…", cut.trim_end())
}

/// At most `max` characters of `s` on one line, cut where a clause ends (a comma, semicolon,
/// colon or dash) when one is in the second half, else at a word; with "…" when cut. A
/// sentence cut at a clause still reads whole.
pub(crate) fn one_clause(s: &str, max: usize) -> String {
    let flat = single_spaced(s);
    if flat.chars().count() <= max {
        return flat;
    }
    let cut: String = flat.chars().take(max.saturating_sub(1)).collect();
    let clause = [", ", "; ", ": ", " — ", " – ", " - "]
        .iter()
        .filter_map(|sep| cut.rfind(sep))
        .max()
        .filter(|&i| i >= max / 2 && !in_code(&cut[..i]));
    match clause {
        Some(i) => format!("{}…", cut[..i].trim_end()),
        None => one_line(&flat, max),
    }
}

/// Whether `prefix` ends inside inline code (an odd number of backticks).
fn in_code(prefix: &str) -> bool {
    prefix.matches('`').count() % 2 == 1
}

/// Sentences of a prose text: split after `.`, `!`, `?` followed by a space or line end (not
/// inside inline code, not after an ellipsis), and at line breaks (list items are sentences of
/// their own). Markdown emphasis (`**`, `__`) is dropped.
pub(crate) fn sentences(text: &str) -> Vec<String> {
    sentences_and_points(text)
        .into_iter()
        .map(|(s, _)| s)
        .collect()
}

/// `line` without Markdown's bold markers (`**`, `__`), except inside code spans and inside a
/// name: `agentv__worktrees`, `__init__.py` and `` `**/*.rs` `` are what they say, and a path
/// changed by a fact is a wrong path.
fn without_bold(line: &str) -> String {
    let bytes = line.as_bytes();
    let name = |at: Option<&u8>| at.is_some_and(|c| c.is_ascii_alphanumeric());
    let mut out = String::with_capacity(line.len());
    let mut in_code = false;
    let mut from = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'`' {
            in_code = !in_code;
        }
        let marker = !in_code && matches!(b, b'*' | b'_') && bytes.get(i + 1) == Some(&b);
        if !marker {
            i += 1;
            continue;
        }
        let before = i.checked_sub(1).and_then(|j| bytes.get(j));
        let after = bytes.get(i + 2);
        // Inside a word, or closing a name before its extension (`__init__.py`).
        let extension = after == Some(&b'.') && name(bytes.get(i + 3));
        let opens_name = before.is_none_or(|c| !c.is_ascii_alphanumeric())
            && name(after)
            && line[i + 2..].contains("__.");
        if (name(before) && (name(after) || extension)) || (b == b'_' && opens_name) {
            i += 2;
            continue;
        }
        out.push_str(&line[from..i]);
        i += 2;
        from = i;
    }
    out.push_str(&line[from..]);
    out
}

/// [`sentences`], each with whether it opens an item of a list (`- `, `* `, `• `, `1. `, `2) `):
/// one of the points an answer makes.
pub(crate) fn sentences_and_points(text: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        // A table's header row names its columns ("| Command | Implementation |"); its rows
        // say what the table does.
        if is_table_row(line) && lines.peek().is_some_and(|next| TABLE_RULE.is_match(next)) {
            continue;
        }
        if is_label(line) {
            continue;
        }
        let line = without_bold(line);
        let trimmed = line.trim();
        let item = LIST_ITEM.is_match(trimmed);
        let line = trimmed.trim_start_matches(['-', '*', '•', '#']).trim();
        if line.is_empty() || line.starts_with("```") {
            continue;
        }
        let opened = out.len();
        let mut start = 0;
        let mut in_code = false;
        let bytes = line.as_bytes();
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'`' {
                in_code = !in_code;
            }
            let ends = !in_code
                && matches!(b, b'.' | b'!' | b'?')
                && bytes.get(i + 1).is_none_or(|n| *n == b' ')
                && (i == 0 || bytes[i - 1] != b'.')
                // "e.g. " and "3.5 " are not sentence ends.
                && !line[..i].ends_with("e.g")
                && !line[..i].ends_with("i.e");
            if ends {
                push_sentence(&mut out, &line[start..=i]);
                start = i + 1;
            }
        }
        push_sentence(&mut out, &line[start..]);
        if item {
            if let Some((_, point)) = out.get_mut(opened) {
                *point = true;
            }
        }
    }
    out
}

patterns! {
    LIST_ITEM = r"^(?:[-*•]|\d{1,2}[.)])\s";
    /// The rule under a markdown table's header row: `|---|:---:|`.
    TABLE_RULE = r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$";
}

/// Whether `line` is a heading or a bold line that introduces what follows ("**New commands
/// added:**", "## Changes:"): it names the list under it, which says what it holds.
fn is_label(line: &str) -> bool {
    let line = line.trim();
    let bold = line.len() > 4 && line.starts_with("**") && line.ends_with("**");
    let heading = line.starts_with('#');
    (bold || heading) && line.trim_end_matches(['*', ' ']).ends_with(':')
}

fn is_table_row(line: &str) -> bool {
    let line = line.trim();
    line.starts_with('|') && line.ends_with('|') && line.len() > 1
}

/// A message's prose and the lines of its fenced code blocks (```), apart: a chat's answer
/// that shows code has sentences around the code, and the code's lines are not sentences.
pub(crate) fn split_fenced(text: &str) -> (String, Vec<&str>) {
    let mut prose = String::new();
    let mut code = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if fenced {
            code.push(line);
        } else {
            prose.push_str(line);
            prose.push('\n');
        }
    }
    (prose, code)
}

/// The clauses of a sentence, as slices that joined again are the sentence: split after `, `,
/// `; ` and `: `, and before a dash or a joining word (`but`, `and`, `so`, `because`), never
/// inside parentheses, brackets or inline code. A piece of fewer than three words ("So,",
/// "Now,") stays with the clause after it.
pub(crate) fn clauses(sentence: &str) -> Vec<&str> {
    const JOINERS: &[&str] = &[" but ", " and ", " so ", " because ", " — ", " – "];
    let bytes = sentence.as_bytes();
    let mut cuts: Vec<usize> = Vec::new();
    let (mut depth, mut in_code) = (0usize, false);
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'`' => in_code = !in_code,
            b'(' | b'[' if !in_code => depth += 1,
            b')' | b']' if !in_code => depth = depth.saturating_sub(1),
            _ => {}
        }
        if in_code || depth > 0 {
            continue;
        }
        if matches!(b, b',' | b';' | b':') && bytes.get(i + 1) == Some(&b' ') {
            cuts.push(i + 2);
        } else if b == b' ' && JOINERS.iter().any(|j| sentence[i..].starts_with(j)) {
            cuts.push(i + 1);
        }
    }
    let mut out: Vec<&str> = Vec::new();
    let mut start = 0;
    for cut in cuts.into_iter().chain(std::iter::once(sentence.len())) {
        if cut <= start {
            continue;
        }
        let piece = &sentence[start..cut];
        if cut < sentence.len() && piece.split_whitespace().count() < 3 {
            continue;
        }
        out.push(piece);
        start = cut;
    }
    out
}

/// A tool's output without its terminal escapes (colours, cursor moves): a log printed in
/// colour spells `ERROR` as `\x1b[31mERROR\x1b[39m`, which no reader of the text wants and no
/// search for the word finds.
pub(crate) fn without_escapes(s: String) -> String {
    if s.contains('\x1b') {
        strip_ansi_escapes::strip_str(&s)
    } else {
        s
    }
}

/// `s` with every run of white space (line breaks too) as one space, and none at its ends.
pub(crate) fn single_spaced(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The clauses of a sentence that `keep` marks, in order, "…" where others were left out.
pub(crate) fn kept_clauses(parts: &[&str], keep: &[bool]) -> String {
    let mut out = String::new();
    let mut gap = false;
    for (part, &kept) in parts.iter().zip(keep) {
        if !kept {
            gap = true;
            continue;
        }
        if gap {
            let before = out.trim_end().trim_end_matches([',', ';', ':']).len();
            out.truncate(before);
            out.push_str(if out.is_empty() { "… " } else { " … " });
            gap = false;
        }
        out.push_str(part);
    }
    let mut out = out.trim_end().to_owned();
    if gap {
        let before = out.trim_end_matches([',', ';', ':']).len();
        out.truncate(before);
        out.push('…');
    }
    out
}

fn push_sentence(out: &mut Vec<(String, bool)>, s: &str) {
    let s = s.trim();
    if s.chars().filter(|c| c.is_alphanumeric()).count() >= 3 {
        out.push((s.to_owned(), false));
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_coloured_log_reads_as_its_words() {
        let log = "\x1b[31m[Nest] 72563  - \x1b[39m02/13/2026 \x1b[31m  ERROR\x1b[39m connect ECONNREFUSED";
        assert_eq!(
            super::without_escapes(log.to_owned()),
            "[Nest] 72563  - 02/13/2026   ERROR connect ECONNREFUSED"
        );
        assert_eq!(super::without_escapes("plain".to_owned()), "plain");
    }

    use super::*;

    #[test]
    fn a_long_sentence_is_cut_where_a_clause_ends() {
        let s = "`timeout_secs` now defaults to 30 through `#[serde(default)]`, so config files \
                 written before the field existed still load";
        assert_eq!(
            one_clause(s, 80),
            "`timeout_secs` now defaults to 30 through `#[serde(default)]`…"
        );
        assert_eq!(one_clause("short, and whole", 80), "short, and whole");
        // No clause end in reach: cut at a word.
        assert_eq!(one_clause("aaaa bbbb cccc dddd", 12), "aaaa bbbb…");
    }

    #[test]
    fn a_list_item_opens_with_a_point() {
        let s =
            sentences_and_points("Steps:\n1. Rinse it. Twice.\n- Wait\n2) Rest well\nDone here.");
        assert_eq!(
            s,
            vec![
                ("Steps:".to_owned(), false),
                ("Rinse it.".to_owned(), true),
                ("Twice.".to_owned(), false),
                ("Wait".to_owned(), true),
                ("2) Rest well".to_owned(), true),
                ("Done here.".to_owned(), false),
            ]
        );
    }

    #[test]
    fn fenced_code_is_apart_from_the_prose_around_it() {
        let (prose, code) =
            split_fenced("Here it is:\n```python\ndef f(x):\n    return x\n```\nIt returns x.");
        assert_eq!(prose, "Here it is:\nIt returns x.\n");
        assert_eq!(code, vec!["def f(x):", "    return x"]);
    }

    #[test]
    fn bold_markers_go_but_not_from_names_or_code() {
        assert_eq!(
            sentences("**Bottom line**: the worktree is `/w/agentv__worktrees/a`."),
            vec!["Bottom line: the worktree is `/w/agentv__worktrees/a`."]
        );
        assert_eq!(
            sentences("It lives in /w/agentv__worktrees/a and __init__.py, __really__ now."),
            vec!["It lives in /w/agentv__worktrees/a and __init__.py, really now."]
        );
        assert_eq!(
            sentences("Globs: `**/*.rs` only."),
            vec!["Globs: `**/*.rs` only."]
        );
    }

    #[test]
    fn sentences_split_at_ends_and_lines() {
        let s = sentences("Fixed it. Now 4 tests pass!\n- next: add docs\n\ne.g. this stays");
        assert_eq!(
            s,
            vec![
                "Fixed it.",
                "Now 4 tests pass!",
                "next: add docs",
                "e.g. this stays"
            ]
        );
        assert_eq!(
            sentences("It uses `ALTER TABLE ... modify` which SQLite lacks... Then more.\n**Task 2**: the hook."),
            vec![
                "It uses `ALTER TABLE ... modify` which SQLite lacks... Then more.",
                "Task 2: the hook."
            ]
        );
    }

    #[test]
    fn clauses_split_where_a_clause_ends_and_join_back_to_the_sentence() {
        let s = "So, in Python the garbage collector (reference counting, plus a cycle \
                 collector) keeps it alive, but Rust has no `a, b` collector: it drops it.";
        let parts = clauses(s);
        assert_eq!(
            parts,
            vec![
                "So, in Python the garbage collector (reference counting, plus a cycle \
                 collector) keeps it alive, ",
                "but Rust has no `a, b` collector: ",
                "it drops it."
            ]
        );
        assert_eq!(parts.concat(), s);
        assert_eq!(
            clauses("a test of 1,000 people and 99 of them"),
            vec!["a test of 1,000 people ", "and 99 of them"]
        );
    }

    #[test]
    fn one_line_cuts_at_words() {
        assert_eq!(one_line("a  b\nc", 10), "a b c");
        assert_eq!(one_line("alpha beta gamma delta", 15), "alpha beta…");
    }
}
