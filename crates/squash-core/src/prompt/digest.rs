//! The transcript the brief prompt shows a small model: condensed, and bounded in tokens, so
//! that a long selection costs the model no more to read than a short one. What is left out is
//! the tool traffic in the middle; what the tools said is in the facts list either way.

use super::content_text::{condensed_body, labelled, ToolNames};
use crate::message::{ContentItem, Message};
use crate::tokens::estimate_tokens;

/// The most tokens of transcript a brief prompt shows: the 0.5B model reads about 95 prompt
/// tokens a second on 2 cores (QUALITY.md: 941 tokens in 9.6 s, 2,084 in 21.8 s) and its
/// reading is nearly all its time, so this keeps a selection of any size near 15 s.
pub const BRIEF_TRANSCRIPT_MAX_TOKENS: u64 = 1_000;

/// The condensed transcript of `messages`, at most [`BRIEF_TRANSCRIPT_MAX_TOKENS`] when it can
/// be: what the user typed and the assistant said first, then tool traffic from the end back;
/// each run of messages left out marked in its place.
pub(super) fn brief_transcript(messages: &[&Message], names: &ToolNames<'_>) -> String {
    let blocks: Vec<String> = messages
        .iter()
        .map(|m| labelled(m, &condensed_body(m, names), " "))
        .collect();
    // Each block also costs its separator.
    let costs: Vec<u64> = blocks.iter().map(|b| estimate_tokens(b) + 2).collect();
    if costs.iter().sum::<u64>() <= BRIEF_TRANSCRIPT_MAX_TOKENS {
        return blocks.join("\n\n");
    }
    let said = |m: &Message| {
        m.content.iter().any(|i| {
            matches!(
                i,
                ContentItem::UserMessage { .. } | ContentItem::AssistantMessage { .. }
            )
        })
    };
    let mut shown = vec![false; blocks.len()];
    let mut used = 0;
    for i in (0..blocks.len()).filter(|&i| said(messages[i])) {
        if used + costs[i] <= BRIEF_TRANSCRIPT_MAX_TOKENS {
            shown[i] = true;
            used += costs[i];
        }
    }
    // The newest tool traffic, as one stretch: the state the selection ends in.
    for i in (0..blocks.len()).rev().filter(|&i| !said(messages[i])) {
        if used + costs[i] > BRIEF_TRANSCRIPT_MAX_TOKENS {
            break;
        }
        shown[i] = true;
        used += costs[i];
    }
    let mut out: Vec<String> = Vec::new();
    let mut left_out = 0;
    for (i, block) in blocks.into_iter().enumerate() {
        if shown[i] {
            if left_out > 0 {
                out.push(format!("[… {left_out} messages left out …]"));
                left_out = 0;
            }
            out.push(block);
        } else {
            left_out += 1;
        }
    }
    if left_out > 0 {
        out.push(format!("[… {left_out} messages left out …]"));
    }
    out.join("\n\n")
}
