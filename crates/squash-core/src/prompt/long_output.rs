//! A long tool output as a prompt shows it: its head and tail by characters, or (for the small
//! models) a few head and tail lines and the error lines between them.

use crate::text::shorten;
use crate::tokens::format_count;

/// Characters of a long tool output (or reasoning block) kept from its start and its end.
/// The head holds what was run and the first findings; the tail holds the summary line most
/// tools end with ("3 errors", "test result: ok", the exit status).
const OUTPUT_HEAD_CHARS: usize = 1_200;
const OUTPUT_TAIL_CHARS: usize = 400;
/// Cutting fewer characters than this saves nothing worth the marker.
const MIN_OMITTED_CHARS: usize = 200;

/// Keeps the head and the tail of a long output and says how much of the middle was cut.
/// Cuts fall on line breaks when one is near, so no line is shown half.
pub(super) fn shorten_output(text: &str) -> String {
    let total = text.chars().count();
    if total <= OUTPUT_HEAD_CHARS + OUTPUT_TAIL_CHARS + MIN_OMITTED_CHARS {
        return text.to_owned();
    }
    let byte_at = |char_index: usize| {
        text.char_indices()
            .nth(char_index)
            .map_or(text.len(), |(b, _)| b)
    };
    let head_limit = byte_at(OUTPUT_HEAD_CHARS);
    let head_floor = byte_at(OUTPUT_HEAD_CHARS * 3 / 4);
    let head_end = text[head_floor..head_limit]
        .rfind('\n')
        .map_or(head_limit, |i| head_floor + i);

    let tail_floor = byte_at(total - OUTPUT_TAIL_CHARS);
    let tail_ceiling = byte_at(total - OUTPUT_TAIL_CHARS * 3 / 4);
    let tail_start = text[tail_floor..tail_ceiling]
        .find('\n')
        .map_or(tail_floor, |i| tail_floor + i + 1);

    let head = text[..head_end].trim_end();
    let tail = text[tail_start..].trim_start_matches(['\n', '\r']);
    // Counted from what is shown, so that shown + omitted is always the whole output.
    let omitted = total - head.chars().count() - tail.chars().count();
    format!(
        "{head}\n[… {} characters omitted …]\n{tail}",
        format_count(omitted as u64)
    )
}

/// Lines of a tool output a condensed transcript keeps from its start and its end.
const CONDENSED_HEAD_LINES: usize = 2;
const CONDENSED_TAIL_LINES: usize = 1;
const CONDENSED_ERROR_LINES: usize = 3;
const CONDENSED_LINE_CHARS: usize = 160;

/// The first and last lines of a long output and the error lines between them, with a marker
/// saying how many lines were cut.
pub(super) fn condense_output(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let keep_all = CONDENSED_HEAD_LINES + CONDENSED_TAIL_LINES + CONDENSED_ERROR_LINES;
    if lines.len() <= keep_all {
        return lines
            .iter()
            .map(|l| shorten(l, CONDENSED_LINE_CHARS))
            .collect::<Vec<_>>()
            .join("\n");
    }
    let tail_start = lines.len() - CONDENSED_TAIL_LINES;
    let mut out: Vec<String> = Vec::new();
    let mut cut = 0usize;
    let mut errors = 0usize;
    let flush_cut = |out: &mut Vec<String>, cut: &mut usize| {
        if *cut > 0 {
            out.push(format!("[… {cut} lines cut …]"));
            *cut = 0;
        }
    };
    for (i, line) in lines.iter().enumerate() {
        let is_error = errors < CONDENSED_ERROR_LINES && looks_like_error(line);
        if i < CONDENSED_HEAD_LINES || i >= tail_start || is_error {
            errors += usize::from(is_error && i >= CONDENSED_HEAD_LINES && i < tail_start);
            flush_cut(&mut out, &mut cut);
            out.push(shorten(line, CONDENSED_LINE_CHARS));
        } else {
            cut += 1;
        }
    }
    out.join("\n")
}

fn looks_like_error(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    [
        "error",
        "failed",
        "panicked",
        "exception",
        "traceback",
        "fatal",
        "denied",
    ]
    .iter()
    .any(|w| lower.contains(w))
        && !lower.contains(" 0 failed")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn condensed_outputs_keep_head_tail_and_errors() {
        let log: String = (1..=30)
            .map(|i| {
                if i == 15 {
                    "error[E0308]: mismatched types".to_owned()
                } else {
                    format!("line {i}")
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        assert_eq!(
            condense_output(&log),
            "line 1\nline 2\n[… 12 lines cut …]\nerror[E0308]: mismatched types\n\
             [… 14 lines cut …]\nline 30"
        );
        assert_eq!(condense_output("a\nb"), "a\nb");
    }

    #[test]
    fn short_output_is_kept_whole() {
        let text = "line\n".repeat(300);
        assert_eq!(shorten_output(&text), text);
    }

    #[test]
    fn long_output_keeps_head_and_tail_on_line_breaks() {
        let text: String = (1..=400)
            .map(|i| format!("src/file_{i:03}.ts: ok\n"))
            .collect();
        let short = shorten_output(&text);
        assert!(short.starts_with("src/file_001.ts: ok\n"));
        assert!(short.trim_end().ends_with("src/file_400.ts: ok"));
        assert!(short.contains("characters omitted …]"));
        // Every kept line is whole.
        for line in short.lines().filter(|l| !l.starts_with("[…")) {
            assert!(
                line.starts_with("src/file_") && line.ends_with(": ok"),
                "{line:?}"
            );
        }
        let omitted: usize = short
            .split("[… ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .map(|n| n.replace(',', "").parse().unwrap())
            .unwrap();
        let kept = short.chars().count()
            - format!(
                "\n[… {} characters omitted …]\n",
                format_count(omitted as u64)
            )
            .chars()
            .count();
        assert_eq!(kept + omitted, text.chars().count());
    }

    #[test]
    fn long_output_without_line_breaks_is_cut_by_characters() {
        let text = "é".repeat(5_000);
        let short = shorten_output(&text);
        assert!(short.contains("[… 3,400 characters omitted …]"), "{short}");
        assert!(short.starts_with(&"é".repeat(1_200)));
    }
}
