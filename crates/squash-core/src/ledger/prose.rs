//! Facts only prose states: the user's requests, and the decisions, open items and values of
//! the messages' own words. Tool outputs are not prose (their line numbers and listings are
//! not conclusions); reasoning is not either.

use std::sync::LazyLock;

use regex::Regex;

use super::text::{anchors_of, content_words, one_line, sentences};
use super::{Fact, FactKind};
use crate::message::{ContentItem, Message, Role};

const REQUEST_MAX_CHARS: usize = 240;
const STATEMENT_MAX_CHARS: usize = 160;

static DECISION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:decided|decision|instead of|rather than|going with|chose|we(?:'ll| will) use|i(?:'ll| will) use|switch(?:ed|ing)? to|opted|settled on|prefer)\b",
    )
    .expect("static regex")
});
static OPEN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:todo|fixme|next step|next,|still (?:need|has|have|fails|failing|open)|remaining|remains|open question|follow[- ]up|not yet|left to do|later)\b",
    )
    .expect("static regex")
});
/// Narration of what the agent is about to do ("Let me look at …") states no fact.
static NARRATION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^(?:(?:now|first|next|ok(?:ay)?|great|good|perfect)[,!.]?\s+)*(?:let me|let's|i(?:'ll| will| am going to|'m going to) (?:check|look|read|run|open|search|start|try|inspect|see|examine|verify|take|find|first)|i need to (?:check|look|see|read))\b",
    )
    .expect("static regex")
});

/// One fact per message of user-typed text: what the user asked for, with its constraints.
pub(crate) fn requests(messages: &[&Message]) -> Vec<Fact> {
    messages
        .iter()
        .filter(|m| m.role == Role::User)
        .filter_map(|m| {
            let text = typed_text(m);
            let text = text.trim();
            if text.is_empty() || is_markup_only(text) {
                return None;
            }
            let mut anchors = anchors_of(text, 4);
            if anchors.is_empty() {
                anchors = content_words(text, 2);
            }
            Some(Fact {
                kind: FactKind::Request,
                text: format!("User: {}", one_line(text, REQUEST_MAX_CHARS)),
                anchors,
                source: m.id,
            })
        })
        .collect()
}

/// Decisions, open items and stated values from the assistant's prose (and open questions
/// from the user's).
pub(crate) fn statements(messages: &[&Message]) -> Vec<Fact> {
    let mut facts = Vec::new();
    for message in messages {
        let prose = match message.role {
            Role::Assistant => assistant_text(message),
            Role::User | Role::System => continue,
        };
        for sentence in sentences(&prose) {
            if NARRATION.is_match(&sentence) {
                continue;
            }
            let kind = if DECISION.is_match(&sentence) {
                FactKind::Decision
            } else if OPEN.is_match(&sentence) {
                FactKind::OpenItem
            } else {
                FactKind::Value
            };
            let mut anchors = anchors_of(&sentence, 4);
            anchors.extend(shouted_words(&sentence));
            if anchors.is_empty() && kind != FactKind::Value {
                anchors = content_words(&sentence, 2);
            }
            facts.push(Fact {
                kind,
                text: one_line(&sentence, STATEMENT_MAX_CHARS),
                anchors,
                source: message.id,
            });
        }
    }
    facts
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

fn typed_text(message: &Message) -> String {
    message
        .content
        .iter()
        .filter_map(|item| match item {
            ContentItem::UserMessage { text } => Some(text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn assistant_text(message: &Message) -> String {
    message
        .content
        .iter()
        .filter_map(|item| match item {
            ContentItem::AssistantMessage { structured } => Some(structured.full_text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Text that is only a tag an agent's harness inserted (`<command-name>…</command-name>`).
fn is_markup_only(text: &str) -> bool {
    text.starts_with('<') && text.ends_with('>') && !text.contains("\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narration_is_not_a_fact() {
        assert!(NARRATION.is_match("Let me look at src/main.rs around line 42."));
        assert!(NARRATION.is_match("Now let me run the tests."));
        assert!(!NARRATION.is_match("Line 42 assigns a &str to a String."));
    }
}
