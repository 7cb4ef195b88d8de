//! Facts only prose states: the user's requests, and the decisions, open items and values of
//! the messages' own words. Tool outputs are not prose (their line numbers and listings are
//! not conclusions); reasoning is not either.

use std::borrow::Cow;

use super::anchors::{anchors_of, content_words, has_prose_words, ProseTerms};
use super::excerpt::Excerpt;
use super::fact::{Fact, FactKind};
use crate::ids::MessageId;
use crate::message::{ContentItem, Message, Role};
use crate::text::{
    clauses, kept_clauses, lines_of, one_clause, one_line, patterns, sentences,
    sentences_and_points, single_spaced, split_fenced,
};

const REQUEST_MAX_CHARS: usize = 240;
const STATEMENT_MAX_CHARS: usize = 120;
/// Sentences kept per message of prose: enough for any answer, bounded for a long essay.
const SENTENCES_KEPT: usize = 16;
/// Sentences of an answer that become facts.
pub(super) const ANSWER_SENTENCES: usize = 4;
/// Lines of a message's code blocks kept as facts: what the code defines.
const DEFINITIONS_KEPT: usize = 8;
/// A request past its first clause keeps its later sentences that name something new, up to
/// this many characters in all: "… comply with pydocstyle and mypy?" is the request's constraint.
const REQUEST_MORE_CHARS: usize = 2 * REQUEST_MAX_CHARS;
/// A request this long may lose the clauses that name nothing; a shorter one is read whole.
const FILLER_FREE_FROM: usize = 160;
/// A sentence this short ("Thanks!", "See below:") does not make its line a paste's.
const SHORT_SENTENCE_CHARS: usize = 40;

patterns! {
    DECISION = r"(?i)(?-u:\b)(?:decided|decision|instead of|rather than|going with|chose|we(?:'ll| will) use|i(?:'ll| will) use|switch(?:ed|ing)? to|opted|settled on|prefer)(?-u:\b)";
    OPEN = r"(?i)(?-u:\b)(?:todo|fixme|still (?:need|needs|has|have|fails?|failing|broken|missing|open|to do)|not yet|open question|follow[- ]up|left to do|remaining (?:work|tasks?|items?|issues?|failures?)|known (?:issue|limitation)s?|blocked (?:by|on)|unresolved)(?-u:\b)";
    /// Narration of what the agent is about to do ("Let me look at …", "I'll help you …", "Now
    /// add the hook …") states no fact.
    NARRATION = r"(?i)^(?:(?:now|first|next|then|ok(?:ay)?|great|good|perfect|alright|sure|so)[,!.:]?\s+)*(?:let me|let's|let us|i(?:'ll| will| am going to|'m going to| need to| should| want to| can now| now need to)|we(?:'ll| will| need to| should)|i'm (?:now|about to|going)|time to|here(?:'s| is) (?:what|how|the plan|my plan|(?:a |the |my )?(?:summary|overview|recap|rundown|breakdown))|i have (?:a |the )?(?:clear|good|full|thorough|better|complete) (?:picture|understanding|context|view)|(?:now|next|then)\s+(?:add|update|write|run|create|implement|check|fix|apply|read|look|wire|move|remove|replace|make|test|verify|commit|push)|still (?:compiling|running|waiting|working|building|loading)|almost (?:done|there)|waiting for)(?-u:\b)";
    /// The agent takes back what it said before: a later answer replaces it ("That plan changes
    /// my answer", "I withdraw the recommendation", "was the wrong fix", "scratch that",
    /// "vergiss reset", "me equivoqué").
    RETRACTION = r"(?i)(?:changes? my (?:answer|recommendation|advice|suggestion)|(?:was|is) the wrong (?:fix|answer|approach|call|advice|command|choice|idea)|(?-u:\b)i was (?:wrong|mistaken|incorrect)|(?-u:\b)i withdraw|(?-u:\b)i (?:take|took) (?:that|it|this) back|(?:scratch|disregard) (?:that|my (?:previous|earlier|last|first))|ignore (?:what i said|my (?:previous|earlier|last|first))|forget what i said|i stand corrected|my (?:previous|earlier|last|first) (?:answer|suggestion|recommendation|advice|reply) (?:was|is) (?:wrong|incorrect|mistaken)|(?-u:\b)vergiss (?:das|alles|es|meine|reset|den|die)|war falsch|lag (?:ich )?falsch|nehme (?:das|ich) zurück|me equivoqu|olvida lo que|j'avais tort|je me suis trompé|oubliez? ce que)";
    /// A line of code that defines something a conversation's answer names (a function, a
    /// type, a table or index).
    DEFINITION = r"^\s*(?:(?:pub(?:\([a-z]+\))?|export|public|private|static|async|def)\s+)*(?:def|fn|class|struct|enum|trait|interface|function|func|type|impl)\s+[A-Za-z_]|(?i)^\s*create\s+(?:unique\s+)?(?:index|table|view|function|trigger|type)(?-u:\b)";
    /// A verdict: what the work came to ("fixed", "all 5 tests pass", "not possible", "the cause
    /// is …", "the average distance is 1/3").
    /// What Claude Code's IDE extension adds to a typed message: the file open in the editor,
    /// the lines selected in it.
    IDE_CONTEXT = r"(?s)<ide_opened_file>.*?</ide_opened_file>|<ide_selection>.*?</ide_selection>";
    /// A markdown link to a local file: `[stroke-canvas.js](/Users/me/app/public/js/stroke-canvas.js)`.
    LOCAL_LINK = r"\[([^\]\n]+)\]\(((?:/|\./|~/|file://)[^)\s]*)\)";
    VERDICT = r"(?i)(?-u:\b)(?:fixed|works|pass(?:es|ed)?|green|succeed(?:s|ed)|resolved|confirmed|verified|not possible|impossible|cannot be|can't be|(?:is|are) not supported|(?:the )?(?:cause|problem|issue|bug|reason|answer|result) (?:is|was)|turns out|equals?|is (?:about |roughly |approximately |exactly )?-?\d)(?-u:\b)|[=≈]";
}

