//! Carrying out a fit plan: every step is computed first (trims, lines and extracts here, AI
//! squashes by the engine; a failed model call ends the fit with nothing written), then the
//! whole plan is one commit.

use std::collections::{HashMap, HashSet};

use serde::Serialize;
use squash_core::fit::{fitted_links, settle, settled, trim_as_planned, FitStep, StepAction};
use squash_core::parallel::map_indexed;
use squash_core::recall::{how_tokens, mark_tokens, marked, Mark};
use squash_core::{
    ContentItem, ConversationId, Message, MessageId, OperationKind, RecallRef, Role,
    SquashOperation, SquashOperationId, Thread, ThreadOrigin,
};
use squash_store::NewLinks;

use super::{message_cost, FitError, FitService, PlannedFit};
use crate::commit::{commit_planned, Committed, Planned, Refs};
use crate::conversations::ConversationService;
use crate::error::ServiceError;
use crate::squash::{DigestToWrite, SquashResult};
use crate::workers::workers;

/// One step as carried out.
#[derive(Clone, Debug, Serialize)]
pub struct StepDone {
    /// The step with its real size and facts kept.
    #[serde(flatten)]
    pub step: FitStep,
    pub operation_id: SquashOperationId,
    pub result_message_id: MessageId,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

/// What a fit did.
#[derive(Clone, Debug, Serialize)]
pub struct FitOutcome {
    pub conversation_id: ConversationId,
    /// The thread the fit was made on: the current thread then (the agent's own, or one the
    /// person switched to, such as an imported session's whole history).
    pub fitted: Thread,
    /// The new current thread; `None` when the thread was within the budget already.
    pub thread: Option<Thread>,
    pub budget: u64,
    pub tokens_before: u64,
    pub tokens_after: u64,
    pub steps: Vec<StepDone>,
    /// How many times the plan was re-applied because the conversation moved on meanwhile.
    pub reapplied: u32,
}

impl FitOutcome {
    pub fn fits(&self) -> bool {
        self.tokens_after <= self.budget
    }
}

/// Reported as each step is computed (an AI step takes seconds).
#[derive(Clone, Copy, Debug)]
pub struct FitProgress<'a> {
    /// 1-based.
    pub index: usize,
    /// Steps planned so far (grows when AI results come out larger than estimated).
    pub of: usize,
    pub step: &'a FitStep,
}

/// A step computed but not stored. Its message gets its recall reference when the commit
/// numbers the plan's results; a trim is made then, from its source, with the reference in
/// its marker.
struct Computed {
    step: FitStep,
    message: Message,
    operation: SquashOperation,
    trim_of: Option<Message>,
}

impl Computed {
    /// The message and its record, carrying `mark`.
    fn marked(&self, mark: Mark) -> Result<(Message, SquashOperation), ServiceError> {
        let mut message = self.message.clone();
        message.content = match &self.trim_of {
            Some(source) => trim_as_planned(source, Some(mark), self.step.trim.as_ref())
                .ok_or_else(|| stale_trim(source))?,
            None => marked(&message.content, message.role, mark),
        };
        let mut operation = self.operation.clone();
        operation.recall_ref = Some(mark.recall);
        Ok((message, operation))
    }
}

fn stale_trim(source: &Message) -> ServiceError {
    ServiceError::Invalid(format!(
        "message {} has nothing to trim (the plan is stale)",
        source.id
    ))
}

