//! Guarding a cleaned answer: the shapes that cannot be a squash of the messages — a refusal,
//! an echo of the prompt, a runaway loop, a copy of one message, no compression at all.

use std::collections::HashMap;

use super::problem::OutputProblem;
use crate::text::{normalise_quotes, patterns, shorten};

patterns! {
    REFUSAL = r"(?i)^(?:(?:(?:i'm|i am)\s+)?sorry(?-u:\b)[^.\n]{0,40}?(?-u:\b)(?:can't|cannot|can not|unable|won't|not able)(?-u:\b)|i apologi[sz]e(?-u:\b)[^.\n]{0,40}?(?-u:\b)(?:can't|cannot|can not|unable|won't|not able)(?-u:\b)|as an ai(?-u:\b)|i (?:can't|cannot|can not|won't|am unable to|'m unable to|am not able to|'m not able to) (?:help|assist|comply|fulfil|fulfill|do that|complete|process|provide|summari[sz]e|compress|squash|perform)(?-u:\b))";
    PROMPT_MARKUP = r"(?i)</?(?:messages_to_squash|additional_instructions|rules|task)\s*>|<message\s+index\s*=|</message\s*>";
}

/// A line or sentence this long, seen this often, is a loop rather than a list item.
const LOOP_MIN_CHARS: usize = 20;
const LOOP_MIN_REPEATS: usize = 3;
/// Word shingles: a text with at least `SHINGLE_MIN_WORDS` words of which at least
/// `SHINGLE_LOOP_SHARE` sit in 8-word sequences seen 3+ times is repeating itself, even when
/// each repeat is worded across lines differently.
const SHINGLE_WORDS: usize = 8;
const SHINGLE_MIN_WORDS: usize = 40;
const SHINGLE_LOOP_SHARE: f64 = 0.4;
/// Degenerate character loops ("!!!!…", "abcabcabc…") without spaces, longer than this.
const CHAR_LOOP_MIN_CHARS: usize = 200;
const CHAR_LOOP_MAX_PERIOD: usize = 16;

/// Rejects a cleaned answer that cannot be a squash of `input_text`: empty, a refusal
/// ("I'm sorry, but I can't…", "As an AI…"), an echo of the prompt's markup, a loop, or not
/// shorter than the input. A pattern that already occurs in the input (a conversation about
/// prompts may contain `<task>`, a log may repeat a line) does not count against the answer.
pub fn guard_output(input_text: &str, output: &str) -> Result<(), OutputProblem> {
    let output = output.trim();
    if output.is_empty() {
        return Err(OutputProblem::Empty);
    }
    let input_lower = normalise_quotes(&input_text.to_lowercase());

    let head: String = normalise_quotes(output).chars().take(300).collect();
    if let Some(m) = REFUSAL.find(&head) {
        if !input_lower.contains(&m.as_str().to_lowercase()) {
            let excerpt: String = head.lines().next().unwrap_or("").chars().take(80).collect();
            return Err(OutputProblem::Refusal { excerpt });
        }
    }

    for m in PROMPT_MARKUP.find_iter(output) {
        if !input_lower.contains(&m.as_str().to_lowercase()) {
            return Err(OutputProblem::EchoedMarkup {
                markup: m.as_str().to_owned(),
            });
        }
    }

    if let Some((repeated, times)) = find_loop(input_text, output) {
        return Err(OutputProblem::Looping { repeated, times });
    }

    let input_chars = input_text.trim().chars().count() as u64;
    let output_chars = output.chars().count() as u64;
    if output_chars >= input_chars {
        return Err(OutputProblem::NotShorter {
            input_chars,
            output_chars,
        });
    }
    if is_copied_part(input_text, output) {
        return Err(OutputProblem::CopiedPart {
            input_chars,
            output_chars,
        });
    }
    Ok(())
}

