//! Observations: what each message tells the ledger, computed one message at a time and small
//! enough to keep for a whole session. A tool use is observed when its result arrives (its
//! call's input is held until then). The ledger is the merge of a selection's observations
//! ([`merge`](super::merge)), so a fit can keep them per step and merge any run of steps without
//! reading the messages again.

use std::collections::HashMap;

use serde_json::Value;

use super::commands::{self, CommandObs};
use super::errors::{self, ToolUseObs};
use super::excerpt::Excerpt;
use super::fact::Fact;
use super::files::{self, FileTouch};
use super::polls;
use super::prose::{self, ProseObs};
use super::searches::{self, SearchObs};
use super::settings;
use super::subagents;
use super::tool_use::{ToolOutcome, ToolUse};
use crate::ids::MessageId;
use crate::message::{output_text, ContentItem, Message};
use crate::parallel::map_indexed;

/// One thing a message says, with where it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Observation {
    /// Position of the message (for a tool use: of its call) in the observed sequence.
    pub(crate) index: usize,
    pub(crate) what: Observed,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Observed {
    /// A fact ready as it is (a request, a sub-agent's report, a setting, a system error).
    Fact(Fact),
    /// A typed request starts here: the prose before it answered the one before. It holds the
    /// terms of the request's line, which an answer need not say again.
    RequestBoundary(Vec<String>),
    /// The sentences of one message of the agent's prose.
    Prose(ProseObs),
    File(FileTouch),
    Command(CommandObs),
    Search(SearchObs),
    /// A tool use that is neither a shell command nor a search (edits, reads, writes, MCP
    /// tools): for its failures and for the edits that fixed an error.
    ToolUse(ToolUseObs),
}

/// A tool call waiting for its result.
struct PendingCall {
    index: usize,
    source: MessageId,
    name: String,
    input: Value,
}

/// Observes messages in thread order.
pub struct Observer {
    excerpt: Excerpt,
    pending: HashMap<String, PendingCall>,
    /// Commands still running when their call returned (Codex's unified exec and code mode),
    /// by the id a later poll names: a poll's output is that command's.
    running: HashMap<String, (String, Value)>,
    /// Call ids in call order, to report calls without a result in the order they were made.
    order: Vec<String>,
    next_index: usize,
}

impl Default for Observer {
    fn default() -> Observer {
        Observer::of(Excerpt::Steps)
    }
}

impl Observer {
    /// An observer of a fit's steps.
    pub fn new() -> Observer {
        Observer::default()
    }

    pub(crate) fn of(excerpt: Excerpt) -> Observer {
        Observer {
            excerpt,
            pending: HashMap::new(),
            running: HashMap::new(),
            order: Vec::new(),
            next_index: 0,
        }
    }

    /// What `message` (the next one of the sequence) tells; a call is told with its result.
    pub fn observe(&mut self, message: &Message) -> Vec<Observation> {
        let index = self.next_index;
        let answered = self.pair(message);
        told(message, index, &answered, self.excerpt)
    }

    /// Takes `message`'s calls into the pending ones and its results out: the calls its
    /// results answer, each with its result's place in the message's content.
    fn pair(&mut self, message: &Message) -> Vec<(PendingCall, usize)> {
        let index = self.next_index;
        self.next_index += 1;
        let mut answered = Vec::new();
        for (at, item) in message.content.iter().enumerate() {
            match item {
                ContentItem::ToolCall { id, name, input } => {
                    self.order.push(id.clone());
                    // A poll of a running command is told as a run of that command.
                    let polled = polls::polled(name, input).and_then(|p| self.running.get(&p));
                    let (name, input) = match polled {
                        Some((name, input)) => (name.clone(), input.clone()),
                        None => (name.clone(), input.clone()),
                    };
                    self.pending.insert(
                        id.clone(),
                        PendingCall {
                            index,
                            source: message.id,
                            name,
                            input,
                        },
                    );
                }
                // A result whose call is not among the observed messages says nothing the
                // ledger could attribute.
                ContentItem::ToolResult {
                    tool_use_id,
                    result,
                    ..
                } => {
                    if let Some(call) = self.pending.remove(tool_use_id.as_str()) {
                        if let Some(running) = polls::still_running(result) {
                            self.running
                                .insert(running, (call.name.clone(), call.input.clone()));
                        }
                        answered.push((call, at));
                    }
                }
                _ => {}
            }
        }
        answered
    }

