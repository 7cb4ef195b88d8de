//! The ledger of a run of observations: files merged by path, commands by command (and
//! exploratory runs in a row), errors turned into fixes when a later run passed, the prose's
//! conclusions; then sorted by kind and deduplicated.

use std::collections::HashSet;

use super::commands::{command_facts, CommandObs};
use super::errors::{error_facts, ToolUseObs};
use super::excerpt::Excerpt;
use super::fact::{Fact, FactKind, Ledger};
use super::files::{file_facts, FileTouch};
use super::observe::{Observation, Observed};
use super::searches::{search_facts, SearchObs};
use super::statements::statement_facts;

/// The ledger `observations` (of messages in thread order) make.
pub(crate) fn merge(observations: &[&Observation], excerpt: Excerpt) -> Ledger {
    let mut ready: Vec<Fact> = Vec::new();
    let mut touches: Vec<&FileTouch> = Vec::new();
    let mut commands: Vec<(usize, &CommandObs)> = Vec::new();
    let mut searches: Vec<&SearchObs> = Vec::new();
    let mut tools: Vec<&ToolUseObs> = Vec::new();
    for o in observations {
        match &o.what {
            Observed::Fact(f) => ready.push(f.clone()),
            Observed::File(t) => touches.push(t),
            Observed::Command(c) => commands.push((o.index, c)),
            Observed::Search(s) => searches.push(s),
            Observed::ToolUse(t) => tools.push(t),
            Observed::Prose(_) | Observed::RequestBoundary(_) => {}
        }
    }
    // Calls without a result are observed last; their place is where they were made.
    commands.sort_by_key(|(index, _)| *index);
    tools.sort_by_key(|t| t.index);
    let mut facts = ready;
    facts.extend(file_facts(&touches));
    let runs: Vec<&CommandObs> = commands.iter().map(|(_, c)| *c).collect();
    facts.extend(command_facts(&runs));
    facts.extend(search_facts(&searches));
    facts.extend(error_facts(&commands, &tools));
    let mut prose = statement_facts(observations, excerpt);
    // A value already named by a structural fact needs no fact of its own.
    let known: Vec<String> = facts
        .iter()
        .flat_map(|f| f.anchors.iter().map(|a| a.to_lowercase()))
        .collect();
    for fact in &mut prose {
        if fact.kind == FactKind::Value {
            fact.anchors
                .retain(|a| !known.iter().any(|k| k.contains(&a.to_lowercase())));
        }
    }
    prose.retain(|f| f.kind != FactKind::Value || !f.anchors.is_empty());
    facts.extend(prose);
    facts.sort_by_key(|f| f.kind);
    dedupe(&mut facts);
    Ledger { facts }
}

/// Drops facts whose text repeats an earlier one (the same request twice, the same sentence
/// in two messages).
fn dedupe(facts: &mut Vec<Fact>) {
    let mut seen = HashSet::new();
    facts.retain(|f| seen.insert((f.kind, f.text.to_lowercase())));
}