/// The sentences of one message of the agent's prose, classified.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ProseObs {
    pub source: MessageId,
    pub sentences: Vec<Sentence>,
    /// The message takes back what the agent said before it (`RETRACTION`): the prose before
    /// it states no fact of its own (`statements::statement_facts`).
    pub retracts: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Sentence {
    /// The sentence as a fact line (cut where a clause ends, see `statement_text`).
    pub text: String,
    /// The whole sentence, for the clauses an answer keeps (`statements::answer_cover`).
    pub whole: String,
    /// Kept only for the words a conversation's answer needs (no salient term, no verdict, past
    /// the answer's first sentences): not a fact on its own.
    pub words_only: bool,
    /// `Decision` or `OpenItem` when it says so; `Value` otherwise.
    pub kind: FactKind,
    pub verdict: bool,
    /// It opens an item of a list: one of the points an answer makes, kept even when its
    /// words are short ("Rinse your mouth with salt water").
    pub point: bool,
    pub anchors: Vec<String>,
}

/// The typed text of a request: a user message a person wrote (not tool results, not a note
/// the agent's harness inserted such as a background task's notification).
pub fn typed_text(message: &Message) -> Option<String> {
    if message.role != Role::User
        || message
            .content
            .iter()
            .any(|i| matches!(i, ContentItem::ToolResult { .. }))
    {
        return None;
    }
    let text = user_text(message);
    let trimmed = text.trim();
    (!trimmed.is_empty() && !is_harness_note(trimmed)).then_some(text)
}

/// Text an agent's harness writes as a user message: Claude Code's background-task
/// notifications, local command output, interruptions and reminders.
pub fn is_harness_note(text: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "<task-notification>",
        "<local-command-stdout>",
        "<local-command-stderr>",
        "<local-command-caveat>",
        "<system-reminder>",
        "<user-prompt-submit-hook>",
        "[Request interrupted by user",
        "Caveat: The messages below were generated by the user while running local commands",
        "Base directory for this skill:",
    ];
    PREFIXES.iter().any(|p| text.starts_with(p))
}

