//! The facts as lines of a note, each fact once: a fact that the gist or another line already
//! tells is left out, and the files are one line.

use std::collections::{HashMap, HashSet};

use crate::ids::MessageId;
use crate::ledger::{check_facts, command_key, sole_ok_run, Fact, FactKind, Ledger, FIXED_BY};
use crate::message::Message;
use crate::render::message_text;
use crate::text::{one_line, patterns, sentences};

/// How a lead sentence of small talk is shortened (at a word, with "…").
const LEAD_MAX_CHARS: usize = 160;
/// The longest topic a follow-up question names that its answer is told under.
const TOPIC_MAX_CHARS: usize = 60;

patterns! {
    /// A follow-up that only names its topic ("What about the expires_at index?"): the
    /// answer under the topic's name says all it asked.
    FOLLOW_UP = r"(?i)^User: (?:and |so |ok(?:ay)?,? )?(?:what|how) about ([^?]+)\?$";
}

/// How much a note may leave to the reader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoteForm {
    /// Every request stays, unless the gist states it: it says what the rest answers.
    Whole,
    /// For a selection whose whole note is over its size limit: a request goes too when the
    /// other lines state it (a question, when they state what it asks about), and what was
    /// said runs as prose in the conversation's order, an exchange a line.
    Tight,
}

/// The lines for `ledger`'s facts below `gist`: each fact that the gist does not state, once.
/// A request stays unless the gist states it (in the [`NoteForm::Whole`] form); any other fact
/// goes when the other lines state it (its anchors, and every word it tells outside code) —
/// the shorter of two facts first, so that the one that tells more is kept (the history line
/// "Fixed: `cargo test` failed with … → edited lib.rs → passed" over "Ran `cargo test` → …").
pub fn fact_lines(
    ledger: &Ledger,
    gist: &str,
    messages: &[&Message],
    form: NoteForm,
) -> Vec<String> {
    let folded = fold_fixing_runs(ledger);
    let ledger = &folded;
    let in_gist = check_facts(ledger, gist).kept;
    let mut keep: Vec<bool> = (0..ledger.len())
        .map(|i| !(in_gist.contains(&i) && gist_tells(&ledger.facts[i], gist)))
        .collect();
    let mut order: Vec<usize> = (0..ledger.len())
        .filter(|&i| form == NoteForm::Tight || ledger.facts[i].kind != FactKind::Request)
        .collect();
    order.sort_by_key(|&i| ledger.facts[i].text.chars().count());
    for i in order {
        if !keep[i] || ledger.facts[i].anchors.is_empty() {
            continue;
        }
        keep[i] = false;
        let others: Vec<&str> = ledger
            .facts
            .iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|(f, _)| f.text.as_str())
            .chain(std::iter::once(gist))
            .collect();
        let rest = others.join("\n");
        let fact = &ledger.facts[i];
        let told = match form {
            NoteForm::Tight if is_question(fact) => asks_no_more(fact, &rest),
            _ => tells(fact, &rest),
        };
        keep[i] = !(check_facts(ledger, &rest).kept.contains(&i) && told);
    }
    let kept: Vec<&Fact> = ledger
        .facts
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(f, _)| f)
        .collect();
    match form {
        NoteForm::Whole => render(&kept),
        NoteForm::Tight => render_tight(&kept, messages),
    }
}

/// Whether a request asks a question: its answer, which names what was asked about, says
/// what it asked.
fn is_question(fact: &Fact) -> bool {
    fact.kind == FactKind::Request && fact.text.trim_end().ends_with('?')
}

/// Whether `rest` tells all that a question asks but one word: the answer to "How many bytes
/// is a u32 in Rust?" that says "a u32 is four bytes" leaves only "Rust" untold, which its
/// `std::mem` shows; "… and how does it relate to the speed of light?" asks more.
fn asks_no_more(question: &Fact, rest: &str) -> bool {
    const ASKING: &[&str] = &[
        "what", "how", "many", "much", "which", "who", "whom", "where", "when", "why", "does",
        "do", "did", "can", "could", "should", "would", "will", "are", "be", "about", "i", "you",
        "me", "my", "we", "our", "us", "there", "this", "that", "any", "else",
    ];
    let told = words(rest);
    told_words(&question.text)
        .iter()
        .filter(|w| !ASKING.contains(&w.as_str()) && !told.contains(*w))
        .count()
        <= 1
}

