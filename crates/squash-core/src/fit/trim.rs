//! The first level of a fit: a message trimmed to what carries facts. A tool output keeps its
//! error lines, exit status and summary lines (`N passed`), the lines naming paths, and then
//! its first and last lines, and says how much was cut; a long tool input (a file an edit
//! writes) is cut the same way; long reasoning keeps its first sentence and the ones naming
//! terms; a long paste inside a request (a log, a trace, a file) is trimmed like an output
//! while the words the person typed stay. Ids and pairing never change, so the thread stays
//! valid for the model APIs; the full text stays in the history, reachable through provenance
//! and undo.

use serde_json::Value;

use crate::ledger::{error_lines_of, exit_code};
use crate::lines::Lines;
use crate::message::{output_text, ContentItem, Message, Role, StructuredText, ToolResultData};
use crate::recall::Mark;
use crate::text::{patterns, shorten};
use crate::tokens::{estimate_tokens, format_count};

/// The first words of every trimmed text: how a trimmed output is recognised (never trimmed
/// twice).
pub const TRIM_MARKER: &str = "[trimmed by squash:";

/// Texts below this many estimated tokens are left alone: trimming would save little.
pub const MIN_TRIMMED_TOKENS: u64 = 100;
/// A tool input string longer than this many characters is trimmed.
const INPUT_MIN_CHARS: usize = 600;
/// A paste inside a request: at least this many lines in a row.
const PASTE_MIN_LINES: usize = 15;

const HEAD_LINES: usize = 3;
const TAIL_LINES: usize = 3;
const LINE_MAX_CHARS: usize = 200;
/// At most this many lines are kept, plus one per `LINES_PER_EXTRA` of a long output.
const BASE_LINES: usize = 10;
const LINES_PER_EXTRA: usize = 25;
const MAX_LINES: usize = 40;
/// A paste inside a request keeps fewer: the person's words around it stay whole, and the
/// agent has acted on it already.
const PASTE_MAX_LINES: usize = 12;
/// Reasoning keeps at most this many sentences.
const REASONING_SENTENCES: usize = 4;

patterns! {
    // Word boundaries ASCII, as everywhere in the crate (see `text::regex`).
    SUMMARY = r"(?i)(?:exit(?:ed)? (?:with )?(?:code|status)|test result:|(?-u:\b)\d+ (?:passed|failed|failing|passing|errors?|tests?|failures?|warnings?|skipped)(?-u:\b)|(?:build|compilation) (?:succeeded|failed|finished)|(?-u:\b)Finished(?-u:\b)|(?-u:\b)Done(?-u:\b))";
    PATH = r"(?:[\w.-]+/)+[\w.-]+\.\w{1,6}(?-u:\b)|(?-u:\b)[\w-]+\.(?:rs|py|ts|tsx|js|jsx|ex|exs|go|rb|java|kt|c|h|cpp|md|json|toml|ya?ml|sql|sh)(?-u:\b)";
    // `^` is each line's start also when the pattern reads a whole output (`crate::lines`).
    NUMBER = r"(?m)(?:^|[^\w.])\d{2,}(?:[.,]\d+)*";
    /// A line that declares a named type or function, at the top level or one level in (a
    /// method): `export interface EntireCommandContext {`, `pub fn parse(`, `    def run(`.
    DECLARATION = r"(?m)^(?: {0,4}|\t)(?:export\s+)?(?:default\s+)?(?:pub(?:\([\w:]+\))?\s+)?(?:async\s+)?(?:function|class|interface|type|enum|struct|trait|impl|fn|def|defp|defmodule|func|module)\s+[A-Za-z_$]";
}

/// The trimmed content of `message`, or `None` when nothing in it is worth trimming. `request`
/// says the message is a person's request: only its pastes may go. Each trimmed part's marker
/// ends with `mark`'s reference (the first part's with how to use it, when the mark is the
/// thread's first); without a mark it says the full text stays in the history.
pub fn trim_message(
    message: &Message,
    request: bool,
    mark: Option<Mark>,
) -> Option<Vec<ContentItem>> {
    trim_choosing(message, request, &mut Trimming::marked(mark))
}

