//! Small text helpers the fact extractors share.

use crate::quality::salient_terms;

/// At most `max` characters of `s` on one line, with "…" when cut.
pub(crate) fn one_line(s: &str, max: usize) -> String {
    let flat = s.split_whitespace().collect::<Vec<_>>().join(" ");
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

/// The first lines of an output a fact shows: its first `paths` lines whole when they are
/// paths (no spaces, a `/` or a `.`, at most 160 characters), else its first line shortened to
/// `chars`; and whether they were paths.
pub(crate) fn sample_lines(lines: &[&str], paths: usize, chars: usize) -> (Vec<String>, bool) {
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

/// Sentences of a prose text: split after `.`, `!`, `?` followed by a space or line end (not
/// inside inline code, not after an ellipsis), and at line breaks (list items are sentences of
/// their own). Markdown emphasis (`**`, `__`) is dropped.
pub(crate) fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.replace("**", "").replace("__", "");
        let line = line.trim().trim_start_matches(['-', '*', '•', '#']).trim();
        if line.is_empty() || line.starts_with("```") {
            continue;
        }
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
    }
    out
}

fn push_sentence(out: &mut Vec<String>, s: &str) {
    let s = s.trim();
    if s.chars().filter(|c| c.is_alphanumeric()).count() >= 3 {
        out.push(s.to_owned());
    }
}

/// The salient terms of `text` (paths, identifiers, numbers, codes, URLs), at most `max`, in
/// the order they appear.
pub(crate) fn anchors_of(text: &str, max: usize) -> Vec<String> {
    let terms = salient_terms(text);
    let mut placed: Vec<(usize, String)> = terms
        .into_iter()
        .filter(|t| is_useful_anchor(t))
        .map(|t| (text.find(t.as_str()).unwrap_or(usize::MAX), t))
        .collect();
    placed.sort();
    placed.into_iter().take(max).map(|(_, t)| t).collect()
}

/// Single digits, line references and bare years carry no fact of their own.
fn is_useful_anchor(term: &str) -> bool {
    let t = term.trim();
    if t.chars().count() < 2 {
        return false;
    }
    !(t.starts_with("L") && t[1..].chars().all(|c| c.is_ascii_digit()))
}

/// Content words of a text (letters only, at least 5 long, not common English), for facts that
/// have no salient term: they stand for the fact when checking a summary.
pub(crate) fn content_words(text: &str, max: usize) -> Vec<String> {
    const COMMON: &[&str] = &[
        "about",
        "after",
        "again",
        "could",
        "would",
        "should",
        "there",
        "their",
        "these",
        "those",
        "which",
        "while",
        "where",
        "please",
        "thanks",
        "thank",
        "something",
        "anything",
        "being",
        "every",
        "other",
        "first",
        "still",
        "before",
        "because",
        "since",
        "maybe",
        "think",
        "right",
        "using",
        "might",
        "make",
        "doesn",
        "didn",
        "haven",
        "isn't",
        "can't",
        "won't",
    ];
    let mut words: Vec<String> = Vec::new();
    for w in text.split(|c: char| !c.is_alphabetic() && c != '\'') {
        let lower = w.to_lowercase();
        if lower.chars().count() >= 5
            && !COMMON.contains(&lower.as_str())
            && !words.contains(&lower)
        {
            words.push(lower);
        }
    }
    // The longest words are the most specific.
    words.sort_by_key(|w| std::cmp::Reverse(w.chars().count()));
    words.truncate(max);
    words
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn one_line_cuts_at_words() {
        assert_eq!(one_line("a  b\nc", 10), "a b c");
        assert_eq!(one_line("alpha beta gamma delta", 15), "alpha beta…");
    }

    #[test]
    fn content_words_prefer_long_uncommon_words() {
        assert_eq!(
            content_words("Please refactor the authentication middleware", 2),
            vec!["authentication", "middleware"]
        );
    }
}