/// The ledger with a command's fixing run, as run and with what it printed, at the end of the
/// command's history line, and that run's own line left out: "Fixed: `cargo test` failed with
/// … → ok after `python3 fix.py && cargo test 2>&1`: test result: ok. 4 passed" rather than
/// the history and a "Ran `python3 fix.py && cargo test 2>&1` → ok: …" line that both tell
/// the same run. Only in the note: a fit's extract keeps its own lines.
fn fold_fixing_runs(ledger: &Ledger) -> Ledger {
    let mut facts = ledger.facts.clone();
    let mut folded: Vec<usize> = Vec::new();
    for (c, run) in ledger.facts.iter().enumerate() {
        let Some((code, output)) = sole_ok_run(run) else {
            continue;
        };
        let fixed = facts.iter().position(|f| {
            f.kind == FactKind::Fix
                && f.text
                    .rsplit_once(FIXED_BY)
                    .is_some_and(|(_, last)| !last.contains(" → ") && command_told(run, last))
        });
        let Some(f) = fixed else {
            continue;
        };
        let fix = &mut facts[f];
        if let Some((history, _)) = fix.text.rsplit_once(FIXED_BY) {
            fix.text = format!("{history}{FIXED_BY}{code}: {output}");
        }
        for anchor in &run.anchors {
            if !fix.anchors.contains(anchor) {
                fix.anchors.push(anchor.clone());
            }
        }
        folded.push(c);
    }
    let facts = facts
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !folded.contains(i))
        .map(|(_, f)| f)
        .collect();
    Ledger { facts }
}

/// Whether `text`, which states `fact`'s anchors, also tells what the fact's line does: every
/// word it has outside code, and each command it names, whole.
fn tells(fact: &Fact, text: &str) -> bool {
    told_words(&fact.text).is_subset(&words(text)) && command_told(fact, text)
}

/// Whether a gist, which states `fact`'s anchors, tells it: a gist says things in its own
/// words, but a count it leaves out ("12 passed", "48s") is a detail the line still has.
fn gist_tells(fact: &Fact, gist: &str) -> bool {
    // What was asked is told by its anchors: a request's own numbers are how it was put.
    if fact.kind == FactKind::Request {
        return true;
    }
    let numbers = |w: &String| w.chars().any(|c| c.is_ascii_digit());
    let told = words(gist);
    told_words(&fact.text)
        .iter()
        .filter(|w| numbers(w))
        .all(|w| told.contains(w))
        && command_told(fact, gist)
}

/// Whether `rest` names the commands a command fact is about, whole (without the plumbing
/// that shaped its output): `mix compile --force` does not tell of `mix compile
/// --warnings-as-errors`, though both hold the anchor `mix compile`.
fn command_told(fact: &Fact, rest: &str) -> bool {
    if fact.kind != FactKind::Command {
        return true;
    }
    fact.text
        .split('`')
        .skip(1)
        .step_by(2)
        .all(|display| rest.contains(command_key(display).as_str()))
}

/// Words a fact line tells beyond its anchors: those outside inline code (a command's
/// plumbing, `2>&1 | tail -20`, is how it was run, not what came of it), lower case, without
/// the words every line uses.
fn told_words(text: &str) -> HashSet<String> {
    const COMMON: &[&str] = &[
        "a", "an", "the", "and", "or", "of", "to", "in", "on", "with", "by", "after", "then",
        "ran", "run", "user", "fixed", "failed", "edited", "read", "wrote", "ok", "passed", "it",
        "is", "was", "files",
    ];
    text.split('`')
        .step_by(2)
        .flat_map(words)
        .filter(|w| !COMMON.contains(&w.as_str()))
        .collect()
}

