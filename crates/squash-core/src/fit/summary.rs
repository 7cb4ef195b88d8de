//! What the planner knows of a thread: one small summary per message, computed from that
//! message alone (and the calls still waiting for their results) — its kind, its cost and the
//! cost of its trimmed form, the tool-use ids it opens and closes, and what it tells the fact
//! ledger. The planner works from these alone, so a store that reads a thread in chunks can
//! feed it; a message's content is needed again only when a step that trims it is applied.

use crate::ids::MessageId;
use crate::ledger::{check_facts, ledger_of, typed_text, FactKind, Observation, Observer};
use crate::message::{ContentItem, Instruction, Message, Role};
use crate::parallel::map_indexed;
use crate::render::item_text;
use crate::tokens::content_tokens;

use super::trim::{trim_message, trim_recording, trim_replaying, TrimChoices};
use crate::recall::Mark;

/// What a message is to a fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageKind {
    /// A person typed it: kept, except for long pastes inside it.
    Request,
    /// Tagged as the user's instruction: kept.
    Instruction,
    /// The result of an earlier squash or fit: kept as it is (it is small already).
    Squashed,
    /// The agent's work: prose, reasoning, tool calls and results, the harness's notes.
    Agent,
    /// What the agent's harness wrote into the conversation as the user's or the system's
    /// (Codex's permissions, skills and environment, a Claude Code command's expanded
    /// template): the agent's like its work, and written again when it goes on, so a fit may
    /// take it even before the first request.
    Context,
}

/// One message, as the planner sees it.
#[derive(Clone, Debug)]
pub struct MessageSummary {
    pub id: MessageId,
    pub kind: MessageKind,
    /// Tokens as the thread counts them ([`crate::tokens::message_tokens`]).
    pub cost: u64,
    /// Tokens of its trimmed form; `cost` when nothing in it is worth trimming.
    pub trimmed_cost: u64,
    /// Tool-use ids it opens (calls) and closes (results).
    pub calls: Vec<String>,
    pub results: Vec<String>,
    /// What it tells the ledger (a tool use is told by its result's message).
    pub(crate) observations: Vec<Observation>,
    /// The first sentence of its text, for a step the ledger has nothing on.
    pub lead: Option<String>,
    /// Facts the trimmed form no longer states.
    pub trim_loses: Vec<String>,
    /// The lines its trim keeps, when it trims: what the apply writes the trim from.
    pub trim_choices: Option<TrimChoices>,
}

impl MessageSummary {
    pub fn trims(&self) -> bool {
        self.trimmed_cost < self.cost
    }
}

/// Summarizes a thread one message at a time, in thread order.
#[derive(Default)]
pub struct Summarizer {
    observer: Observer,
    summaries: Vec<MessageSummary>,
}

impl Summarizer {
    pub fn new() -> Summarizer {
        Summarizer::default()
    }

    /// The next message of the thread.
    pub fn push(&mut self, message: &Message) {
        self.push_costing(message, content_tokens(message.role, &message.content));
    }

    /// The next message of the thread, whose tokens ([`crate::tokens::message_tokens`]) are
    /// known already: a store keeps them with each message, and estimating every message of
    /// a long session again is a fifth of its planning.
    pub fn push_costing(&mut self, message: &Message, cost: u64) {
        let observations = self.observer.observe(message);
        let own = own_part(message, cost, &observations);
        self.summaries.push(own.into_summary(message, observations));
    }

    /// The next messages of the thread, whose tokens are `costs` (as a store keeps them;
    /// estimated where missing): the work of each message — its trimmed form, what that
    /// loses — spread over `workers` threads, what they tell the ledger observed in thread
    /// order. The same summaries as pushing each message in turn; a thread read in chunks is
    /// summarized chunk by chunk, never held whole.
    pub fn push_chunk(&mut self, messages: &[Message], costs: Option<&[u64]>, workers: usize) {
        let observed = self.observer.observe_chunk(messages, workers);
        let own = map_indexed(messages.len(), workers, |i| {
            let message = &messages[i];
            let cost = match costs.and_then(|c| c.get(i)) {
                Some(&cost) => cost,
                None => content_tokens(message.role, &message.content),
            };
            own_part(message, cost, &observed[i])
        });
        self.summaries.extend(
            messages
                .iter()
                .zip(observed)
                .zip(own)
                .map(|((m, observations), own)| own.into_summary(m, observations)),
        );
    }

    /// The summaries, with what the calls that never got a result tell added to the message
    /// that made them.
    pub fn finish(mut self) -> Vec<MessageSummary> {
        attach_unanswered(&mut self.summaries, self.observer.finish());
        self.summaries
    }
}

/// The summaries of a whole thread whose messages' tokens are `costs` (as a store keeps them;
/// estimated where missing), the work of each message — its trimmed form, what that loses —
/// spread over `workers` threads; what the messages tell the ledger is observed in thread
/// order, as [`Summarizer`] does. The same summaries as pushing each message in turn.
pub fn summarize_thread(
    messages: &[Message],
    costs: Option<&[u64]>,
    workers: usize,
) -> Vec<MessageSummary> {
    let mut summarizer = Summarizer::new();
    summarizer.push_chunk(messages, costs, workers);
    summarizer.finish()
}

