//! Full-text search: over the conversations' current threads, or over the whole history of one
//! conversation (what a squash, edit, delete or fit took out of its thread too). The query a
//! person or an agent typed is checked and parsed once (`squash_core::search`), then run by
//! the store.

use std::collections::{HashMap, HashSet};

use serde::Serialize;
use squash_core::search::SearchQuery;
use squash_core::{ConversationId, MessageId, Role, ToolRefs};
use squash_store::{HistoryHit, SearchResults, MAX_SEARCH_CANDIDATES, MAX_SEARCH_LIMIT};

use crate::conversations::ConversationService;
use crate::error::ServiceError;

type Result<T, E = ServiceError> = std::result::Result<T, E>;

/// Hits per search when the caller names no limit.
pub const DEFAULT_SEARCH_LIMIT: u32 = 20;

/// Lines, and characters a line, of the other half of a hit's tool exchange.
const EXCHANGE_LINES: usize = 3;
const EXCHANGE_LINE_CHARS: usize = 200;
/// Other halves shown for one hit (an agent's message can make a dozen calls at once).
const EXCHANGE_HALVES: usize = 3;
/// The longest query whose all-but-one hits are looked for (one search per term).
const MAX_PARTIAL_TERMS: usize = 8;

/// A page of a history search, best first, and how many hits there are in all.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HistoryFound {
    /// The messages that hold every term.
    pub hits: Vec<HistoryMatch>,
    /// On a first page that `hits` leave room on, the best messages that hold every term but
    /// one (`lacks` says which), to fill the page.
    pub all_but_one: Vec<HistoryMatch>,
    /// The hits skipped before this page.
    pub offset: u64,
    /// How many messages hold every term, counted up to [`MAX_SEARCH_CANDIDATES`].
    pub total: u64,
    /// More messages match than `total` counts.
    pub more: bool,
}

/// A hit of a history search, with the other half of its tool exchanges: what a command
/// printed is what one asks after, but the words one asks with are in the command (`git
/// commit -m "…"` holds the subject, its output the hash), so a hit on either half shows both.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HistoryMatch {
    #[serde(flatten)]
    pub hit: HistoryHit,
    /// The term of the query this message does not hold, for a hit of
    /// [`HistoryFound::all_but_one`].
    pub lacks: Option<String>,
    /// The messages holding the outputs of the calls the hit made, or the calls whose outputs
    /// it holds (at most three), each with the opening of those items.
    pub exchange: Vec<ExchangeHalf>,
    /// Messages of the exchange beyond those shown.
    pub exchange_more: usize,
}

impl std::ops::Deref for HistoryMatch {
    type Target = HistoryHit;

    fn deref(&self) -> &HistoryHit {
        &self.hit
    }
}

/// What the other half of an exchange holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ExchangeSide {
    /// The outputs of calls the hit made.
    Outputs,
    /// The calls whose outputs the hit holds.
    Calls,
}

/// The other half of a hit's tool exchange.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExchangeHalf {
    pub message_id: MessageId,
    pub role: Role,
    pub holds: ExchangeSide,
    /// The first lines of its items of the exchange (the call, or the output).
    pub opening: String,
}

impl ConversationService {
    /// The messages of current threads (of `conversation`, or of all conversations) that
    /// contain every word and `"quoted phrase"` of `query`, best first: at most `limit` (1 to
    /// [`MAX_SEARCH_LIMIT`], default [`DEFAULT_SEARCH_LIMIT`]) and the total. A message that an
    /// edit, delete or squash took out of the current thread is no hit. An empty query, one
    /// without a letter or digit, or an unknown conversation is refused.
    pub async fn search(
        &self,
        query: &str,
        conversation: Option<ConversationId>,
        limit: Option<u32>,
    ) -> Result<SearchResults> {
        let (query, limit) = checked(query, limit)?;
        if let Some(id) = conversation {
            // An unknown conversation is a mistake to report, not a search without hits.
            self.store().conversation(id).await?;
        }
        Ok(self.store().search(&query, conversation, limit).await?)
    }