    /// The calls that never got a result.
    pub fn finish(&mut self) -> Vec<Observation> {
        let order = std::mem::take(&mut self.order);
        let mut out = Vec::new();
        for id in order {
            if let Some(call) = self.pending.remove(&id) {
                out.extend(observe_use(&call, None));
            }
        }
        out
    }
}

/// What `message` (at `index` of the sequence) tells: its request, its prose and the system's
/// errors, then each tool use its results end (`answered`: the calls, with their result's
/// place in the message's content), in the content's order.
fn told(
    message: &Message,
    index: usize,
    answered: &[(PendingCall, usize)],
    excerpt: Excerpt,
) -> Vec<Observation> {
    let mut out = Vec::new();
    let push = |out: &mut Vec<Observation>, what| out.push(Observation { index, what });
    if let Some((request, terms)) = prose::request(message, excerpt) {
        push(&mut out, Observed::RequestBoundary(terms));
        push(&mut out, Observed::Fact(request));
    }
    if let Some(prose) = prose::prose_of(message, excerpt) {
        push(&mut out, Observed::Prose(prose));
    }
    for fact in errors::system_errors(message) {
        push(&mut out, Observed::Fact(fact));
    }
    for (call, at) in answered {
        if let Some(ContentItem::ToolResult {
            result, is_error, ..
        }) = message.content.get(*at)
        {
            let outcome = ToolOutcome {
                source: message.id,
                text: crate::text::without_escapes(output_text(result)),
                is_error: *is_error,
            };
            out.extend(observe_use(call, Some(outcome)));
        }
    }
    out
}

/// What each of a thread's `messages` tells, as [`Observer::observe`] tells it one at a time,
/// and what the calls that never got a result tell (as [`Observer::finish`]): the calls are
/// paired with their results in thread order, then the messages are observed side by side on
/// `workers` threads.
pub fn observe_thread(
    messages: &[Message],
    workers: usize,
) -> (Vec<Vec<Observation>>, Vec<Observation>) {
    let mut observer = Observer::new();
    let observed = observer.observe_chunk(messages, workers);
    (observed, observer.finish())
}

impl Observer {
    /// What each of `messages` (the next ones of the sequence) tells, as [`Observer::observe`]
    /// tells it one at a time: their calls are paired with their results in order, then they
    /// are observed side by side on `workers` threads. A thread read in chunks is observed
    /// chunk by chunk.
    pub fn observe_chunk(&mut self, messages: &[Message], workers: usize) -> Vec<Vec<Observation>> {
        let first = self.next_index;
        let answered: Vec<Vec<(PendingCall, usize)>> =
            messages.iter().map(|m| self.pair(m)).collect();
        let excerpt = self.excerpt;
        map_indexed(messages.len(), workers, |i| {
            told(&messages[i], first + i, &answered[i], excerpt)
        })
    }
}

/// Every observation of `messages` (in thread order), the calls without results last.
pub(crate) fn observe_all(messages: &[&Message]) -> Vec<Observation> {
    let mut observer = Observer::of(Excerpt::Selection);
    let mut out: Vec<Observation> = messages.iter().flat_map(|m| observer.observe(m)).collect();
    out.extend(observer.finish());
    out
}

fn observe_use(call: &PendingCall, result: Option<ToolOutcome>) -> Vec<Observation> {
    let use_ = ToolUse {
        index: call.index,
        source: call.source,
        name: &call.name,
        input: &call.input,
        result,
    };
    let mut what: Vec<Observed> = files::touches(&use_)
        .into_iter()
        .map(Observed::File)
        .collect();
    if let Some(command) = commands::observe(&use_) {
        what.push(Observed::Command(command));
    } else if let Some(search) = searches::observe(&use_) {
        what.push(Observed::Search(search));
    } else if let Some(report) = subagents::report(&use_) {
        what.push(Observed::Fact(report));
    }
    if !commands::is_command(&use_) {
        what.push(Observed::ToolUse(errors::observe_tool(&use_)));
    }
    what.extend(settings::settings(&use_).into_iter().map(Observed::Fact));
    what.into_iter()
        .map(|what| Observation {
            index: call.index,
            what,
        })
        .collect()
}