/// [`trim_message`], and the lines it chose: what [`trim_replaying`] writes the same trim from
/// without choosing them again.
pub(crate) fn trim_recording(
    message: &Message,
    request: bool,
    mark: Option<Mark>,
) -> Option<(Vec<ContentItem>, TrimChoices)> {
    let mut trimming = Trimming::marked(mark);
    let content = trim_choosing(message, request, &mut trimming)?;
    Some((content, TrimChoices(trimming.recorded)))
}

/// [`trim_message`] with the lines `choices` recorded of the same message: the same content
/// for any mark, without reading the texts for their lines again (a plan chooses them to price
/// a trim; the apply writes the trim with its recall mark).
pub(crate) fn trim_replaying(
    message: &Message,
    request: bool,
    mark: Option<Mark>,
    choices: &TrimChoices,
) -> Option<Vec<ContentItem>> {
    let mut trimming = Trimming {
        replay: Some(choices.0.iter()),
        ..Trimming::marked(mark)
    };
    trim_choosing(message, request, &mut trimming)
}

fn trim_choosing(
    message: &Message,
    request: bool,
    trimming: &mut Trimming<'_>,
) -> Option<Vec<ContentItem>> {
    let mut changed = false;
    let content = message
        .content
        .iter()
        .map(|item| {
            let trimmed = if request {
                trim_paste(item, trimming)
            } else {
                trim_item(item, message.role, trimming)
            };
            match trimmed {
                Some(t) => {
                    changed = true;
                    t
                }
                None => item.clone(),
            }
        })
        .collect();
    changed.then_some(content)
}

fn trim_item(item: &ContentItem, role: Role, trimming: &mut Trimming<'_>) -> Option<ContentItem> {
    match item {
        ContentItem::ToolResult {
            tool_use_id,
            tool_name,
            result,
            is_error,
        } => {
            let output = crate::text::without_escapes(output_text(result));
            let trimmed = trim_lines(&output, *is_error, (MAX_LINES, Source::Printed), trimming)?;
            let mut kept: Vec<ToolResultData> = vec![ToolResultData::Text { text: trimmed }];
            kept.extend(
                result
                    .iter()
                    .filter(|d| !matches!(d, ToolResultData::Text { .. }))
                    .cloned(),
            );
            Some(ContentItem::ToolResult {
                tool_use_id: tool_use_id.clone(),
                tool_name: tool_name.clone(),
                result: kept,
                is_error: *is_error,
            })
        }
        ContentItem::ToolCall { id, name, input } => {
            let input = trim_input(input, trimming)?;
            Some(ContentItem::tool_call(id.clone(), name.clone(), input))
        }
        // A reasoning block is signed: it cannot be shortened, only replaced by text.
        ContentItem::Thinking { thinking, .. } if role == Role::Assistant => {
            let tokens = estimate_tokens(thinking);
            if tokens < MIN_TRIMMED_TOKENS * 2 {
                return None;
            }
            Some(ContentItem::AssistantMessage {
                structured: StructuredText {
                    full_text: trimming.said(trim_reasoning(
                        thinking,
                        tokens,
                        trimming.mark.as_ref(),
                    )),
                    ..StructuredText::default()
                },
            })
        }
        _ => None,
    }
}

/// `text` trimmed to the lines that carry facts, or `None` when it is short, trimmed already,
/// or trimming would save less than half.
pub fn trim_text(text: &str, is_error: bool, mark: Option<&Mark>) -> Option<String> {
    trim_lines(
        text,
        is_error,
        (MAX_LINES, Source::Printed),
        &mut Trimming::marked(mark.copied()),
    )
}

/// What a trimmed text is, for which of its lines tell most.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Source {
    /// What a tool printed, or a paste.
    Printed,
    /// The content of a file a tool writes: what it declares (its types and functions, by
    /// name) tells what the file is, as its first lines (the imports) do not.
    Written,
}

/// The lines a trim of one text kept, and what its marker says of the rest: enough to write the
/// trim again from the text with any mark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LineChoice {
    /// The kept lines' indices, in order.
    keep: Vec<u32>,
    /// How many lines the text has.
    lines: u32,
    /// How the run ended, as the marker says it (`; exit 1`, `; failed`, or nothing).
    status: String,
    /// Estimated tokens cut.
    cut: u64,
}

/// What a trim of one message chose, text by text in the order it read them (`None`: the text
/// stays whole).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrimChoices(Vec<Option<LineChoice>>);