    /// The messages of `conversation`'s whole history — its current thread and every message
    /// an edit, delete, squash or fit took out of it — that contain every word and `"quoted
    /// phrase"` of `query`, best first: `limit` (1 to [`MAX_SEARCH_LIMIT`], default
    /// [`DEFAULT_SEARCH_LIMIT`]) of them from `offset` (default 0, below
    /// [`MAX_SEARCH_CANDIDATES`]), and the total. Each hit says where its message is now: its
    /// position in the current thread, or the operation that took it out; and the operation
    /// that made it, when it is a squash's, edit's or fit's result, and the other half of its
    /// tool exchanges (a command's output, or the command that printed it). A first page with
    /// room left is filled with messages that hold every term but one. An empty query, one without
    /// a letter or digit, a limit or offset out of range, or an unknown conversation is refused.
    pub async fn search_history(
        &self,
        conversation: ConversationId,
        query: &str,
        limit: Option<u32>,
        offset: Option<u32>,
    ) -> Result<HistoryFound> {
        let (query, limit) = checked(query, limit)?;
        let offset = offset.unwrap_or(0);
        if offset >= MAX_SEARCH_CANDIDATES {
            return Err(ServiceError::Invalid(format!(
                "offset must be below {MAX_SEARCH_CANDIDATES} (a search pages through its best \
                 {MAX_SEARCH_CANDIDATES} hits), not {offset}"
            )));
        }
        let found = self
            .store()
            .search_history(&query, conversation, limit, offset)
            .await?;
        let hits: Vec<(HistoryHit, Option<String>)> =
            found.hits.into_iter().map(|h| (h, None)).collect();
        // Few messages hold every word: what holds all but one comes next, said as such (an
        // agent asks in words of its own, and one of them is often not the session's).
        let room = u64::from(limit).saturating_sub(found.total);
        let mut near = Vec::new();
        if offset == 0 && !found.more && room > 0 {
            let have: HashSet<MessageId> = hits.iter().map(|(h, _)| h.message_id).collect();
            let room = u32::try_from(room).unwrap_or(limit);
            near = self.all_but_one(&query, conversation, room, &have).await?;
        }
        let n = hits.len();
        let mut all = self
            .with_exchanges(
                conversation,
                hits.into_iter()
                    .chain(near.into_iter().map(|(h, lacks)| (h, Some(lacks))))
                    .collect(),
            )
            .await?;
        let all_but_one = all.split_off(n);
        Ok(HistoryFound {
            hits: all,
            all_but_one,
            offset: found.offset,
            total: found.total,
            more: found.more,
        })
    }

    /// The best `room` messages of `conversation`'s history that hold every term of `query`
    /// but one and are not in `have`, each with the term it lacks. Only for queries of 2 to
    /// [`MAX_PARTIAL_TERMS`] terms (one search per term).
    async fn all_but_one(
        &self,
        query: &SearchQuery,
        conversation: ConversationId,
        room: u32,
        have: &HashSet<MessageId>,
    ) -> Result<Vec<(HistoryHit, String)>> {
        if query.terms().len() > MAX_PARTIAL_TERMS {
            return Ok(Vec::new());
        }
        let mut partial: Vec<(HistoryHit, String)> = Vec::new();
        for (i, term) in query.terms().iter().enumerate() {
            let Some(rest) = query.without(i) else {
                break;
            };
            let found = self
                .store()
                .search_history(&rest, conversation, room, 0)
                .await?;
            partial.extend(
                found
                    .hits
                    .into_iter()
                    .filter(|h| !have.contains(&h.message_id))
                    .map(|h| (h, term.as_typed().to_owned())),
            );
        }
        partial.sort_by(|a, b| b.0.rank.total_cmp(&a.0.rank));
        let mut seen = HashSet::new();
        partial.retain(|(h, _)| seen.insert(h.message_id));
        partial.truncate(room as usize);
        Ok(partial)
    }

