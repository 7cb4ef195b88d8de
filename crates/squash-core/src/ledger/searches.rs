//! Searches through a search tool (Grep, Glob, a find or code-search tool) and what they found;
//! searches of the same tool in a row are one fact.

use serde_json::Value;

use super::anchors::{anchors_of, content_words};
use super::commands::is_command;
use super::fact::{Fact, FactKind};
use super::output::sample_lines;
use super::tool_use::ToolUse;
use crate::ids::MessageId;
use crate::text::one_line;

/// Of a search's output, the first paths it printed (whole), or its first line (shortened).
const SAMPLE_PATHS: usize = 2;
const SAMPLE_CHARS: usize = 80;

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SearchObs {
    pub source: MessageId,
    pub tool: String,
    /// What was searched for (the pattern, query or name).
    pub what: String,
    /// Non-empty lines of output, and the first few.
    pub lines: usize,
    pub sample: Vec<String>,
    pub anchors: Vec<String>,
}

/// The search a call made, when it is a search tool's and has a result.
pub(crate) fn observe(use_: &ToolUse<'_>) -> Option<SearchObs> {
    let n = use_.name.to_ascii_lowercase();
    let is_search =
        n.contains("grep") || n.contains("glob") || n.contains("search") || n.contains("find");
    if !is_search || is_command(use_) {
        return None;
    }
    let result = use_.result.as_ref()?;
    let lines: Vec<&str> = result
        .text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let what = ["pattern", "query", "file_name", "name", "path"]
        .iter()
        .find_map(|k| use_.input.get(*k).and_then(Value::as_str))
        .unwrap_or("");
    let (sample, _) = sample_lines(&lines, SAMPLE_PATHS, SAMPLE_CHARS);
    let shown = sample.join(" ");
    let mut anchors = anchors_of(&shown, 2);
    if anchors.is_empty() {
        anchors = content_words(&shown, 2);
    }
    if anchors.is_empty() {
        return None;
    }
    Some(SearchObs {
        source: result.source,
        tool: use_.name.to_owned(),
        what: one_line(what, 60),
        lines: lines.len(),
        sample,
        anchors,
    })
}

/// One fact per search, or per run of searches of the same tool in a row.
pub(crate) fn search_facts(searches: &[&SearchObs]) -> Vec<Fact> {
    let mut facts = Vec::new();
    let mut i = 0;
    while i < searches.len() {
        let first = searches[i];
        let run = searches[i..]
            .iter()
            .take_while(|s| s.tool == first.tool)
            .count();
        let group = &searches[i..i + run];
        i += run;
        let found = found_text(group);
        let (text, anchors) = if let [one] = group {
            (
                format!("{} `{}` → {found}", one.tool, one.what),
                one.anchors.clone(),
            )
        } else {
            let whats: Vec<String> = group.iter().map(|s| format!("`{}`", s.what)).collect();
            let anchors = group.iter().flat_map(|s| s.anchors.iter().take(1)).take(2);
            (
                format!(
                    "{} ×{} ({}) → {found}",
                    first.tool,
                    group.len(),
                    whats.join("; ")
                ),
                anchors.cloned().collect(),
            )
        };
        facts.push(Fact {
            kind: FactKind::Command,
            text,
            anchors,
            source: first.source,
        });
    }
    facts
}

/// The first line of a one-line result; of longer ones how many lines and the first few.
fn found_text(group: &[&SearchObs]) -> String {
    let lines: usize = group.iter().map(|s| s.lines).sum();
    let sample: Vec<&str> = group
        .iter()
        .flat_map(|s| s.sample.iter().map(String::as_str))
        .take(SAMPLE_PATHS)
        .collect();
    match (lines, sample.as_slice()) {
        (1, [one]) => (*one).to_owned(),
        _ => format!("{lines} lines, e.g. {}", sample.join(", ")),
    }
}
