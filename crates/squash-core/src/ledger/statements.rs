//! The facts of the agent's prose over a run of observations: its decisions, open items and
//! values, and its conclusions — every verdict, and the answer each request got, which only
//! the observations around a message can tell.

use super::anchors::content_words;
use super::fact::{Fact, FactKind};
use super::observe::{Observation, Observed};
use super::prose::{Sentence, ANSWER_SENTENCES};
use crate::text::patterns;

patterns! {
    /// Numbers an answer states, small ones and fractions included ("1/3", "0.33", "5").
    ANSWER_NUMBER = r"-?\d+(?:[./,]\d+)*";
}

/// What the observations of a ledger are, for which prose is an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Excerpt {
    /// Messages a person selected: an answer is the last prose after a request they hold, so
    /// that a squash is not asked to restate what its selection merely continues.
    Selection,
    /// Steps of a fit, each rendered on its own: the last prose before each request they hold
    /// and at their end answers a request, theirs or one before them.
    Steps,
}

/// The facts of the agent's prose: decisions, open items, values, and the agent's conclusions
/// — every verdict, and the answer to each request the observations hold (the last prose
/// before the next request or the end), which counts even without a term to anchor it.
pub(crate) fn statement_facts(observations: &[&Observation], excerpt: Excerpt) -> Vec<Fact> {
    // The prose message that answers each request: the last one before the next boundary.
    let mut answers: Vec<usize> = Vec::new();
    let mut last_prose: Option<usize> = None;
    let mut asked = excerpt == Excerpt::Steps;
    for (i, o) in observations.iter().enumerate() {
        match &o.what {
            Observed::Prose(_) if asked => last_prose = Some(i),
            Observed::RequestBoundary => {
                answers.extend(last_prose.take());
                asked = true;
            }
            _ => {}
        }
    }
    answers.extend(last_prose);
    let mut facts = Vec::new();
    for (i, o) in observations.iter().enumerate() {
        let Observed::Prose(prose) = &o.what else {
            continue;
        };
        let is_answer = answers.contains(&i);
        // An answer's sentences that say something (a verdict, a term), up to
        // ANSWER_SENTENCES, and before them: of a step's answer, its first sentences (a fit's
        // extract is all that is left of it: "Day 2: Alfama and a fado evening." is as much
        // the answer as a path); of a selection's answer that says nothing, its first sentence
        // (the squash restates the rest in its own words).
        let says = |s: &Sentence| s.verdict || !s.anchors.is_empty();
        let plain = !prose.sentences.iter().any(says);
        let leading = |n: usize| match excerpt {
            Excerpt::Steps => n < ANSWER_SENTENCES,
            Excerpt::Selection => plain && n == 0,
        };
        let mut answered = 0;
        for (n, s) in prose.sentences.iter().enumerate() {
            let answer = is_answer && answered < ANSWER_SENTENCES && (says(s) || leading(n));
            let kind = match s.kind {
                FactKind::Value if answer || s.verdict => FactKind::Answer,
                other => other,
            };
            answered += usize::from(answer);
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
            facts.push(Fact {
                kind,
                text: s.text.clone(),
                anchors,
                source: prose.source,
            });
        }
    }
    facts
}
