//! What a conversation is called: the title the user gave it, else Claude Code's own title
//! (`ai-title`), else the summary line, else its first prompt; and which `Task` call started a
//! sub-agent run.

use serde_json::Value;
use squash_core::Role;

use super::messages::Plan;
use crate::fields::title_from;

/// `(tool-use id, prompt, description)` of the calls that start sub-agents.
pub(super) fn task_calls(plans: &[Plan]) -> Vec<(String, String, String)> {
    plans
        .iter()
        .flat_map(|p| &p.lines)
        .flat_map(|l| l.facts.tasks().iter().cloned())
        .collect()
}

/// The digest of the first user text of the first message.
pub(super) fn first_prompt(plans: &[Plan]) -> Option<u64> {
    plans.first()?.lines.iter().find_map(|l| l.facts.prompt())
}

/// The newest title line of `kind` among the conversation's extras.
fn title_line<'a>(extras: &'a [Value], kind: &str, field: &str) -> Option<&'a str> {
    extras.iter().rev().find_map(|e| {
        let json = e.get("json")?;
        (json.get("type")?.as_str()? == kind)
            .then(|| json.get(field)?.as_str())
            .flatten()
    })
}

pub(super) fn display_name(plans: &[Plan], extras: &[Value]) -> String {
    let titled = title_line(extras, "custom-title", "customTitle")
        .or_else(|| title_line(extras, "ai-title", "aiTitle"))
        .or_else(|| title_line(extras, "summary", "summary"));
    if let Some(name) = titled.and_then(|s| title_from(s, 80)) {
        return name;
    }
    plans
        .iter()
        .filter(|p| p.role == Role::User)
        .filter_map(Plan::first)
        .filter(|l| !l.facts.injected)
        .find_map(|l| l.facts.lead_title().map(str::to_owned))
        .unwrap_or_else(|| "Claude Code session".to_owned())
}

pub(super) fn prefix(session: &str) -> &str {
    session.get(..8).unwrap_or(session)
}