/// The request a message makes, as a fact (what the user asked for, with its constraints), and
/// the [`ProseTerms`] of the fact's line.
pub(crate) fn request(message: &Message, excerpt: Excerpt) -> Option<(Fact, Vec<String>)> {
    let typed = typed_text(message)?;
    // The editor's context is the extension's, not the person's words; a request of only that
    // asks nothing.
    let typed = IDE_CONTEXT.replace_all(&typed, "");
    let text = typed.trim();
    let invoked = slash_command(text);
    let text = invoked.as_deref().unwrap_or(text);
    if text.is_empty() || is_markup_only(text) {
        return None;
    }
    let mut anchors = anchors_of(text, 4);
    if anchors.is_empty() {
        anchors = content_words(text, 2);
    }
    let line = match excerpt {
        Excerpt::Selection => request_text(text),
        Excerpt::Steps => one_clause(text, REQUEST_MAX_CHARS),
    };
    // The terms of the line the note keeps, not of the whole message: what a long request's
    // line leaves out (a pasted document, a log) an answer that names it still has to say.
    let terms = ProseTerms::of(&line, true);
    let fact = Fact {
        kind: FactKind::Request,
        text: format!("User: {line}"),
        anchors,
        source: message.id,
    };
    Some((fact, terms.all().cloned().collect()))
}

/// A request as a fact line: whole when short; else its opening, cut where a clause ends, and
/// each later sentence of its prose (not of a paste) that names a term the kept text does not,
/// up to `REQUEST_MORE_CHARS` in all.
fn request_text(text: &str) -> String {
    let condensed = without_filler(text);
    let text = condensed.as_str();
    let mut out = one_clause(text, REQUEST_MAX_CHARS);
    if !out.ends_with('…') {
        return out;
    }
    let flat = single_spaced(text);
    // Where the opening stops in the request: a later sentence starts at or after it.
    let opening_end = out.trim_end_matches('…').len();
    let (prose, _) = split_fenced(text);
    let mut cursor = 0;
    for sentence in sentences(&prose) {
        let sentence = single_spaced(&sentence);
        let Some(at) = flat[cursor..].find(sentence.as_str()).map(|at| cursor + at) else {
            continue;
        };
        cursor = at + sentence.len();
        if cursor <= opening_end || !is_prose_sentence(&sentence) {
            continue;
        }
        // A short sentence the opening was cut inside replaces the cut tail; a long one was
        // the opening's own.
        let line = one_clause(&sentence, STATEMENT_MAX_CHARS);
        let before = match at < opening_end {
            true if line.ends_with('…') => continue,
            true => flat[..at].trim_end(),
            false => out.as_str(),
        };
        let lower = before.to_lowercase();
        if !ProseTerms::of(&sentence, true)
            .all()
            .any(|t| !lower.contains(t.as_str()))
        {
            continue;
        }
        let line = [before, &line].join(" ").trim_start().to_owned();
        if line.chars().count() >= REQUEST_MORE_CHARS {
            break;
        }
        out = line;
    }
    out
}

/// A long request without the clauses of its prose that name nothing ("Okay so, to put it
/// simply, and I really want to be clear here …"): each sentence keeps the clauses holding a
/// strong term or a long word, and those of under four words; a paste's lines stay as they
/// are. A short request, or one whose every clause names nothing, stays whole.
fn without_filler(text: &str) -> String {
    if text.len() <= FILLER_FREE_FROM || text.contains("```") {
        return text.to_owned();
    }
    let mut kept: Vec<String> = Vec::new();
    let mut dropped = false;
    for line in text.lines() {
        let line = line.trim();
        let prose = sentences(line);
        let prose_line = prose
            .iter()
            .all(|s| is_prose_sentence(s) || s.len() < SHORT_SENTENCE_CHARS);
        if prose.is_empty() || !prose_line {
            kept.extend((!line.is_empty()).then(|| line.to_owned()));
            continue;
        }
        for sentence in prose {
            let parts = clauses(&sentence);
            let keep: Vec<bool> = parts
                .iter()
                .enumerate()
                // A clause of a few words completes the one before it ("… and mypy?").
                .map(|(n, part)| {
                    part.split_whitespace().count() < 4
                        || ProseTerms::of(part, n == 0).all().next().is_some()
                })
                .collect();
            dropped |= keep.contains(&false);
            if keep.contains(&true) {
                kept.push(kept_clauses(&parts, &keep));
            }
        }
    }
    if kept.is_empty() || !dropped {
        return text.to_owned();
    }
    kept.join(" ")
}

