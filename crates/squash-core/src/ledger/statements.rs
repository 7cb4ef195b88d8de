//! The facts of the agent's prose over a run of observations: its decisions, open items and
//! values, and its conclusions — every verdict, and the answer each request got, which only
//! the observations around a message can tell.

use std::collections::HashSet;

use super::anchors::{anchors_of, content_words, ProseTerms};
use super::excerpt::Excerpt;
use super::fact::{Fact, FactKind};
use super::observe::{Observation, Observed};
use super::prose::{ProseObs, Sentence, ANSWER_SENTENCES};
use crate::ids::MessageId;
use crate::text::{clauses, kept_clauses, patterns};

/// Anchors of an answer's clauses checked in a squash's text: the first terms each adds.
const COVER_ANCHORS: usize = 6;

patterns! {
    /// Numbers an answer states, small ones and fractions included ("1/3", "0.33", "5").
    ANSWER_NUMBER = r"-?\d+(?:[./,]\d+)*";
}

/// The facts of the agent's prose: decisions, open items, values, and the agent's conclusions
/// — every verdict, and the answer to each request the observations hold (the last prose
/// before the next request or the end), which counts even without a term to anchor it.
pub(crate) fn statement_facts(observations: &[&Observation], excerpt: Excerpt) -> Vec<Fact> {
    let answers = answers_of(observations, excerpt);
    // What the selection's requests already say: an answer's clause that only repeats it is
    // not kept.
    let mut covered: HashSet<String> = observations
        .iter()
        .filter_map(|o| match &o.what {
            Observed::RequestBoundary(terms) => Some(terms),
            _ => None,
        })
        .flatten()
        .cloned()
        .collect();
    let withdrawn = withdrawn(observations);
    let mut facts = Vec::new();
    for (i, o) in observations.iter().enumerate() {
        let Observed::Prose(prose) = &o.what else {
            continue;
        };
        if withdrawn.contains(&i) {
            continue;
        }
        let is_answer = answers.contains(&i);
        if is_answer && excerpt == Excerpt::Selection {
            let cover = answer_cover(prose, &mut covered);
            if !cover.is_empty() {
                facts.extend(cover);
                continue;
            }
        }
        let says = |s: &Sentence| s.verdict || !s.anchors.is_empty();
        let plain = !prose.sentences.iter().any(|s| !s.words_only && says(s));
        // An answer's sentences that say something (a verdict, a term), up to
        // ANSWER_SENTENCES, and before them: of a step's answer, its first sentences (a fit's
        // extract is all that is left of it: "Day 2: Alfama and a fado evening." is as much
        // the answer as a path); of a selection's answer that says nothing, its first sentence
        // (the squash restates the rest in its own words).
        // A word or two that names nothing ("Summary:", "Root Cause", "Perfect!") heads or
        // greets an answer; it is not one, nor is a label for what follows ("Looking at the
        // evidence:", "What we know:").
        let leading = |n: usize, s: &Sentence| match excerpt {
            Excerpt::Steps => {
                let words = s.whole.split_whitespace().count();
                n < ANSWER_SENTENCES
                    && words > 2
                    && !(words <= 4 && s.whole.trim_end().ends_with(':'))
            }
            Excerpt::Selection => plain && n == 0,
        };
        let mut answered = 0;
        for (n, s) in prose.sentences.iter().filter(|s| !s.words_only).enumerate() {
            let answer = is_answer && answered < ANSWER_SENTENCES && (says(s) || leading(n, s));
            answered += usize::from(answer);
            facts.push(sentence_fact(s, answer, prose.source));
        }
    }
    facts
}

/// The prose messages a later one takes back (`ProseObs::retracts`): the spec's rule for
/// corrections is to keep the final state, so the answer that was withdrawn ("an index on
/// created_at", "go freemium", "git push --force-with-lease") is not stated as one. Its terms
/// that still hold are said again by the answer that replaced it.
fn withdrawn(observations: &[&Observation]) -> HashSet<usize> {
    let mut withdrawn = HashSet::new();
    let mut last_prose: Option<usize> = None;
    for (i, o) in observations.iter().enumerate() {
        if let Observed::Prose(prose) = &o.what {
            if prose.retracts {
                withdrawn.extend(last_prose);
            }
            last_prose = Some(i);
        }
    }
    withdrawn
}

