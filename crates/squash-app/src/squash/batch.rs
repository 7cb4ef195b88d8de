//! The spec's batch squash: a selection too large for the model's context window is cut at
//! message boundaries (a tool call and its result always in the same part) into parts that
//! fit; each part is squashed, then the parts' results are squashed into one.

use std::collections::HashSet;
use std::ops::Range;

use squash_core::ledger::build_ledger;
use squash_core::note::extract_text;
use squash_core::prompt::{build_squash_prompt, messages_text, SquashPrompt};
use squash_core::quality::check_output;
use squash_core::tokens::{estimate_tokens, TooLarge};
use squash_core::{ContentItem, Message, Role};

use super::asker::{Asker, SquashStage};
use super::input::Input;
use super::result::{PromptPurpose, SentPrompt};
use super::SquashError;

/// Estimates err by up to ~20%; parts are planned to fill at most this share of the room.
const FILL: f64 = 0.85;

/// Squashes `input` in parts and returns the combining prompt with its raw answer.
pub(super) async fn squash_in_parts(
    asker: &mut Asker<'_>,
    input: &Input<'_>,
    prompts: &mut Vec<SentPrompt>,
) -> Result<(SquashPrompt, String), SquashError> {
    // Each round squashes the previous round's results; the first round, the selection.
    let mut level: Vec<Message> = input.messages.iter().map(|m| (*m).clone()).collect();
    loop {
        let refs: Vec<&Message> = level.iter().collect();
        let parts = plan_parts(asker, input, &refs)?;
        let mut partials = Vec::with_capacity(parts.len());
        for (i, range) in parts.iter().enumerate() {
            asker.stage(SquashStage::Part {
                index: i + 1,
                of: parts.len(),
            });
            let slice = &refs[range.clone()];
            let prompt = build_squash_prompt(slice, input.instructions, input.prompt_style);
            prompts.push(SentPrompt {
                purpose: PromptPurpose::Chunk {
                    index: i + 1,
                    of: parts.len(),
                },
                prompt: prompt.clone(),
            });
            let answer = asker.ask(&prompt).await?;
            // An unusable part answer is replaced by that part's extract, not retried: the
            // combined answer is checked against the whole ledger anyway.
            let text = check_output(&messages_text(slice), &answer.text)
                .unwrap_or_else(|_| extract_text(&build_ledger(slice), slice));
            partials.push(partial_message(slice, text)?);
        }
        let partial_refs: Vec<&Message> = partials.iter().collect();
        let combine = build_squash_prompt(&partial_refs, input.instructions, input.prompt_style);
        if asker.fits(&combine) {
            asker.stage(SquashStage::Combining);
            prompts.push(SentPrompt {
                purpose: PromptPurpose::Combine,
                prompt: combine.clone(),
            });
            let answer = asker.ask(&combine).await?;
            return Ok((combine, answer.text));
        }
        if partials.len() >= level.len() {
            // The parts' results are no fewer than what they came from: no progress.
            asker.check(&combine)?;
        }
        level = partials;
    }
}

fn partial_message(slice: &[&Message], text: String) -> Result<Message, SquashError> {
    let conversation = slice
        .first()
        .map(|m| m.conversation_id)
        .ok_or(squash_core::DomainError::TooFewMessages(0))?;
    Ok(Message::new(
        conversation,
        Role::Assistant,
        vec![ContentItem::text_for(Role::Assistant, text)],
    )?)
}

/// Parts of `messages` whose prompts fit the window, cut only where no tool call waits for
/// its result.
fn plan_parts(
    asker: &Asker<'_>,
    input: &Input<'_>,
    messages: &[&Message],
) -> Result<Vec<Range<usize>>, SquashError> {
    let window = u64::from(asker.context_window());
    let max_output = u64::from(asker.max_output(input.prompt_style));
    let sizes: Vec<u64> = messages
        .iter()
        .map(|m| estimate_tokens(&messages_text(&[*m])) + 8)
        .collect();
    let overhead = messages.first().map_or(0, |first| {
        build_squash_prompt(&[*first], input.instructions, input.prompt_style)
            .estimated_tokens()
            .saturating_sub(sizes[0])
    });
    let room = window.saturating_sub(max_output + overhead);
    let budget = (room as f64 * FILL) as u64;
    let cuts = allowed_cuts(messages);
    let mut parts = Vec::new();
    let mut start = 0;
    while start < messages.len() {
        let mut total = 0;
        let mut last_cut = None;
        let mut end = start;
        while end < messages.len() && total + sizes[end] <= budget {
            total += sizes[end];
            end += 1;
            if cuts.contains(&end) {
                last_cut = Some(end);
            }
        }
        let Some(cut) = last_cut else {
            // Not even one tool exchange fits: say how large the smallest part is.
            let smallest: u64 = sizes[start..].iter().take(2).sum();
            return Err(TooLarge {
                estimated: smallest + overhead,
                available: window.saturating_sub(max_output),
                window: asker.context_window(),
            }
            .into());
        };
        parts.push(start..cut);
        start = cut;
    }
    Ok(parts)
}

/// Positions where a part may end (exclusive end index): after a message that leaves no tool
/// call of the selection waiting for a result that comes later.
fn allowed_cuts(messages: &[&Message]) -> HashSet<usize> {
    let results: HashSet<&str> = messages
        .iter()
        .flat_map(|m| m.content.iter())
        .filter_map(|item| match item {
            ContentItem::ToolResult { tool_use_id, .. } => Some(tool_use_id.as_str()),
            _ => None,
        })
        .collect();
    let mut open: HashSet<&str> = HashSet::new();
    let mut cuts = HashSet::new();
    for (i, message) in messages.iter().enumerate() {
        for item in &message.content {
            match item {
                ContentItem::ToolCall { id, .. } if results.contains(id.as_str()) => {
                    open.insert(id.as_str());
                }
                ContentItem::ToolResult { tool_use_id, .. } => {
                    open.remove(tool_use_id.as_str());
                }
                _ => {}
            }
        }
        if open.is_empty() {
            cuts.insert(i + 1);
        }
    }
    cuts
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use squash_core::ConversationId;

    #[test]
    fn cuts_never_separate_a_call_from_its_result() {
        let conv = ConversationId::new();
        let text = |t: &str| Message::text(conv, Role::User, t).unwrap();
        let call = Message::new(
            conv,
            Role::Assistant,
            vec![ContentItem::tool_call(
                "t1",
                "Bash",
                json!({"command": "ls"}),
            )],
        )
        .unwrap();
        let result = Message::new(
            conv,
            Role::User,
            vec![ContentItem::tool_result("t1", "Bash", "a", false)],
        )
        .unwrap();
        let (a, b) = (text("a"), text("b"));
        let messages = vec![&a, &call, &result, &b];
        let cuts = allowed_cuts(&messages);
        assert!(cuts.contains(&1));
        assert!(!cuts.contains(&2), "between the call and its result");
        assert!(cuts.contains(&3));
        assert!(cuts.contains(&4));
    }
}
