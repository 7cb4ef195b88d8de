//! The tool-call closure: which messages share tool-use ids with a selection, through chains.

use std::collections::{HashMap, HashSet};

use rusqlite::{params, Transaction};
use squash_core::{ConversationId, MessageId, ToolRefs};

use super::conn::map_err;
use super::read::{conversation_key, message_key};
use super::rows::{self, col};
use crate::{RefsByMessage, Result};

pub(super) fn tool_closure(
    tx: &Transaction<'_>,
    conversation: ConversationId,
    seed: &[MessageId],
) -> Result<RefsByMessage> {
    let conv_key = conversation_key(tx, conversation)?;
    let mut by_key_stmt = tx
        .prepare_cached(
            "SELECT tool_use_id, is_result FROM message_tools WHERE message_key = ?1 \
             AND conversation_key = ?2",
        )
        .map_err(map_err)?;
    let mut holders_stmt = tx
        .prepare_cached(
            "SELECT mt.message_key, m.id FROM message_tools mt JOIN messages m ON m.key = mt.message_key \
             WHERE mt.conversation_key = ?1 AND mt.tool_use_id = ?2",
        )
        .map_err(map_err)?;
    let mut out: RefsByMessage = HashMap::new();
    let mut seen_tools: HashSet<String> = HashSet::new();
    let mut queue: Vec<(i64, MessageId)> = seed
        .iter()
        .map(|id| Ok((message_key(tx, conv_key, *id)?, *id)))
        .collect::<Result<_>>()?;
    while let Some((key, id)) = queue.pop() {
        if out.contains_key(&id) {
            continue;
        }
        let mut refs = ToolRefs::default();
        let mut rows = by_key_stmt.query(params![key, conv_key]).map_err(map_err)?;
        while let Some(row) = rows.next().map_err(map_err)? {
            let tool: String = col(row, 0)?;
            let is_result: i64 = col(row, 1)?;
            if is_result == 0 {
                refs.calls.push(tool);
            } else {
                refs.results.push(tool);
            }
        }
        drop(rows);
        for tool in refs.calls.iter().chain(refs.results.iter()) {
            if !seen_tools.insert(tool.clone()) {
                continue;
            }
            let mut rows = holders_stmt
                .query(params![conv_key, tool])
                .map_err(map_err)?;
            while let Some(row) = rows.next().map_err(map_err)? {
                let bytes: Vec<u8> = col(row, 1)?;
                queue.push((col(row, 0)?, rows::uuid(&bytes)?.into()));
            }
        }
        out.insert(id, refs);
    }
    Ok(out)
}