/// One message's trim in progress: the mark its markers end with, and each text's lines
/// chosen, or replayed from the choices recorded of the same message.
#[derive(Default)]
struct Trimming<'a> {
    /// The thread's first mark says how to use references; only the first trimmed text of
    /// the message says it, as a plan prices it.
    mark: Option<Mark>,
    replay: Option<std::slice::Iter<'a, Option<LineChoice>>>,
    recorded: Vec<Option<LineChoice>>,
}

impl Trimming<'_> {
    fn marked(mark: Option<Mark>) -> Self {
        Trimming {
            mark,
            ..Trimming::default()
        }
    }

    /// `trimmed`, a text just trimmed with the mark: any text after it says only the reference.
    fn said(&mut self, trimmed: String) -> String {
        if let Some(m) = self.mark.as_mut() {
            m.first = false;
        }
        trimmed
    }
}

/// [`trim_text`] keeping at most `max_lines` lines of a text of `source`, its lines chosen or
/// replayed by `trimming`.
fn trim_lines(
    text: &str,
    is_error: bool,
    (max_lines, source): (usize, Source),
    trimming: &mut Trimming<'_>,
) -> Option<String> {
    let replayed = trimming.replay.as_mut().and_then(Iterator::next);
    let (choice, body) = match replayed {
        Some(choice) => {
            let choice = choice.as_ref()?;
            (choice.clone(), body(&Lines::new(text), &choice.keep))
        }
        None => {
            let chosen = choose(text, is_error, max_lines, source);
            trimming
                .recorded
                .push(chosen.as_ref().map(|(choice, _)| choice.clone()));
            chosen?
        }
    };
    let trimmed = header(&choice, trimming.mark.as_ref()) + &body;
    Some(trimming.said(trimmed))
}

/// The lines of `text` a trim keeps, with the trimmed body; `None` when the text is short,
/// trimmed already, or trimming would save less than half.
fn choose(
    text: &str,
    is_error: bool,
    max_lines: usize,
    source: Source,
) -> Option<(LineChoice, String)> {
    if text.starts_with(TRIM_MARKER) {
        return None;
    }
    // A token is at least a byte: a short text needs no estimate to be left alone.
    if (text.len() as u64) < MIN_TRIMMED_TOKENS {
        return None;
    }
    let tokens = estimate_tokens(text);
    if tokens < MIN_TRIMMED_TOKENS {
        return None;
    }
    let cut = Lines::new(text);
    let keep: Vec<u32> = chosen_lines(&cut, max_lines, source)
        .into_iter()
        .map(|i| u32::try_from(i).unwrap_or(u32::MAX))
        .collect();
    let out = body(&cut, &keep);
    let status = match (exit_code(text), is_error) {
        (Some(code), _) => format!("; exit {code}"),
        (None, true) => "; failed".to_owned(),
        (None, false) => String::new(),
    };
    let choice = LineChoice {
        keep,
        lines: u32::try_from(cut.as_slice().len()).unwrap_or(u32::MAX),
        status,
        cut: tokens.saturating_sub(estimate_tokens(&out)),
    };
    // Whether to trim is decided without the mark, so that a plan (made before references are
    // given) and its application trim the same texts.
    if estimate_tokens(&(header(&choice, None) + &out)) * 2 > tokens {
        return None;
    }
    Some((choice, out))
}

/// The kept lines of `cut`, each on a line of its own, with how many lines each gap holds.
fn body(cut: &Lines<'_>, keep: &[u32]) -> String {
    let lines = cut.as_slice();
    let mut out = String::new();
    let mut previous: Option<usize> = None;
    for i in keep
        .iter()
        .map(|&i| i as usize)
        .filter(|&i| i < lines.len())
    {
        let gap = match previous {
            Some(p) => i - p - 1,
            None => i,
        };
        if gap > 0 {
            out.push_str(&format!("\n[… {} lines …]", format_count(gap as u64)));
        }
        out.push('\n');
        out.push_str(&shorten(lines[i].trim_end(), LINE_MAX_CHARS));
        previous = Some(i);
    }
    let tail = lines.len() - previous.map_or(0, |p| p + 1);
    if tail > 0 {
        out.push_str(&format!("\n[… {} lines …]", format_count(tail as u64)));
    }
    out
}

