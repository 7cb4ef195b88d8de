//! What a fit left out, one tool call away (QUALITY.md, issue 30): each result of the fitted
//! thread carries a recall reference; the originals behind all of them are read back through
//! the same use case `squash mcp`'s `recall` answers with, and every hand-written key fact that
//! left the thread is looked for there. The references' own cost is counted too. Then the
//! hand-written questions about those facts (testdata/eval/recall_questions.json, their search
//! words written before any search was run) are searched as `squash mcp`'s `search` does, and
//! a question counts as answered when a message of its top 5 hits (or the other half of its
//! tool exchange, shown with it) holds the fact.

use serde::Deserialize;
use squash_app::recall::{LinePage, MAX_RECALL_LINES};
use squash_app::ConversationService;
use squash_core::recall::Mark;
use squash_core::tokens::estimate_tokens;
use squash_core::{ConversationId, Message, RecallRef};

/// The recall side of a fitted thread.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct RecallScore {
    /// References the thread shows.
    pub refs: usize,
    /// What they cost, with the note said once at the first.
    pub ref_tokens: u64,
    /// Key facts that left the thread, and how many of them recall gives back.
    pub facts_left: usize,
    pub facts_recalled: usize,
    pub not_recalled: Vec<String>,
    /// Hand-written questions about those facts, and how many a top-5 search answers.
    pub questions: usize,
    pub answered: usize,
    pub unanswered: Vec<String>,
    /// Of those, answered by the messages that hold every word alone.
    pub answered_plain: usize,
    /// The same for the held-out questions.
    pub held_questions: usize,
    pub held_answered: usize,
    pub held_answered_plain: usize,
}

/// One hand-written question (testdata/eval/recall_questions.json).
#[derive(Clone, Debug, Deserialize)]
pub struct Question {
    pub session: String,
    /// The fact's spellings, as the lost-facts list has them (`a | b`).
    pub fact: String,
    pub query: String,
    /// The fact is not in the history before the compaction (the writer found none).
    #[serde(default)]
    pub absent: bool,
    /// Of the held-out set (set when read).
    #[serde(skip)]
    pub held_out: bool,
}

/// Hits a question's search looks at.
pub const TOP: u32 = 5;

/// How the questions fared: answered in the top hits as `search` shows them, answered by the
/// messages that hold every word alone (the search before it showed tool exchanges and the
/// all-but-one part, for comparison), and the questions missed.
pub struct Answers {
    pub answered: usize,
    pub plain: usize,
    pub missed: Vec<String>,
}

/// Of `questions`, those about facts of `missing` (the facts that left the thread) whose search
/// in `conv`'s history holds the fact in a message of its top hits, and those that do not.
pub async fn answered(
    service: &ConversationService,
    conv: ConversationId,
    questions: &[&Question],
) -> Result<Answers, String> {
    let mut missed = Vec::new();
    let mut plain = 0;
    for q in questions {
        let found = service
            .search_history(conv, &q.query, Some(TOP), None)
            .await
            .map_err(|e| format!("search {:?}: {e}", q.query))?;
        // A hit shows the other half of its tool exchange (a command's output beside the
        // command): the answer may be there. The page is filled with what holds all of the
        // query but one word when fewer hold it all; those count, they are in the top 5 the
        // agent is shown.
        let shown: Vec<_> = found
            .hits
            .iter()
            .chain(&found.all_but_one)
            .take(TOP as usize)
            .flat_map(|h| {
                std::iter::once(h.message_id).chain(h.exchange.iter().map(|x| x.message_id))
            })
            .collect();
        let every_word: Vec<_> = found.hits.iter().map(|h| h.message_id).collect();
        let spellings: Vec<String> = q.fact.split(" | ").map(str::to_lowercase).collect();
        let holds = |messages: &[squash_core::Message]| {
            messages.iter().any(|m| {
                let text = squash_core::render::message_text(m).to_lowercase();
                spellings.iter().any(|s| text.contains(s.as_str()))
            })
        };
        let read = |ids: Vec<_>| async move { service.messages(&ids).await };
        if holds(&read(every_word).await.map_err(|e| e.to_string())?) {
            plain += 1;
        }
        if !holds(&read(shown).await.map_err(|e| e.to_string())?) {
            missed.push(format!("{} ({:?})", q.fact, q.query));
        }
    }
    Ok(Answers {
        answered: questions.len() - missed.len(),
        plain,
        missed,
    })
}

/// The references of `thread` (a fitted thread, in order), and the key facts of `missing`
/// (each a list of spellings) that the originals behind them hold.
pub async fn score(
    service: &ConversationService,
    conv: ConversationId,
    thread: &[Message],
    missing: &[Vec<String>],
) -> Result<RecallScore, String> {
    let mut refs: Vec<RecallRef> = Vec::new();
    for m in thread {
        if let Some(op) = m.squash_operation_id {
            let op = service.operation(op).await.map_err(|e| e.to_string())?;
            refs.extend(op.recall_ref);
        }
    }
    let ref_tokens = refs
        .iter()
        .enumerate()
        .map(|(i, &recall)| {
            estimate_tokens(
                &Mark {
                    recall,
                    first: i == 0,
                }
                .suffix(),
            )
        })
        .sum();
    let mut originals = String::new();
    for &recall in &refs {
        let mut offset = 0;
        loop {
            let page = LinePage {
                offset,
                limit: Some(MAX_RECALL_LINES),
            };
            let r = service
                .recall(conv, recall, page)
                .await
                .map_err(|e| format!("recall {recall}: {e}"))?;
            originals.push_str(&r.text.to_lowercase());
            originals.push('\n');
            match r.next_offset {
                Some(next) => offset = next,
                None => break,
            }
        }
    }
    let not_recalled: Vec<String> = super::specifics::not_held(missing, &originals)
        .map(|s| s.join(" | "))
        .collect();
    Ok(RecallScore {
        refs: refs.len(),
        ref_tokens,
        facts_left: missing.len(),
        facts_recalled: missing.len() - not_recalled.len(),
        not_recalled,
        ..RecallScore::default()
    })
}