    /// Each hit with the other halves of its tool exchanges: one closure read for the page,
    /// one read of the halves' messages.
    async fn with_exchanges(
        &self,
        conversation: ConversationId,
        hits: Vec<(HistoryHit, Option<String>)>,
    ) -> Result<Vec<HistoryMatch>> {
        let seed: Vec<MessageId> = hits.iter().map(|(h, _)| h.message_id).collect();
        let refs = self.store().tool_refs_closure(conversation, &seed).await?;
        let halves: Vec<Vec<Half>> = hits
            .iter()
            .map(|(h, _)| other_halves(h.message_id, &refs))
            .collect();
        let wanted: Vec<MessageId> = halves
            .iter()
            .flat_map(|hs| hs.iter().take(EXCHANGE_HALVES).map(|h| h.id))
            .collect();
        let messages: HashMap<MessageId, squash_core::Message> = self
            .store()
            .messages(&wanted)
            .await?
            .into_iter()
            .map(|m| (m.id, m))
            .collect();
        Ok(hits
            .into_iter()
            .zip(halves)
            .map(|((hit, lacks), hs)| {
                let exchange_more = hs.len().saturating_sub(EXCHANGE_HALVES);
                let exchange = hs
                    .iter()
                    .take(EXCHANGE_HALVES)
                    .filter_map(|h| messages.get(&h.id).map(|m| (m, h)))
                    .map(|(m, h)| ExchangeHalf {
                        message_id: m.id,
                        role: m.role,
                        holds: h.holds,
                        opening: squash_core::render::exchange_opening(
                            m,
                            &h.tools,
                            EXCHANGE_LINES,
                            EXCHANGE_LINE_CHARS,
                        ),
                    })
                    .collect();
                HistoryMatch {
                    hit,
                    lacks,
                    exchange,
                    exchange_more,
                }
            })
            .collect())
    }
}

/// A message of a hit's exchange, with the tool ids it shares with the hit.
struct Half {
    id: MessageId,
    holds: ExchangeSide,
    tools: Vec<String>,
}

/// The messages other than `hit` that answer its calls or made the calls it answers, in the
/// order of their ids (time order).
fn other_halves(hit: MessageId, refs: &HashMap<MessageId, ToolRefs>) -> Vec<Half> {
    let Some(own) = refs.get(&hit) else {
        return Vec::new();
    };
    let shared = |mine: &[String], theirs: &[String]| -> Vec<String> {
        mine.iter()
            .filter(|t| theirs.contains(t))
            .cloned()
            .collect()
    };
    let mut out: Vec<Half> = refs
        .iter()
        .filter(|(id, _)| **id != hit)
        .filter_map(|(id, r)| {
            let outputs = shared(&own.calls, &r.results);
            let calls = shared(&own.results, &r.calls);
            let (holds, tools) = match (outputs.is_empty(), calls.is_empty()) {
                (false, _) => (ExchangeSide::Outputs, outputs),
                (true, false) => (ExchangeSide::Calls, calls),
                (true, true) => return None,
            };
            Some(Half {
                id: *id,
                holds,
                tools,
            })
        })
        .collect();
    out.sort_by_key(|h| h.id);
    out
}

/// The query parsed and the limit checked (default [`DEFAULT_SEARCH_LIMIT`]).
fn checked(query: &str, limit: Option<u32>) -> Result<(SearchQuery, u32)> {
    let query = SearchQuery::parse(query).map_err(|e| ServiceError::Invalid(e.to_string()))?;
    let limit = limit.unwrap_or(DEFAULT_SEARCH_LIMIT);
    if limit == 0 || limit > MAX_SEARCH_LIMIT {
        return Err(ServiceError::Invalid(format!(
            "limit must be 1 to {MAX_SEARCH_LIMIT}, not {limit}"
        )));
    }
    Ok((query, limit))
}
