//! The fit planner: the oldest steps degrade first, one level at a time — every message
//! trimmed, then steps become their one-line extracts, then runs of steps their extracts, then
//! runs merge — and it stops as soon as the thread fits; then, newest first, it gives back what
//! the budget still has room for, so the result lands just under the budget. Linear in the
//! thread: each step's line and each run's extract is rendered once, from the summaries alone.
//!
//! The planner's state says which message is trimmed, which step is its line, which run is its
//! extract, which runs are merged into one; what each costs now; and the units taken, in order,
//! so that the newest can be given back.

use std::collections::HashMap;

use super::extracts::{fuller_brief, Extract, Form, Renders};
use super::gist_room::{digest_within, gist_room};
use super::levels::{degrade_order, Degradable, FitStrategy, StepAction, Unit};
use super::runs::{partition, Group, Run, Span};
use super::step::FitStep;
use super::summary::MessageSummary;
use super::turns::{Keep, Layout};
use crate::ids::MessageId;
use crate::ledger::{ledger_of, Observation};
use crate::parallel::map_each;

struct Applied {
    unit: Unit,
    saved: u64,
    /// Of a merge: how many runs of its group were merged before it.
    before: usize,
    given_back: bool,
}

pub(crate) struct Planner<'a> {
    s: &'a [MessageSummary],
    layout: &'a Layout,
    strategy: FitStrategy,
    /// The deepest a lean digest may go ([`super::brief`]).
    deepest: u8,
    pub total: u64,
    /// Per message: its step, if it is in one.
    step_of: Vec<Option<usize>>,
    trimmed: Vec<bool>,
    lined: Vec<bool>,
    /// The extracts its units become, shared with the other plans of the thread.
    renders: &'a mut Renders,
    runs: Vec<Run>,
    run_of: Vec<Option<usize>>,
    run_taken: Vec<bool>,
    groups: Vec<Group>,
    group_of: Vec<usize>,
    /// Per group: how many of its runs are merged (0: none), and whether it is terse.
    merged: Vec<usize>,
    tersed: Vec<bool>,
    spans: Vec<Span>,
    span_of: Vec<usize>,
    /// Per span: how many of its groups its digest covers (0: none), and how lean its digest
    /// of the whole is (0: not; depth + 1).
    digested: Vec<usize>,
    leaned: Vec<u8>,
    /// Per span: how many of its facts other than the files its brief digest keeps, when the
    /// room its depth left is filled ([`Planner::fill`]).
    briefed: Vec<Option<usize>>,
    applied: Vec<Applied>,
    /// The first unit [`Planner::degrade`] has not looked at.
    cursor: usize,
}