/// What the calls that never got a result tell, added to the summaries of the messages that
/// made them.
fn attach_unanswered(summaries: &mut [MessageSummary], unanswered: Vec<Observation>) {
    for o in unanswered {
        if let Some(s) = summaries.get_mut(o.index) {
            s.observations.push(o);
        }
    }
}

/// What a message's summary holds beyond its observations: from the message alone
/// and what it tells, so that messages can be summarized side by side.
struct OwnPart {
    kind: MessageKind,
    cost: u64,
    trimmed_cost: u64,
    trim_loses: Vec<String>,
    trim_choices: Option<TrimChoices>,
    lead: Option<String>,
}

impl OwnPart {
    fn into_summary(self, message: &Message, observations: Vec<Observation>) -> MessageSummary {
        let refs = message.tool_refs();
        MessageSummary {
            id: message.id,
            kind: self.kind,
            cost: self.cost,
            trimmed_cost: self.trimmed_cost,
            calls: refs.calls,
            results: refs.results,
            observations,
            lead: self.lead,
            trim_loses: self.trim_loses,
            trim_choices: self.trim_choices,
        }
    }
}

fn own_part(message: &Message, cost: u64, observations: &[Observation]) -> OwnPart {
    let kind = kind_of(message);
    let trimmed = trimmable(kind)
        .then(|| trim_recording(message, kind == MessageKind::Request, Some(Mark::PRICED)))
        .flatten();
    let (trimmed_cost, trim_loses, trim_choices) = match trimmed {
        Some((content, choices)) => {
            let after = content_tokens(message.role, &content);
            if after < cost {
                let loses = lost_by_trim(&content, observations);
                (after, loses, Some(choices))
            } else {
                (cost, Vec::new(), None)
            }
        }
        None => (cost, Vec::new(), None),
    };
    OwnPart {
        kind,
        cost,
        trimmed_cost,
        trim_loses,
        trim_choices,
        lead: lead_of(message),
    }
}

/// The trimmed content of `message` as a plan prices it, or `None` when nothing in it is worth
/// trimming: a person's request loses only its pastes, what the harness wrote as the user's is
/// trimmed like the agent's work, a result or an instruction is kept. A fit's apply trims
/// through this too, so that it lands where its plan said, with the lines the plan chose
/// (`choices`, its summary's) when it has them.
pub fn trim_as_planned(
    message: &Message,
    mark: Option<Mark>,
    choices: Option<&TrimChoices>,
) -> Option<Vec<ContentItem>> {
    let kind = kind_of(message);
    if !trimmable(kind) {
        return None;
    }
    let request = kind == MessageKind::Request;
    match choices {
        Some(choices) => trim_replaying(message, request, mark, choices),
        None => trim_message(message, request, mark),
    }
}

fn trimmable(kind: MessageKind) -> bool {
    matches!(
        kind,
        MessageKind::Request | MessageKind::Agent | MessageKind::Context
    )
}

/// The summaries of a whole thread.
pub fn summarize(messages: &[&Message]) -> Vec<MessageSummary> {
    let mut s = Summarizer::new();
    for m in messages {
        s.push(m);
    }
    s.finish()
}

fn kind_of(message: &Message) -> MessageKind {
    if message
        .instructions
        .iter()
        .any(|i| matches!(i, Instruction::UserInstruction { .. }))
    {
        MessageKind::Instruction
    } else if message.squash_operation_id.is_some() {
        MessageKind::Squashed
    } else if message.written_by_agent() {
        MessageKind::Context
    } else if typed_text(message).is_some() {
        MessageKind::Request
    } else {
        MessageKind::Agent
    }
}

/// The facts this message's observations name that its trimmed form does not state (a tool
/// result is read with its call's facts, whose call stays as it is).
fn lost_by_trim(trimmed: &[ContentItem], observations: &[Observation]) -> Vec<String> {
    if observations.is_empty() {
        return Vec::new();
    }
    let refs: Vec<&Observation> = observations.iter().collect();
    let ledger = ledger_of(&refs);
    let text: Vec<String> = trimmed.iter().map(item_text).collect();
    let check = check_facts(&ledger, &text.join("\n"));
    // A command's anchors are in its call, which a trim of the result leaves alone.
    ledger
        .subset(&check.missing)
        .into_iter()
        .filter(|f| !matches!(f.kind, FactKind::Command | FactKind::File))
        .map(|f| f.text.clone())
        .collect()
}

/// The first sentence of a message's own words (or reasoning), at most 160 characters.
fn lead_of(message: &Message) -> Option<String> {
    let text = message.content.iter().find_map(|item| match item {
        ContentItem::AssistantMessage { structured } => Some(structured.full_text.as_str()),
        ContentItem::UserMessage { text } if message.role == Role::User => Some(text.as_str()),
        ContentItem::System { content, .. } => Some(content.as_str()),
        _ => None,
    })?;
    let first = crate::text::sentences(text).into_iter().next()?;
    Some(crate::text::one_line(&first, 160))
}