/// Whether a sentence is written prose, not a line of a paste (a plan, a log, a table): five
/// words or more, most of them plain words.
fn is_prose_sentence(sentence: &str) -> bool {
    let words: Vec<&str> = sentence.split_whitespace().collect();
    let plain = words
        .iter()
        .filter(|w| {
            let w = w.trim_matches(|c: char| c.is_ascii_punctuation());
            !w.is_empty() && w.chars().all(char::is_alphabetic)
        })
        .count();
    plain >= 5 && plain * 10 >= words.len() * 7
}

/// `sentence` with each markdown link to a local file said by its label, when the label names
/// the file the link does (Codex links every file it mentions by its absolute path: a path the
/// files' section says once, and twenty tokens in each sentence that names the file).
fn without_local_links(sentence: &str) -> String {
    if !sentence.contains("](") {
        return sentence.to_owned();
    }
    LOCAL_LINK
        .replace_all(sentence, |caps: &regex::Captures<'_>| {
            let (label, target) = (&caps[1], &caps[2]);
            let path = target.split(['#', '?']).next().unwrap_or(target);
            let named = label.trim_matches('`');
            if !named.is_empty() && path.ends_with(named) {
                label.to_owned()
            } else {
                caps[0].to_owned()
            }
        })
        .into_owned()
}

/// Whether a sentence states a decision: "Which approach would you prefer?" asks for one.
fn is_decision(sentence: &str) -> bool {
    DECISION.is_match(sentence) && !sentence.trim_end().ends_with('?')
}

/// A sentence as a fact line: cut where a clause ends when that keeps every anchor, else at a
/// word, else twice as long, so that the line states its own fact.
fn statement_text(sentence: &str, anchors: &[String]) -> String {
    let keeps = |text: &str| {
        let lower = text.to_lowercase();
        anchors.iter().all(|a| lower.contains(&a.to_lowercase()))
    };
    let clause = one_clause(sentence, STATEMENT_MAX_CHARS);
    if keeps(&clause) {
        return clause;
    }
    let word = one_line(sentence, STATEMENT_MAX_CHARS);
    if keeps(&word) {
        return word;
    }
    // A line that cannot state its own fact would be added to every note and still miss it.
    one_clause(sentence, 2 * STATEMENT_MAX_CHARS)
}