/// Whether `output`, fences and whitespace aside, occurs word for word in the input and is at
/// most half of it. Short answers (under 40 characters) may legitimately quote one line.
fn is_copied_part(input_text: &str, output: &str) -> bool {
    let squeeze = |t: &str| -> String {
        t.lines()
            .filter(|l| !l.trim_start().starts_with("```"))
            .flat_map(str::split_whitespace)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let (input, output) = (squeeze(input_text), squeeze(output));
    output.chars().count() >= 40 && output.len() * 2 <= input.len() && input.contains(&output)
}

fn find_loop(input_text: &str, output: &str) -> Option<(String, u64)> {
    let lines = |t: &'_ str| -> Vec<String> { t.lines().map(|l| l.trim().to_owned()).collect() };
    if let Some(found) = repeated_unit(&lines(output), &lines(input_text)) {
        return Some(found);
    }
    if let Some(found) = repeated_unit(&loop_units(output), &loop_units(input_text)) {
        return Some(found);
    }
    if shingle_loop(input_text).is_none() {
        if let Some(found) = shingle_loop(output) {
            return Some(found);
        }
    }
    char_loop(output)
}

/// The most repeated unit of at least [`LOOP_MIN_CHARS`] seen [`LOOP_MIN_REPEATS`]+ times in
/// `units` and fewer times in `input_units`.
fn repeated_unit(units: &[String], input_units: &[String]) -> Option<(String, u64)> {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for unit in units {
        if unit.chars().count() >= LOOP_MIN_CHARS {
            *counts.entry(unit.as_str()).or_default() += 1;
        }
    }
    let (unit, times) = counts
        .into_iter()
        .filter(|&(_, n)| n >= LOOP_MIN_REPEATS)
        .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(a.0)))?;
    let in_input = input_units.iter().filter(|u| u.as_str() == unit).count();
    (in_input < times).then(|| (excerpt(unit), times as u64))
}

/// Sentences and lines, the units a sentence loop repeats (cut at every line break and after
/// `.`, `!`, `?` before white space, unlike the ledger's [`sentences`](crate::text::sentences)).
fn loop_units(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\n' {
            out.push(std::mem::take(&mut current));
            continue;
        }
        current.push(c);
        if matches!(c, '.' | '!' | '?') && chars.peek().is_none_or(|n| n.is_whitespace()) {
            out.push(std::mem::take(&mut current));
        }
    }
    out.push(current);
    out.into_iter()
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .collect()
}

fn shingle_loop(text: &str) -> Option<(String, u64)> {
    let words: Vec<String> = text
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect();
    if words.len() < SHINGLE_MIN_WORDS {
        return None;
    }
    let mut counts: HashMap<&[String], usize> = HashMap::new();
    for window in words.windows(SHINGLE_WORDS) {
        *counts.entry(window).or_default() += 1;
    }
    let mut covered = vec![false; words.len()];
    for (start, window) in words.windows(SHINGLE_WORDS).enumerate() {
        if counts.get(window).copied().unwrap_or(0) >= LOOP_MIN_REPEATS {
            covered[start..start + SHINGLE_WORDS].fill(true);
        }
    }
    let share = covered.iter().filter(|&&c| c).count() as f64 / words.len() as f64;
    if share < SHINGLE_LOOP_SHARE {
        return None;
    }
    let (window, times) = counts
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(a.0)))?;
    Some((excerpt(&window.join(" ")), times as u64))
}

fn char_loop(text: &str) -> Option<(String, u64)> {
    let chars: Vec<char> = text.chars().collect();
    for period in 1..=CHAR_LOOP_MAX_PERIOD {
        // `run` counts consecutive positions equal to the one a period earlier; the repeating
        // stretch is then `run + period` characters long.
        let mut run = 0;
        for i in period..chars.len() {
            if chars[i] != chars[i - period] {
                run = 0;
                continue;
            }
            run += 1;
            if run + period < CHAR_LOOP_MIN_CHARS {
                continue;
            }
            let start = i + 1 - run - period;
            let unit: String = chars[start..start + period].iter().collect();
            if unit.trim().is_empty() {
                // Whitespace padding is not a loop; look for another stretch.
                run = 0;
                continue;
            }
            let mut end = i + 1;
            while end < chars.len() && chars[end] == chars[end - period] {
                end += 1;
            }
            return Some((excerpt(&unit), ((end - start) / period) as u64));
        }
    }
    None
}

/// How a repeated unit is quoted in [`OutputProblem::Looping`].
fn excerpt(unit: &str) -> String {
    shorten(unit, 60)
}
