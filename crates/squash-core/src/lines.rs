//! The lines of a tool's output read by a pattern: one pass of the pattern over the whole text
//! instead of one search per line. A fit reads every line of every output it trims with
//! several patterns (which lines to keep, how the run ended), and most lines match none of
//! them: a search per line was most of a trim's time (BENCHMARKS.md, issue 29.4).

use regex::Regex;

/// A text cut into lines as [`str::lines`] cuts it, with where each line starts.
pub(crate) struct Lines<'a> {
    text: &'a str,
    lines: Vec<&'a str>,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        let lines: Vec<&str> = text.lines().collect();
        // Each line is a slice of `text`: its offset is where it starts.
        let starts = lines
            .iter()
            .map(|l| l.as_ptr() as usize - text.as_ptr() as usize)
            .collect();
        Lines {
            text,
            lines,
            starts,
        }
    }

    pub(crate) fn as_slice(&self) -> &[&'a str] {
        &self.lines
    }

    /// The lines `pattern` matches on their own, in order ([`Lines::matching`]).
    pub(crate) fn matched_by<'s>(&'s self, pattern: &'s Regex) -> impl Iterator<Item = usize> + 's {
        self.matching(pattern, |l| pattern.is_match(l))
    }

    /// The lines on which `pattern` matches, in order, each once, where `on_its_own` says
    /// whether a line matches when read alone (the pattern on the line, or on the line
    /// trimmed, with what else the line must say).
    ///
    /// `pattern` is searched over the whole text for the earliest place a match ends (a
    /// forward scan that stops there), from the start of each line after the one that place
    /// is on; that line is then read alone. No line is passed over as long as a match of
    /// `pattern` on a line alone (or on the line trimmed) is a match of it in the whole text
    /// within that line — true of a pattern whose assertions are word boundaries and
    /// multi-line `^` and `$` (a `$` after a `.*`, which takes a line's `\r`): a line between
    /// the search's start and the line it stops on would have ended a match earlier.
    pub(crate) fn matching<'s>(
        &'s self,
        pattern: &'s Regex,
        on_its_own: impl Fn(&str) -> bool + 's,
    ) -> impl Iterator<Item = usize> + 's {
        let mut from = Some(0);
        std::iter::from_fn(move || loop {
            let at = from?;
            let Some(end) = pattern.shortest_match_at(self.text, at) else {
                from = None;
                return None;
            };
            // The line of the match's last byte (a line break is the line's it ends).
            let last = end.saturating_sub(1).max(at);
            let line = self
                .starts
                .partition_point(|&s| s <= last)
                .saturating_sub(1);
            from = self.starts.get(line + 1).copied();
            if on_its_own(self.lines[line]) {
                return Some(line);
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::text::regex;

    /// The lines matching the per-line way: every line read alone.
    fn one_by_one(text: &str, on_its_own: impl Fn(&str) -> bool) -> Vec<usize> {
        text.lines()
            .enumerate()
            .filter(|(_, l)| on_its_own(l))
            .map(|(i, _)| i)
            .collect()
    }

    #[test]
    fn a_match_over_a_line_break_does_not_hide_the_next_lines_own() {
        // `\s+` of the pattern runs from "error" over the break into the next line.
        let pattern = regex(r"error\s+[A-Z]\d{3}|[A-Z]\d{3}: bad");
        let text = "error\nE123: bad\nok";
        let lines = Lines::new(text);
        let found: Vec<usize> = lines.matching(&pattern, |l| pattern.is_match(l)).collect();
        assert_eq!(found, vec![1]);
    }

    #[test]
    fn lines_are_cut_as_str_lines_cuts_them() {
        let text = "a 10\r\nb\n\n  c 20\r\nlast 30";
        let lines = Lines::new(text);
        assert_eq!(
            lines.as_slice(),
            text.lines().collect::<Vec<_>>().as_slice()
        );
        let number = regex(r"(?m)(?:^|[^\w.])\d{2,}");
        let found: Vec<usize> = lines.matching(&number, |l| number.is_match(l)).collect();
        assert_eq!(found, vec![0, 3, 4]);
    }

    /// Pieces of lines that the crate's line patterns look for, and what lies around them.
    fn line() -> impl Strategy<Value = String> {
        let piece = prop::sample::select(vec![
            "error: x",
            "error",
            " E0425",
            "ERROR",
            "FAILED",
            "TypeError",
            "●",
            "** (",
            "  ",
            "\t",
            "test result: ok. 3 passed",
            "0 failed",
            "12",
            "3.5",
            "v1",
            "src/a.rs",
            "main.py",
            "a/b",
            "fn main(",
            "    def run(",
            "pub fn x(",
            "finished in 2s",
            "\r",
            "é",
            "Build succeeded",
            "word",
            "-",
            ".",
            "[main 1a2b3c4] msg",
        ]);
        prop::collection::vec(piece, 0..5).prop_map(|p| p.concat())
    }

    proptest! {
        /// Found over the whole text or line by line, the same lines, for each pattern a trim
        /// or an output's reading runs this way.
        #[test]
        fn the_whole_text_finds_the_lines_each_line_does(
            lines in prop::collection::vec(line(), 0..12),
            ending in prop::sample::select(vec!["", "\n", "\r\n"]),
        ) {
            let text = lines.join(if ending == "\r\n" { "\r\n" } else { "\n" }) + ending;
            let cut = Lines::new(&text);
            let patterns = crate::fit::trim::line_patterns()
                .into_iter()
                .chain(crate::ledger::line_patterns());
            for (pattern, trimmed) in patterns {
                let on_its_own = |l: &str| pattern.is_match(if trimmed { l.trim() } else { l });
                let found: Vec<usize> = cut.matching(pattern, on_its_own).collect();
                prop_assert_eq!(found, one_by_one(&text, on_its_own), "{}", pattern.as_str());
            }
        }
    }
}