/// The prose message that answers each request: the last one before the next boundary.
fn answers_of(observations: &[&Observation], excerpt: Excerpt) -> Vec<usize> {
    let mut answers: Vec<usize> = Vec::new();
    let mut last_prose: Option<usize> = None;
    let mut asked = excerpt == Excerpt::Steps;
    for (i, o) in observations.iter().enumerate() {
        match &o.what {
            Observed::Prose(_) if asked => last_prose = Some(i),
            Observed::RequestBoundary(_) => {
                answers.extend(last_prose.take());
                asked = true;
            }
            _ => {}
        }
    }
    answers.extend(last_prose);
    answers
}

/// A sentence as a fact on its own: an answer's when `answer`, a verdict's, or what its kind
/// says.
fn sentence_fact(s: &Sentence, answer: bool, source: MessageId) -> Fact {
    let kind = match s.kind {
        FactKind::Value if answer || s.verdict => FactKind::Answer,
        other => other,
    };
    let mut anchors = s.anchors.clone();
    if kind == FactKind::Answer && anchors.is_empty() {
        anchors = ANSWER_NUMBER
            .find_iter(&s.text)
            .map(|m| m.as_str().to_owned())
            .take(2)
            .collect();
    }
    if anchors.is_empty() && kind != FactKind::Value {
        anchors = content_words(&s.text, 2);
    }
    Fact {
        kind,
        text: s.text.clone(),
        anchors,
        source,
    }
}

/// The facts of an answer in a selection: of each sentence, the clauses that say something
/// not yet said — a strong term of [`ProseTerms`] that neither the requests nor an earlier
/// clause holds, or in a sentence without one, a long word — so that every word of the
/// answer that matters is kept once, and its filler ("Great question, …", "I hope this
/// helps") is not. A verdict or a decision that adds no term is still a fact of its own.
fn answer_cover(prose: &ProseObs, covered: &mut HashSet<String>) -> Vec<Fact> {
    let mut facts = Vec::new();
    for s in &prose.sentences {
        let parts = clauses(&s.whole);
        let terms: Vec<ProseTerms> = parts
            .iter()
            .enumerate()
            .map(|(n, part)| ProseTerms::of(part, n == 0))
            .collect();
        let new = |t: &String| !covered.contains(t);
        let strong = terms.iter().any(|t| t.strong.iter().any(new));
        let keep: Vec<bool> = terms
            .iter()
            .map(|t| {
                if strong {
                    t.strong.iter().any(new)
                } else {
                    t.long.iter().any(new)
                }
            })
            .collect();
        let mut anchors: Vec<String> = Vec::new();
        for (t, _) in terms.iter().zip(&keep).filter(|(_, k)| **k) {
            for term in t.all() {
                if covered.insert(term.clone()) {
                    anchors.push(term.clone());
                }
            }
        }
        if anchors.is_empty() {
            if s.point || (!s.words_only && (s.verdict || s.kind != FactKind::Value)) {
                facts.push(sentence_fact(s, true, prose.source));
            }
            continue;
        }
        let text = kept_clauses(&parts, &keep);
        // A squash's text states the clauses by their salient terms where they have some (a
        // gist says "moves to Redis" of "Decided: use Redis"), else by their words.
        let lower = text.to_lowercase();
        let salient: Vec<String> = anchors_of(&text, COVER_ANCHORS)
            .into_iter()
            .filter(|a| lower.contains(&a.to_lowercase()))
            .collect();
        if !salient.is_empty() {
            anchors = salient;
        }
        anchors.truncate(COVER_ANCHORS);
        facts.push(Fact {
            kind: match s.kind {
                FactKind::Value => FactKind::Answer,
                other => other,
            },
            text,
            anchors,
            source: prose.source,
        });
    }
    facts
}
