//! What a fit left out, one tool call away (QUALITY.md, issue 30): each result of the fitted
//! thread carries a recall reference; the originals behind all of them are read back through
//! the same use case `squash mcp`'s `recall` answers with, and every hand-written key fact that
//! left the thread is looked for there. The references' own cost is counted too.

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
    let not_recalled: Vec<String> = missing
        .iter()
        .filter(|spellings| {
            !spellings
                .iter()
                .any(|s| originals.contains(&s.to_lowercase()))
        })
        .map(|s| s.join(" | "))
        .collect();
    Ok(RecallScore {
        refs: refs.len(),
        ref_tokens,
        facts_left: missing.len(),
        facts_recalled: missing.len() - not_recalled.len(),
        not_recalled,
    })
}