/// A trim's marker: what it kept and cut, and where the rest is.
fn header(choice: &LineChoice, mark: Option<&Mark>) -> String {
    format!(
        "{TRIM_MARKER} kept {} of {} lines{}, ~{} tokens cut; {}]",
        format_count(choice.keep.len() as u64),
        format_count(u64::from(choice.lines)),
        choice.status,
        format_count(choice.cut),
        where_the_rest_is(mark)
    )
}

/// How a marker says where the cut text is: its reference, or that the history holds it.
fn where_the_rest_is(mark: Option<&Mark>) -> String {
    mark.map_or_else(
        || "the full text stays in the history".to_owned(),
        Mark::inline,
    )
}

/// The patterns read over a whole output by [`Lines::matching`], each with whether a line is
/// trimmed before it is read alone.
#[cfg(test)]
pub(crate) fn line_patterns() -> Vec<(&'static regex::Regex, bool)> {
    vec![
        (&SUMMARY, false),
        (&PATH, false),
        (&NUMBER, false),
        (&DECLARATION, false),
    ]
}

/// Which lines to keep, in order: what went wrong and how it ended first, then what a written
/// file declares, the first and last lines, the lines naming paths, then lines with numbers,
/// up to the cap.
fn chosen_lines(cut: &Lines<'_>, max_lines: usize, source: Source) -> Vec<usize> {
    let lines = cut.as_slice();
    let cap = (BASE_LINES + lines.len() / LINES_PER_EXTRA).min(max_lines);
    let mut picked = Picked {
        lines,
        chosen: vec![false; lines.len()],
        count: 0,
        cap,
        shapes: Vec::new(),
        repeats: 0,
    };
    picked.take_where(error_lines_of(cut));
    picked.take_where(cut.matched_by(&SUMMARY));
    if source == Source::Written {
        // Each declaration names something of its own, however alike (`command1`, `command2`).
        picked.take_each(cut.matched_by(&DECLARATION));
    }
    let head_tail =
        (0..HEAD_LINES.min(lines.len())).chain(lines.len().saturating_sub(TAIL_LINES)..lines.len());
    // The ends stay whatever they say: where an output starts and how it ends.
    picked.take_each(head_tail);
    picked.take_where(cut.matched_by(&PATH));
    picked.take_where(cut.matched_by(&NUMBER));
    (0..lines.len()).filter(|&i| picked.chosen[i]).collect()
}

/// The lines chosen so far, up to a cap; blank lines are never chosen.
struct Picked<'a> {
    lines: &'a [&'a str],
    chosen: Vec<bool>,
    count: usize,
    cap: usize,
    /// The shapes of the lines chosen (see [`shape`]), at most the cap's few dozen.
    shapes: Vec<u64>,
    /// The lines passed over as repeats of a chosen one.
    repeats: usize,
}

impl Picked<'_> {
    fn take(&mut self, i: usize) {
        if self.count < self.cap && !self.chosen[i] && !self.lines[i].trim().is_empty() {
            self.chosen[i] = true;
            self.count += 1;
            self.shapes.push(shape(self.lines[i]));
        }
    }

    /// Takes the lines `wanted` names, in order, until the cap; once the cap is reached no
    /// further line is looked for.
    fn take_each(&mut self, wanted: impl Iterator<Item = usize>) {
        for i in wanted {
            if self.count >= self.cap {
                return;
            }
            self.take(i);
        }
    }

    /// Takes the lines `wanted` names, in order, until the cap, each unless a line of its
    /// shape is chosen already: a warning repeated for 40 files says what it says once, and the
    /// room goes to lines that say something else. Once the cap is reached no further line is
    /// looked for (an output's lines are read by several patterns, and a long output reaches
    /// the cap early); nor once as many repeats as the cap were passed over (a log of
    /// thousands of alike lines would otherwise be read to its end by each pattern).
    fn take_where(&mut self, mut wanted: impl Iterator<Item = usize>) {
        while self.count < self.cap && self.repeats < self.cap {
            match wanted.next() {
                Some(i) if self.chosen[i] => {}
                Some(i) if self.shapes.contains(&shape(self.lines[i])) => self.repeats += 1,
                Some(i) => self.take(i),
                None => return,
            }
        }
    }
}