/// The classified sentences of an assistant message's prose (not its reasoning: tool outputs
/// and thinking are not conclusions).
pub(crate) fn prose_of(message: &Message, excerpt: Excerpt) -> Option<ProseObs> {
    if message.role != Role::Assistant {
        return None;
    }
    let text = assistant_text(message);
    let (prose, code) = match excerpt {
        Excerpt::Selection => {
            let (prose, code) = split_fenced(&text);
            (Cow::Owned(prose), code)
        }
        Excerpt::Steps => (Cow::Borrowed(text.as_str()), Vec::new()),
    };
    let mut kept: Vec<Sentence> = Vec::new();
    let (mut facts, mut words_only) = (0, 0);
    let mut retracts = false;
    for (sentence, point) in sentences_and_points(&prose) {
        let sentence = without_local_links(&sentence);
        // A fit's steps keep their history as it was told (`Excerpt::Steps`).
        retracts |= excerpt == Excerpt::Selection
            && RETRACTION.is_match(&sentence)
            && !sentence.to_lowercase().contains("vergiss nicht");
        let decision = is_decision(&sentence);
        if !decision && NARRATION.is_match(&sentence) {
            continue;
        }
        let kind = if decision {
            FactKind::Decision
        } else if OPEN.is_match(&sentence) {
            FactKind::OpenItem
        } else {
            FactKind::Value
        };
        let mut anchors = anchors_of(&sentence, 4);
        anchors.extend(shouted_words(&sentence));
        let verdict = VERDICT.is_match(&sentence);
        let worth = kind != FactKind::Value || verdict || !anchors.is_empty();
        // The first sentences stay whatever they say: they are what an answer is, should this
        // message turn out to be one (`statements::statement_facts`). Past them, a sentence
        // with only words to keep ("the borrow checker …") is kept apart, so that what the
        // other sentences are does not depend on it.
        let fact = facts < SENTENCES_KEPT && (worth || facts < ANSWER_SENTENCES);
        let words = !fact && words_only < SENTENCES_KEPT && has_prose_words(&sentence);
        if fact || words {
            facts += usize::from(fact);
            words_only += usize::from(words);
            kept.push(Sentence {
                text: statement_text(&sentence, &anchors),
                whole: sentence.clone(),
                words_only: words,
                kind,
                verdict,
                point,
                anchors,
            });
        }
    }
    kept.extend(definitions(&code));
    (!kept.is_empty() || retracts).then_some(ProseObs {
        source: message.id,
        sentences: kept,
        retracts,
    })
}

/// The lines of a message's code that define something (`def send_message_to_room(…)`,
/// `CREATE INDEX …`), as facts: the code's other lines are what the recall mark is for.
fn definitions(code: &[&str]) -> Vec<Sentence> {
    code.iter()
        .filter(|line| DEFINITION.is_match(line))
        .filter_map(|line| {
            let text = one_line(line.trim(), STATEMENT_MAX_CHARS);
            let anchors = anchors_of(&text, 4);
            (!anchors.is_empty()).then(|| Sentence {
                whole: text.clone(),
                text,
                words_only: false,
                kind: FactKind::Value,
                verdict: false,
                point: false,
                anchors,
            })
        })
        .take(DEFINITIONS_KEPT)
        .collect()
}

/// Words in capitals (`CONCURRENTLY`, `NOT NULL`'s parts): keywords a sentence stresses.
fn shouted_words(sentence: &str) -> Vec<String> {
    const COMMON: &[&str] = &[
        "TODO", "FIXME", "NOTE", "THE", "AND", "NOT", "OK", "API", "URL",
    ];
    sentence
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| w.len() >= 5 && w.chars().all(|c| c.is_ascii_uppercase()))
        .filter(|w| !COMMON.contains(w))
        .map(str::to_owned)
        .take(2)
        .collect()
}

fn user_text(message: &Message) -> String {
    lines_of(&message.content, |item| match item {
        ContentItem::UserMessage { text } => Some(text),
        _ => None,
    })
}

fn assistant_text(message: &Message) -> String {
    lines_of(&message.content, |item| match item {
        ContentItem::AssistantMessage { structured } => Some(&structured.full_text),
        _ => None,
    })
}

/// The slash command a message of only its harness's tags invoked, with its arguments:
/// `<command-name>/review</command-name><command-args>PR 2</command-args>` → `/review PR 2`.
/// What the person asked for is that, not the template the command expands to.
fn slash_command(text: &str) -> Option<String> {
    let inside = |tag: &str| {
        let (_, rest) = text.split_once(&format!("<{tag}>"))?;
        let (value, _) = rest.split_once(&format!("</{tag}>"))?;
        Some(value.trim())
    };
    let name = inside("command-name").filter(|n| n.starts_with('/'))?;
    if !is_markup_only(text) {
        return None;
    }
    Some(match inside("command-args").filter(|a| !a.is_empty()) {
        Some(args) => format!("{name} {args}"),
        None => name.to_owned(),
    })
}