fn words(text: &str) -> HashSet<String> {
    text.split(|c: char| !c.is_alphanumeric() && c != '_')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// One line a fact, the files together on one.
fn render(facts: &[&Fact]) -> Vec<String> {
    let mut lines = Vec::new();
    let files: Vec<String> = facts
        .iter()
        .filter(|f| f.kind == FactKind::File)
        .map(|f| lower_first(&f.text))
        .collect();
    let mut files_done = false;
    for fact in facts {
        if fact.kind != FactKind::File {
            lines.push(format!("- {}", fact.text));
        } else if !files_done {
            files_done = true;
            lines.push(format!("- Files: {}", files.join("; ")));
        }
    }
    lines
}

/// The tight form: what was said (requests, answers, decisions, open items, values) as prose
/// in the order of the messages it came from, each request opening a line and the sentences
/// that followed it running on; then the files, commands and errors a line each, as in the whole form.
fn render_tight(facts: &[&Fact], messages: &[&Message]) -> Vec<String> {
    let said = |f: &&Fact| {
        matches!(
            f.kind,
            FactKind::Request
                | FactKind::Answer
                | FactKind::Decision
                | FactKind::OpenItem
                | FactKind::Value
        )
    };
    let position: HashMap<MessageId, usize> = messages
        .iter()
        .enumerate()
        .map(|(i, m)| (m.id, i))
        .collect();
    let mut prose: Vec<&Fact> = facts.iter().copied().filter(said).collect();
    // Stable: facts of one message keep the ledger's order.
    prose.sort_by_key(|f| position.get(&f.source));
    let mut lines: Vec<String> = Vec::new();
    let mut topic: Option<(&Fact, String)> = None;
    for fact in prose {
        if let Some((question, name)) = topic.take() {
            if fact.kind == FactKind::Request {
                lines.push(question.text.clone());
            } else {
                lines.push(format!("{name}: {}", fact.text));
                continue;
            }
        }
        if let Some(name) = follow_up_topic(fact) {
            topic = Some((fact, name));
            continue;
        }
        match lines.last_mut() {
            Some(line)
                if fact.kind != FactKind::Request
                    && ends_sentence(line)
                    && ends_sentence(&fact.text) =>
            {
                line.push(' ');
                line.push_str(&fact.text);
            }
            _ => lines.push(fact.text.clone()),
        }
    }
    if let Some((question, _)) = topic {
        lines.push(question.text.clone());
    }
    let rest: Vec<&Fact> = facts.iter().copied().filter(|f| !said(f)).collect();
    lines.extend(render(&rest));
    lines
}

/// The topic a follow-up question names, capitalized ("The expires_at index"), when the
/// question asks no more than "what about it".
fn follow_up_topic(fact: &Fact) -> Option<String> {
    if fact.kind != FactKind::Request {
        return None;
    }
    let name = FOLLOW_UP
        .captures(fact.text.trim())?
        .get(1)?
        .as_str()
        .trim();
    (!name.is_empty() && name.chars().count() <= TOPIC_MAX_CHARS).then(|| upper_first(name))
}

/// Whether a line ends as a sentence does: only sentences run on, so that a line of code or
/// configuration keeps a line of its own.
fn ends_sentence(line: &str) -> bool {
    line.trim_end()
        .ends_with(['.', '?', '!', ':', '…', '。', '？', '！'])
}

fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn upper_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The first sentence of each message, for a selection the ledger has no fact of.
pub(super) fn lead_sentences(messages: &[&Message]) -> String {
    messages
        .iter()
        .filter_map(|m| {
            let text = message_text(m);
            let first = sentences(&text).into_iter().next()?;
            Some(format!(
                "- {}: {}",
                m.role,
                one_line(&first, LEAD_MAX_CHARS)
            ))
        })
        .collect::<Vec<_>>()
        .join("\n")
}