impl<'a> Planner<'a> {
    pub fn new(
        s: &'a [MessageSummary],
        layout: &'a Layout,
        strategy: FitStrategy,
        deepest: u8,
        renders: &'a mut Renders,
    ) -> Planner<'a> {
        let mut step_of = vec![None; s.len()];
        for (k, step) in layout.steps.iter().enumerate() {
            for i in step.positions() {
                step_of[i] = Some(k);
            }
        }
        let (runs, groups, spans) = partition(layout);
        let mut run_of = vec![None; layout.steps.len()];
        for (r, run) in runs.iter().enumerate() {
            for k in run.steps.clone() {
                run_of[k] = Some(r);
            }
        }
        let mut group_of = vec![0; runs.len()];
        for (g, group) in groups.iter().enumerate() {
            for r in group.runs.clone() {
                group_of[r] = g;
            }
        }
        let mut span_of = vec![0; groups.len()];
        for (sp, span) in spans.iter().enumerate() {
            for g in span.groups.clone() {
                span_of[g] = sp;
            }
        }
        Planner {
            s,
            layout,
            strategy,
            deepest,
            total: s.iter().map(|m| m.cost).sum(),
            step_of,
            trimmed: vec![false; s.len()],
            lined: vec![false; layout.steps.len()],
            renders,
            run_taken: vec![false; runs.len()],
            runs,
            run_of,
            merged: vec![0; groups.len()],
            tersed: vec![false; groups.len()],
            groups,
            group_of,
            digested: vec![0; spans.len()],
            leaned: vec![0; spans.len()],
            briefed: vec![None; spans.len()],
            spans,
            span_of,
            applied: Vec::new(),
            cursor: 0,
        }
    }

    pub fn reset(&mut self, total: u64) {
        self.total = total;
        self.trimmed.fill(false);
        self.lined.fill(false);
        self.run_taken.fill(false);
        self.merged.fill(0);
        self.tersed.fill(false);
        self.digested.fill(0);
        self.leaned.fill(0);
        self.briefed.fill(None);
        self.applied.clear();
        self.cursor = 0;
    }

    /// The units taken, in order (given back or not).
    pub fn taken(&self) -> Vec<Unit> {
        self.applied.iter().map(|a| a.unit).collect()
    }

    /// Every unit, level by level, oldest first.
    fn units(&self) -> Vec<Unit> {
        degrade_order(
            self.strategy,
            &Degradable {
                trimmable: (0..self.s.len()).filter(|&i| self.trimmable(i)).collect(),
                removable_steps: (0..self.layout.steps.len())
                    .filter(|&k| self.layout.steps[k].removable)
                    .collect(),
                runs: self.runs.len(),
                group_runs: self.groups.iter().map(|g| g.runs.len()).collect(),
                span_groups: self.spans.iter().map(|sp| sp.groups.len()).collect(),
                deepest: self.deepest,
            },
        )
    }

    fn trimmable(&self, i: usize) -> bool {
        matches!(self.layout.keep[i], Keep::No | Keep::Request) && self.s[i].trims()
    }

    /// Takes units in order until the thread holds `budget`; called again with a smaller
    /// budget, goes on from the first unit it has not looked at.
    pub fn degrade(&mut self, budget: u64) {
        let units = self.units();
        while let Some(&unit) = units.get(self.cursor) {
            if self.total <= budget {
                break;
            }
            self.cursor += 1;
            let (now, after) = match unit {
                Unit::Trim(i) => (self.s[i].cost, self.s[i].trimmed_cost),
                Unit::Line(k) => (self.step_cost(k), self.line(k).cost),
                Unit::Run(r) => (self.run_cost(r), self.run(r).cost),
                Unit::Merge(g, n) => (self.group_cost(g, n), self.merge(g, n).cost),
                Unit::Terse(g) => {
                    let all = self.groups[g].runs.len();
                    (self.group_cost(g, all), self.terse(g).cost)
                }
                Unit::Digest(sp, n) => (self.span_cost(sp, n), self.digest_cost(unit)),
                Unit::Lean(sp, _) | Unit::Brief(sp, _) => {
                    let all = self.spans[sp].groups.len();
                    (self.span_cost(sp, all), self.digest_cost(unit))
                }
            };
            let saved = now.saturating_sub(after);
            if saved == 0 {
                continue;
            }
            let before = match unit {
                Unit::Merge(g, _) => self.merged[g],
                Unit::Digest(sp, _) => self.digested[sp],
                Unit::Lean(sp, _) => usize::from(self.leaned[sp]),
                _ => 0,
            };
            self.set(unit, true, before);
            self.total -= saved;
            self.applied.push(Applied {
                unit,
                saved,
                before,
                given_back: false,
            });
        }
    }

    /// Newest first, undoes what the budget still has room for. Lines, runs and merges are
    /// undone newest first only, so no step is more degraded than an older one of its level;
    /// a trim too large for the room left does not stop an older, smaller one.
    pub fn give_back(&mut self, budget: u64) {
        let mut stopped = [false; 8];
        let mut i = self.applied.len();
        while i > 0 {
            i -= 1;
            let Applied {
                unit,
                saved,
                before,
                ..
            } = self.applied[i];
            let level = usize::from(unit.level());
            if stopped[level] {
                continue;
            }
            let cost = if self.superseded(unit) { 0 } else { saved };
            if self.total + cost <= budget {
                self.total += cost;
                self.set(unit, false, before);
                self.applied[i].given_back = true;
            } else if level > 1 {
                stopped[level] = true;
            }
        }
    }

    /// Fills the room the budget still has with more of the facts of the brief digest that
    /// reached it: the newest brief step taken and not given back goes as far as the room
    /// allows towards the depth above it.
    pub fn fill(&mut self, budget: u64) {
        let room = budget.saturating_sub(self.total);
        let newest = self.applied.iter().rev().find_map(|a| match a.unit {
            Unit::Lean(sp, depth) if depth > 0 && !a.given_back && !self.superseded(a.unit) => {
                Some((sp, depth))
            }
            _ => None,
        });
        let Some((sp, depth)) = newest else {
            return;
        };
        let now = self.digest_cost(Unit::Lean(sp, depth));
        let positions = self.positions(Unit::Lean(sp, depth));
        let within = if self.gists() {
            digest_within(now + room)
        } else {
            now + room
        };
        let Some((others, extract)) = fuller_brief(self.s, positions.clone(), depth, within) else {
            return;
        };
        let unit = Unit::Brief(sp, others);
        self.renders
            .insert(Form::Brief { others }, &positions, extract);
        self.total = self.total - now + self.digest_cost(unit);
        self.set(unit, true, 0);
    }

    fn digest_covers(&self, g: usize) -> bool {
        let sp = self.span_of[g];
        self.leaned[sp] > 0 || g < self.spans[sp].groups.start + self.digested[sp]
    }

    fn merged_covers(&self, r: usize) -> bool {
        let g = self.group_of[r];
        self.digest_covers(g) || self.tersed[g] || r < self.groups[g].runs.start + self.merged[g]
    }

    fn run_covers(&self, k: usize) -> bool {
        self.run_of[k].is_some_and(|r| self.run_taken[r] || self.merged_covers(r))
    }

    /// A unit whose messages a higher level covers now: undoing it changes nothing.
    fn superseded(&self, unit: Unit) -> bool {
        match unit {
            Unit::Trim(i) => self.step_of[i].is_some_and(|k| self.lined[k] || self.run_covers(k)),
            Unit::Line(k) => self.run_covers(k),
            Unit::Run(r) => self.merged_covers(r),
            Unit::Merge(g, n) => self.digest_covers(g) || self.tersed[g] || self.merged[g] > n,
            Unit::Terse(g) => self.digest_covers(g),
            Unit::Digest(sp, n) => self.leaned[sp] > 0 || self.digested[sp] > n,
            Unit::Lean(sp, depth) => self.leaned[sp] > depth + 1,
            Unit::Brief(sp, others) => self.briefed[sp] != Some(others),
        }
    }

    fn set(&mut self, unit: Unit, on: bool, before: usize) {
        match unit {
            Unit::Trim(i) => self.trimmed[i] = on,
            Unit::Line(k) => self.lined[k] = on,
            Unit::Run(r) => self.run_taken[r] = on,
            Unit::Merge(g, n) => self.merged[g] = if on { n } else { before },
            Unit::Terse(g) => self.tersed[g] = on,
            Unit::Digest(sp, n) => self.digested[sp] = if on { n } else { before },
            Unit::Lean(sp, depth) => {
                self.leaned[sp] = if on {
                    depth + 1
                } else {
                    u8::try_from(before).unwrap_or(0)
                }
            }
            Unit::Brief(sp, others) => self.briefed[sp] = on.then_some(others),
        }
    }

    fn message_cost(&self, i: usize) -> u64 {
        if self.trimmed[i] {
            self.s[i].trimmed_cost
        } else {
            self.s[i].cost
        }
    }

    fn step_cost(&mut self, k: usize) -> u64 {
        if self.lined[k] {
            return self.line(k).cost;
        }
        self.layout.steps[k]
            .positions()
            .map(|i| self.message_cost(i))
            .sum()
    }

    fn run_cost(&mut self, r: usize) -> u64 {
        if self.run_taken[r] {
            return self.run(r).cost;
        }
        self.runs[r].steps.clone().map(|k| self.step_cost(k)).sum()
    }

    /// What the first `n` runs of group `g` cost now.
    fn group_cost(&mut self, g: usize, n: usize) -> u64 {
        if self.tersed[g] {
            return self.terse(g).cost;
        }
        let start = self.groups[g].runs.start;
        let merged = self.merged[g].min(n);
        let head = if merged >= 2 {
            self.merge(g, merged).cost
        } else {
            0
        };
        let from = if merged >= 2 { start + merged } else { start };
        head + (from..start + n).map(|r| self.run_cost(r)).sum::<u64>()
    }

    /// What the first `n` groups of span `sp` cost now.
    fn span_cost(&mut self, sp: usize, n: usize) -> u64 {
        if let Some(others) = self.briefed[sp] {
            return self.digest_cost(Unit::Brief(sp, others));
        }
        if let Some(depth) = self.leaned[sp].checked_sub(1) {
            return self.digest_cost(Unit::Lean(sp, depth));
        }
        let start = self.spans[sp].groups.start;
        let digested = self.digested[sp].min(n);
        let head = if digested > 0 {
            self.digest_cost(Unit::Digest(sp, digested))
        } else {
            0
        };
        (start + digested..start + n)
            .map(|g| {
                let all = self.groups[g].runs.len();
                self.group_cost(g, all)
            })
            .sum::<u64>()
            + head
    }

    /// The form of the extract `unit` puts in place of its messages (a trim has none: it is
    /// priced from the summary).
    fn form(unit: Unit) -> Option<Form> {
        Some(match unit {
            Unit::Trim(_) => return None,
            Unit::Line(_) => Form::Line,
            Unit::Run(_) | Unit::Merge(..) => Form::Run,
            Unit::Terse(_) => Form::Terse,
            Unit::Digest(..) => Form::Digest,
            Unit::Lean(_, depth) => Form::Lean(depth),
            Unit::Brief(_, others) => Form::Brief { others },
        })
    }

    /// The positions of the messages `unit` stands for.
    fn positions(&self, unit: Unit) -> std::ops::RangeInclusive<usize> {
        match unit {
            Unit::Trim(i) => i..=i,
            Unit::Line(k) => self.layout.steps[k].positions(),
            Unit::Run(r) => self.positions_of_runs(r..r + 1),
            Unit::Merge(g, n) => {
                let start = self.groups[g].runs.start;
                self.positions_of_runs(start..start + n)
            }
            Unit::Terse(g) => self.positions_of_runs(self.groups[g].runs.clone()),
            Unit::Digest(sp, n) => self.positions_of_groups(sp, n),
            Unit::Lean(sp, _) | Unit::Brief(sp, _) => {
                self.positions_of_groups(sp, self.spans[sp].groups.len())
            }
        }
    }

    /// Renders every unit's extract not rendered yet ahead of the degrading, side by side on
    /// `workers` threads: a plan reads them all (degrading to nothing is how it finds the
    /// smallest reachable), and each is made from the summaries alone.
    pub fn render_all(&mut self, workers: usize) {
        if workers < 2 {
            return;
        }
        // The forms of one range together: its ledger is merged once for all of them.
        let mut todo: Vec<(std::ops::RangeInclusive<usize>, Vec<Form>)> = Vec::new();
        let mut at: HashMap<(usize, usize), usize> = HashMap::new();
        for unit in self.units() {
            let Some(form) = Self::form(unit) else {
                continue;
            };
            let positions = self.positions(unit);
            if self.renders.contains(form, &positions) {
                continue;
            }
            let key = (*positions.start(), *positions.end());
            match at.get(&key) {
                Some(&k) => todo[k].1.push(form),
                None => {
                    at.insert(key, todo.len());
                    todo.push((positions, vec![form]));
                }
            }
        }
        let s = self.s;
        let rendered = map_each(todo.len(), workers, |j| {
            super::extracts::extracts(s, todo[j].0.clone(), &todo[j].1)
        });
        for ((positions, forms), extracts) in todo.into_iter().zip(rendered) {
            for (form, extract) in forms.into_iter().zip(extracts) {
                self.renders.insert(form, &positions, extract);
            }
        }
    }

    /// What `unit` (not a trim) was rendered as: already, or now.
    fn rendered(&mut self, unit: Unit) -> &Extract {
        let form = Self::form(unit).unwrap_or(Form::Line);
        let positions = self.positions(unit);
        self.renders.render(self.s, form, positions)
    }

    fn line(&mut self, k: usize) -> &Extract {
        self.rendered(Unit::Line(k))
    }

    fn positions_of_runs(&self, runs: std::ops::Range<usize>) -> std::ops::RangeInclusive<usize> {
        let steps = &self.layout.steps;
        let first = self.runs[runs.start].steps.start;
        let last = self.runs[runs.end - 1].steps.end - 1;
        steps[first].first..=steps[last].last
    }

    fn run(&mut self, r: usize) -> &Extract {
        self.rendered(Unit::Run(r))
    }

    fn merge(&mut self, g: usize, n: usize) -> &Extract {
        self.rendered(Unit::Merge(g, n))
    }

    fn terse(&mut self, g: usize) -> &Extract {
        self.rendered(Unit::Terse(g))
    }

    /// Whether this plan's digests leave room for the model's gist (a hybrid fit).
    fn gists(&self) -> bool {
        self.strategy == FitStrategy::Hybrid
    }

    /// The room a digest of `tokens` leaves for its gist in this plan ([`gist_room`]; none
    /// without a model).
    fn gist_room_of(&self, tokens: u64) -> u64 {
        if self.gists() {
            gist_room(tokens)
        } else {
            0
        }
    }

    /// What the digest `unit` costs in the thread: its text and its gist's room.
    fn digest_cost(&mut self, unit: Unit) -> u64 {
        let cost = self.rendered(unit).cost;
        cost + self.gist_room_of(cost)
    }

    fn positions_of_groups(&self, sp: usize, n: usize) -> std::ops::RangeInclusive<usize> {
        let start = self.spans[sp].groups.start;
        let runs = self.groups[start].runs.start..self.groups[start + n - 1].runs.end;
        self.positions_of_runs(runs)
    }

    /// The plan's steps, in thread order: digests, terse groups and merges outside them, runs
    /// outside those, lines outside those, trims outside all.
    pub fn steps(&mut self) -> Vec<FitStep> {
        let mut out = Vec::new();
        for sp in 0..self.spans.len() {
            if let Some(others) = self.briefed[sp] {
                out.extend(self.unit_step(Unit::Brief(sp, others)));
            } else if let Some(depth) = self.leaned[sp].checked_sub(1) {
                out.extend(self.unit_step(Unit::Lean(sp, depth)));
            } else if self.digested[sp] > 0 {
                out.extend(self.unit_step(Unit::Digest(sp, self.digested[sp])));
            }
        }
        for g in 0..self.groups.len() {
            if self.digest_covers(g) {
                continue;
            }
            if self.tersed[g] {
                out.extend(self.unit_step(Unit::Terse(g)));
            } else if self.merged[g] >= 2 {
                out.extend(self.unit_step(Unit::Merge(g, self.merged[g])));
            }
        }
        for r in 0..self.runs.len() {
            if self.run_taken[r] && !self.merged_covers(r) {
                out.extend(self.unit_step(Unit::Run(r)));
            }
        }
        for k in 0..self.layout.steps.len() {
            if self.lined[k] && !self.run_covers(k) {
                out.extend(self.unit_step(Unit::Line(k)));
            }
        }
        for i in 0..self.s.len() {
            if self.trimmed[i] && !self.superseded(Unit::Trim(i)) {
                out.extend(self.unit_step(Unit::Trim(i)));
            }
        }
        out.sort_by_key(|s| s.first_position);
        out
    }

    /// The step `unit` makes, priced against the original messages.
    pub fn unit_step(&mut self, unit: Unit) -> Option<FitStep> {
        let squash = if self.strategy.needs_model() {
            StepAction::Ai
        } else {
            StepAction::Extract
        };
        let positions = self.positions(unit);
        let action = match unit {
            Unit::Trim(_) => StepAction::Trim,
            Unit::Line(_) => StepAction::Line,
            // A squash is of two messages or more: a run of one is its extract.
            Unit::Run(_) | Unit::Merge(..) | Unit::Terse(_)
                if positions.start() < positions.end() =>
            {
                squash
            }
            Unit::Run(_) | Unit::Merge(..) | Unit::Terse(_) => StepAction::Extract,
            Unit::Digest(..) | Unit::Lean(..) | Unit::Brief(..) => StepAction::Digest,
        };
        let s = self.s;
        let tokens_before: u64 = positions.clone().map(|i| s[i].cost).sum();
        let sources: Vec<MessageId> = positions.clone().map(|i| s[i].id).collect();
        let (tokens_after, facts, lost, text, trim, gist) = match unit {
            Unit::Trim(i) => {
                let obs: Vec<&Observation> = s[i].observations.iter().collect();
                let facts = ledger_of(&obs).len();
                let choices = s[i].trim_choices.clone();
                (
                    s[i].trimmed_cost,
                    facts,
                    s[i].trim_loses.clone(),
                    None,
                    choices,
                    0,
                )
            }
            rendered => {
                let r = self.rendered(rendered);
                let (cost, facts, text) = (r.cost, r.facts, r.text.clone());
                let form = Self::form(rendered).unwrap_or(Form::Line);
                let lost = self.renders.lost(s, form, positions.clone());
                let gist = if action == StepAction::Digest {
                    self.gist_room_of(cost)
                } else {
                    0
                };
                (cost + gist, facts, lost, Some(text), None, gist)
            }
        };
        // A model's squash is sized when it answers; a digest's facts are known, its gist not.
        let estimated = action == StepAction::Ai || gist > 0;
        let ai = action == StepAction::Ai;
        Some(FitStep {
            action,
            sources,
            first_position: *positions.start(),
            last_position: *positions.end(),
            tokens_before,
            tokens_after,
            estimated,
            facts,
            facts_kept: (!ai).then(|| facts.saturating_sub(lost.len())),
            facts_lost: if ai { Vec::new() } else { lost },
            text,
            trim,
            gist_room: (gist > 0).then_some(gist),
        })
    }
}