/// Text that is only a tag an agent's harness inserted (`<command-name>…</command-name>`).
fn is_markup_only(text: &str) -> bool {
    text.starts_with('<') && text.ends_with('>') && !text.contains("\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slash_command_is_asked_by_its_name_and_arguments() {
        assert_eq!(
            slash_command(
                "<command-message>workflows:review</command-message>\n\
                 <command-name>/workflows:review</command-name>\n\
                 <command-args>https://github.com/o/r/pull/2</command-args>"
            )
            .as_deref(),
            Some("/workflows:review https://github.com/o/r/pull/2")
        );
        assert_eq!(
            slash_command(
                "<command-message>init…</command-message>\n<command-name>/init</command-name>"
            )
            .as_deref(),
            Some("/init")
        );
        // Words of the person's own beside the tags are the request as typed.
        assert_eq!(
            slash_command("<command-name>/review</command-name>\n\nand check the tests"),
            None
        );
    }

    #[test]
    fn narration_is_not_a_fact() {
        for narration in [
            "Let me look at src/main.rs around line 42.",
            "Now let me run the tests.",
            "I'll help you implement the annotation schema.",
            "Now I'll execute the remaining steps.",
            "Now add the `TranscriptSelection` hook and handler to app.js.",
            "Good. I have full context now.",
            "I have a clear picture.",
            "Next, I need to check the migration.",
            "Still compiling `phoenix_live_view`.",
        ] {
            assert!(NARRATION.is_match(narration), "{narration}");
        }
        assert!(!NARRATION.is_match("Line 42 assigns a &str to a String."));
        assert!(!NARRATION.is_match("Now 4 tests pass!"));
    }

    #[test]
    fn a_link_to_a_local_file_is_said_by_its_label() {
        assert_eq!(
            without_local_links(
                "Captured in [stroke-canvas.js](/Users/me/app/public/js/lib/stroke-canvas.js) and [`a/b.rs`](/w/a/b.rs#L12)."
            ),
            "Captured in stroke-canvas.js and `a/b.rs`."
        );
        let other = "See [the docs](/Users/me/app/README.md) or [x](https://example.com/x).";
        assert_eq!(without_local_links(other), other);
    }

    #[test]
    fn a_question_is_not_a_decision() {
        assert!(is_decision("Switched to SSE instead of chunked NDJSON."));
        assert!(!is_decision("Which approach would you prefer?"));
        assert!(!is_decision("Should we switch to SSE instead? "));
    }

    #[test]
    fn open_items_are_what_is_still_open_not_what_comes_next() {
        assert!(OPEN.is_match("The login test still fails on CI."));
        assert!(OPEN.is_match("TODO: document the flag."));
        assert!(!OPEN.is_match("Now I'll execute the remaining steps later."));
        assert!(!OPEN.is_match("Next, the migration."));
    }

    #[test]
    fn a_request_is_what_was_typed_not_the_editor_s_context() {
        let conv = crate::ids::ConversationId::new();
        let typed = |text: &str| {
            Message::new_unchecked(
                conv,
                Role::User,
                vec![
                    ContentItem::UserMessage {
                        text: "<ide_opened_file>The user opened the file /tmp/cmd in the IDE. This may or may not be related to the current task.</ide_opened_file>".to_owned(),
                    },
                    ContentItem::UserMessage { text: text.to_owned() },
                ],
            )
        };
        let (fact, _) = request(
            &typed("Check the VPS for Redis: cert-bund wrote"),
            Excerpt::Steps,
        )
        .expect("a request");
        assert_eq!(fact.text, "User: Check the VPS for Redis: cert-bund wrote");
        assert!(request(&typed(" "), Excerpt::Steps).is_none());
    }

    #[test]
    fn harness_notes_are_not_requests() {
        assert!(is_harness_note(
            "<task-notification>\n<task-id>b0be39e</task-id>"
        ));
        assert!(is_harness_note(
            "[Request interrupted by user for tool use]"
        ));
        assert!(!is_harness_note("did you push?"));
    }
}
