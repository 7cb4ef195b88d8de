//! What a sub-agent reported: the result of the call that started it (Claude Code's `Task` or
//! `Agent` tool), kept with that call.

use serde_json::Value;

use super::anchors::anchors_of;
use super::fact::{Fact, FactKind};
use super::tool_use::ToolUse;
use crate::text::{one_line, sentences};

/// How much of a report the fact keeps: its first sentences and the ones naming terms.
const REPORT_SENTENCES: usize = 4;
const REPORT_MAX_CHARS: usize = 240;

/// The sub-agent's report, when `use_` started one and has a result.
pub(crate) fn report(use_: &ToolUse<'_>) -> Option<Fact> {
    if !is_sub_agent(use_.name) {
        return None;
    }
    let result = use_.result.as_ref()?;
    let task = ["description", "subagent_type", "prompt"]
        .iter()
        .find_map(|k| use_.input.get(*k).and_then(Value::as_str))
        .unwrap_or(use_.name);
    let all = sentences(&result.text);
    let mut kept: Vec<&str> = Vec::new();
    for (i, s) in all.iter().enumerate() {
        if kept.len() == REPORT_SENTENCES {
            break;
        }
        if i < 2 || !anchors_of(s, 1).is_empty() {
            kept.push(s);
        }
    }
    if kept.is_empty() {
        return None;
    }
    let said = one_line(&kept.join(" "), REPORT_MAX_CHARS);
    let mut anchors = anchors_of(&said, 3);
    if anchors.is_empty() {
        anchors = super::anchors::content_words(&said, 2);
    }
    Some(Fact {
        kind: FactKind::Command,
        text: format!("{} `{}` reported: {said}", use_.name, one_line(task, 80)),
        anchors,
        source: result.source,
    })
}

fn is_sub_agent(name: &str) -> bool {
    matches!(name, "Task" | "Agent" | "task" | "agent" | "spawn_agent")
}