impl FitService {
    /// Carries out `planned`: refuses a plan that cannot reach its budget unless `best_effort`,
    /// computes every step, and stores them as one new current thread.
    pub async fn apply(
        &self,
        planned: PlannedFit,
        best_effort: bool,
        progress: &(dyn Fn(FitProgress<'_>) + Sync),
    ) -> Result<FitOutcome, FitError> {
        let plan = &planned.plan;
        let budget = plan.request.budget;
        if !plan.fits() && !best_effort {
            return Err(FitError::out_of_reach(plan));
        }
        let mut outcome = FitOutcome {
            conversation_id: planned.conversation_id,
            fitted: planned.base.thread.clone(),
            thread: None,
            budget,
            tokens_before: plan.tokens_before,
            tokens_after: plan.tokens_before,
            steps: Vec::new(),
            reapplied: 0,
        };
        if plan.steps.is_empty() {
            return Ok(outcome);
        }
        let computed = self.compute_all(&planned, progress).await?;
        let committed = self.commit(&planned, &computed).await?;
        outcome.reapplied = committed.reapplied;
        outcome.thread = Some(committed.thread);
        // The sizes as stored: each result with its recall reference.
        outcome.steps = computed
            .into_iter()
            .zip(&committed.planned.messages)
            .map(|(mut c, stored)| {
                c.step.tokens_after = message_cost(stored);
                StepDone {
                    operation_id: c.operation.id,
                    result_message_id: c.message.id,
                    model: c.operation.kind.model().map(str::to_owned),
                    step: c.step,
                }
            })
            .collect();
        outcome.tokens_after = plan
            .tokens_before
            .saturating_sub(outcome.steps.iter().map(|d| d.step.saved()).sum());
        Ok(outcome)
    }

    /// Computes the plan's steps in order; while the AI results leave the thread over budget,
    /// the reserve's steps follow. Steps that a later, higher level covers are dropped.
    async fn compute_all(
        &self,
        planned: &PlannedFit,
        progress: &(dyn Fn(FitProgress<'_>) + Sync),
    ) -> Result<Vec<Computed>, FitError> {
        let plan = &planned.plan;
        let mut sources = self
            .trim_sources(plan.steps.iter().chain(&plan.reserve))
            .await?;
        let mut pending: Vec<FitStep> = plan.steps.iter().rev().cloned().collect();
        let mut reserve = plan.reserve.iter().cloned();
        let mut done: Vec<Computed> = Vec::new();
        // The AI steps as planned: their runs' extracts, which the plan priced.
        let mut planned_ai: Vec<(usize, FitStep)> = Vec::new();
        loop {
            let step = match pending.pop() {
                Some(step) => step,
                None if self.over_budget(plan.tokens_before, plan.request.budget, &done) => {
                    match reserve.next() {
                        // A group of one run is that run: its squash is done already.
                        Some(step) if covered(&done, &step) => continue,
                        Some(step) => step,
                        None => break,
                    }
                }
                None => break,
            };
            let of = done.len() + 1 + pending.len();
            progress(FitProgress {
                index: done.len() + 1,
                of,
                step: &step,
            });
            if step.action == StepAction::Ai {
                planned_ai.push((done.len(), step.clone()));
            }
            done.push(self.compute(planned, step, &mut sources).await?);
        }
        self.extracts_in_place_of_overshoots(planned, &mut done, planned_ai);
        let steps: Vec<FitStep> = done.iter().map(|c| c.step.clone()).collect();
        let stays = settled(&steps);
        Ok(done
            .into_iter()
            .zip(stays)
            .filter_map(|(c, stays)| stays.then_some(c))
            .collect())
    }

    /// The messages the trims among `steps` replace, read in one go: a fit of a long session
    /// trims thousands of outputs, and one read each costs more than the trimming itself.
    async fn trim_sources(
        &self,
        steps: impl Iterator<Item = &FitStep>,
    ) -> Result<HashMap<MessageId, Message>, FitError> {
        let ids: Vec<MessageId> = steps
            .filter(|s| s.action == StepAction::Trim)
            .map(|s| s.sources[0])
            .collect();
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        let messages = self.engine.service().messages(&ids).await?;
        Ok(messages.into_iter().map(|m| (m.id, m)).collect())
    }

    /// While the thread is over its budget with the reserve spent, the AI results larger than
    /// the runs' extracts they stand in for give way to those extracts, the largest overshoot
    /// first: a model's squash (a gist above the run's facts) can outgrow its estimate, and a
    /// fit that reached its budget in its plan must reach it applied.
    fn extracts_in_place_of_overshoots(
        &self,
        planned: &PlannedFit,
        done: &mut [Computed],
        planned_ai: Vec<(usize, FitStep)>,
    ) {
        let plan = &planned.plan;
        // A plan that does not reach its budget (applied as the best effort) keeps its squashes.
        if !plan.fits() {
            return;
        }
        let mut outgrown: Vec<(u64, usize, FitStep)> = planned_ai
            .into_iter()
            .filter_map(|(i, step)| {
                let over = done[i].step.tokens_after.checked_sub(step.tokens_after)?;
                (over > 0).then_some((over, i, step))
            })
            .collect();
        outgrown.sort_by_key(|(over, ..)| *over);
        while self.over_budget(plan.tokens_before, plan.request.budget, done) {
            let Some((_, i, mut step)) = outgrown.pop() else {
                break;
            };
            let Some(text) = step.text.take() else {
                continue;
            };
            step.action = StepAction::Extract;
            step.estimated = false;
            done[i] = extracted(self.engine.service(), planned.conversation_id, step, text);
        }
    }

    fn over_budget(&self, before: u64, budget: u64, done: &[Computed]) -> bool {
        let steps = settle(done.iter().map(|c| c.step.clone()).collect());
        before.saturating_sub(steps.iter().map(FitStep::saved).sum()) + how_tokens() > budget
    }

    async fn compute(
        &self,
        planned: &PlannedFit,
        mut step: FitStep,
        sources: &mut HashMap<MessageId, Message>,
    ) -> Result<Computed, FitError> {
        let service = self.engine.service();
        let conversation = planned.conversation_id;
        match (step.action, step.gist_room) {
            (StepAction::Trim, _) => {
                // Trimmed once, when the commit gives the marks (a trim costs a pass of
                // regexes over the whole output); a source with nothing to trim fails the
                // commit then, before anything is written.
                let source = match sources.remove(&step.sources[0]) {
                    Some(source) => source,
                    None => service.message(step.sources[0]).await?,
                };
                Ok(trimmed(service, conversation, step, source))
            }
            (StepAction::Digest, Some(room)) => {
                let facts = step.text.take().ok_or_else(|| no_text(&step))?;
                let result = self
                    .engine
                    .digest_with_gist(DigestToWrite {
                        conversation,
                        sources: &step.sources,
                        facts: &facts,
                        room,
                        computed_on: planned.computed_on(),
                    })
                    .await?;
                // The facts are the plan's: what the digest keeps is what the plan said.
                Ok(modelled(service, step, result))
            }
            (StepAction::Line | StepAction::Extract | StepAction::Digest, _) => {
                let text = step.text.take().ok_or_else(|| no_text(&step))?;
                Ok(extracted(service, conversation, step, text))
            }
            (StepAction::Ai, _) => {
                let result = self
                    .engine
                    .squash_messages(conversation, &step.sources, None)
                    .await?;
                Ok(squashed(service, step, result))
            }
        }
    }

    /// One commit for the whole plan, planned again on a newer thread when the conversation
    /// moved on (an append) as long as every source is still there.
    async fn commit(
        &self,
        planned: &PlannedFit,
        computed: &[Computed],
    ) -> Result<Committed, FitError> {
        let origin = ThreadOrigin::Fit {
            operation_ids: computed.iter().map(|c| c.operation.id).collect(),
            budget: planned.plan.request.budget,
        };
        let sources: Vec<MessageId> = computed
            .iter()
            .flat_map(|c| c.step.sources.iter().copied())
            .collect();
        let service = self.engine.service();
        let positions: Vec<usize> = computed.iter().map(|c| c.step.first_position).collect();
        Ok(commit_planned(
            service.store().as_ref(),
            planned.conversation_id,
            Some(planned.computed_on()),
            Some(planned.base.clone()),
            Refs::Numbered,
            |snap, next_ref| {
                let present: HashSet<&MessageId> = snap.links.iter().collect();
                if let Some(gone) = sources.iter().find(|id| !present.contains(id)) {
                    return Err(ServiceError::Conflict(format!(
                        "message {gone} left the current thread while the fit was computed"
                    )));
                }
                let results: Vec<(&FitStep, MessageId)> =
                    computed.iter().map(|c| (&c.step, c.message.id)).collect();
                let marks = Mark::assign(&positions, next_ref.unwrap_or(RecallRef::FIRST));
                // Each trim a pass over its output, tens of thousands in a long session: side
                // by side on every core.
                let (messages, operations): (Vec<Message>, Vec<SquashOperation>) =
                    map_indexed(computed.len(), workers(), |i| computed[i].marked(marks[i]))
                        .into_iter()
                        .collect::<Result<Vec<_>, _>>()?
                        .into_iter()
                        .unzip();
                Ok(Planned {
                    links: NewLinks::List(fitted_links(&snap.links, &results)),
                    origin: origin.clone(),
                    messages,
                    operations,
                    added_partners: Vec::new(),
                    sources: sources.clone(),
                })
            },
        )
        .await?)
    }
}

/// A trim: the message with its outputs trimmed (when the commit marks it: its content is
/// made then, from `source`), same role, pairing and tags.
fn trimmed(
    service: &ConversationService,
    conversation: ConversationId,
    step: FitStep,
    source: Message,
) -> Computed {
    let message = Message {
        reply_to: source.reply_to,
        role: source.role,
        instructions: source.instructions.clone(),
        metadata: source.metadata.clone(),
        ..Message::new_unchecked(conversation, Role::Assistant, Vec::new())
    };
    let mut computed = offline(service, conversation, step, message, OperationKind::Mask);
    computed.trim_of = Some(source);
    computed
}

/// A step's line or a run's extract, as the agent's message: the facts, no model involved.
fn extracted(
    service: &ConversationService,
    conversation: ConversationId,
    step: FitStep,
    text: String,
) -> Computed {
    let content = vec![ContentItem::text_for(Role::Assistant, text)];
    let message = Message::new_unchecked(conversation, Role::Assistant, content);
    let kind = OperationKind::Extract {
        custom_instructions: None,
    };
    offline(service, conversation, step, message, kind)
}

/// A step computed without a model (a trim or an extract).
fn offline(
    service: &ConversationService,
    conversation: ConversationId,
    step: FitStep,
    mut message: Message,
    kind: OperationKind,
) -> Computed {
    let op_id = SquashOperationId::new();
    message.squash_operation_id = Some(op_id);
    let operation = service.new_operation(
        op_id,
        conversation,
        (step.sources.clone(), message.id),
        kind,
    );
    Computed {
        step,
        message,
        operation,
        trim_of: None,
    }
}

/// Whether `step`, added to the steps `done`, would not stay when they settle ([`settled`]):
/// what it replaces is replaced already, at its level or above.
fn covered(done: &[Computed], step: &FitStep) -> bool {
    let mut steps: Vec<FitStep> = done.iter().map(|c| c.step.clone()).collect();
    steps.push(step.clone());
    !settled(&steps).last().copied().unwrap_or(true)
}

fn no_text(step: &FitStep) -> ServiceError {
    ServiceError::Invalid(format!(
        "the {} step of {} came without its text",
        step.action.as_str(),
        step.positions()
    ))
}

/// A run squashed by the model: its sources as the engine resolved them, its facts as the
/// engine checked them.
fn squashed(service: &ConversationService, mut step: FitStep, result: SquashResult) -> Computed {
    step.sources = result.sources.clone();
    step.facts_kept = result.report.facts.as_ref().map(|f| f.stated());
    modelled(service, step, result)
}

/// A step's result as the model's work, recorded with every prompt sent.
fn modelled(service: &ConversationService, mut step: FitStep, result: SquashResult) -> Computed {
    let op_id = SquashOperationId::new();
    let message = Message {
        id: MessageId::new(),
        conversation_id: result.conversation_id,
        squash_operation_id: Some(op_id),
        reply_to: None,
        role: result.role,
        content: vec![ContentItem::text_for(result.role, result.text.clone())],
        instructions: Vec::new(),
        metadata: None,
        created_at: squash_core::time::now(),
    };
    // The recall reference the commit adds is priced in.
    step.tokens_after = message_cost(&message) + mark_tokens();
    step.estimated = false;
    let operation = service.new_operation(
        op_id,
        result.conversation_id,
        (result.sources.clone(), message.id),
        result.operation_kind(),
    );
    Computed {
        step,
        message,
        operation,
        trim_of: None,
    }
}