/// A line with what varies between repeats of one message left out — its paths and digits —
/// as a hash: "Warning: duplicate key `a/b.md`" and "Warning: duplicate key `c/d.md`" have
/// one shape; "--- FAIL: TestA" and "--- FAIL: TestB" do not, nor two errors that quote
/// different words. A path is a run of word characters, dots, dashes and slashes that holds a
/// slash. Read for every line a trim looks at: one pass, no allocation (FNV-1a).
fn shape(line: &str) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut add = |b: u8| hash = (hash ^ u64::from(b)).wrapping_mul(PRIME);
    let bytes = line.trim().as_bytes();
    let mut start = 0;
    // A space after the last byte ends the last run.
    for (i, &b) in bytes.iter().chain([&b' ']).enumerate() {
        if b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-' | b'/') {
            continue;
        }
        let run = &bytes[start..i];
        if run.contains(&b'/') {
            add(b'/');
        } else {
            run.iter()
                .filter(|b| !b.is_ascii_digit())
                .for_each(|&b| add(b));
        }
        add(b);
        start = i + 1;
    }
    hash
}

/// A tool input with its long strings trimmed (the content a `Write` writes, an edit's
/// strings, a script); a command keeps its first line.
fn trim_input(input: &Value, trimming: &mut Trimming<'_>) -> Option<Value> {
    let Value::Object(map) = input else {
        return None;
    };
    let mut out = map.clone();
    let mut changed = false;
    for (key, value) in map {
        let Value::String(s) = value else { continue };
        if s.chars().count() < INPUT_MIN_CHARS {
            continue;
        }
        if let Some(t) = trim_lines(s, false, (MAX_LINES, Source::Written), trimming) {
            out.insert(key.clone(), Value::String(t));
            changed = true;
        }
    }
    changed.then_some(Value::Object(out))
}

/// The first sentence of a long reasoning and the ones naming terms, marked as trimmed.
fn trim_reasoning(thinking: &str, tokens: u64, mark: Option<&Mark>) -> String {
    let sentences = crate::text::sentences(thinking);
    let mut kept: Vec<String> = Vec::new();
    for (i, s) in sentences.iter().enumerate() {
        if kept.len() == REASONING_SENTENCES {
            break;
        }
        if i == 0 || PATH.is_match(s) || NUMBER.is_match(s) {
            kept.push(shorten(s, LINE_MAX_CHARS));
        }
    }
    let reference = mark
        .map(|m| format!("; {}", m.inline()))
        .unwrap_or_default();
    format!(
        "{TRIM_MARKER} reasoning, ~{} tokens{reference}] {}",
        format_count(tokens),
        kept.join(" ")
    )
}

/// A request's long pastes trimmed; the words around them stay as typed.
fn trim_paste(item: &ContentItem, trimming: &mut Trimming<'_>) -> Option<ContentItem> {
    let ContentItem::UserMessage { text } = item else {
        return None;
    };
    if estimate_tokens(text) < MIN_TRIMMED_TOKENS * 2 {
        return None;
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<String> = Vec::new();
    let mut changed = false;
    let mut i = 0;
    while i < lines.len() {
        let block = paste_at(&lines, i);
        if block.len() >= PASTE_MIN_LINES {
            let pasted = lines[block.clone()].join("\n");
            match trim_lines(&pasted, false, (PASTE_MAX_LINES, Source::Printed), trimming) {
                Some(t) => {
                    out.push(t);
                    changed = true;
                }
                None => out.push(pasted),
            }
            i = block.end;
        } else {
            out.push(lines[i].to_owned());
            i += 1;
        }
    }
    changed.then(|| ContentItem::UserMessage {
        text: out.join("\n"),
    })
}

/// The paste starting at line `i`: a fenced block's inside, or a run of non-blank lines.
fn paste_at(lines: &[&str], i: usize) -> std::ops::Range<usize> {
    if lines[i].trim_start().starts_with("```") {
        let end = lines[i + 1..]
            .iter()
            .position(|l| l.trim_start().starts_with("```"))
            .map_or(lines.len(), |p| i + 1 + p);
        return i + 1..end;
    }
    let end = lines[i..]
        .iter()
        .position(|l| l.trim().is_empty())
        .map_or(lines.len(), |p| i + p);
    i..end
}

#[cfg(test)]
#[path = "trim_tests.rs"]
mod tests;
