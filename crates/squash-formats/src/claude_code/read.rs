//! Claude Code session logs (`~/.claude/projects/<cwd>/<sessionId>.jsonl`).
//!
//! The file is a tree of lines linked by `parentUuid`. The current thread runs from the leaf a
//! `last-prompt` line names (else the newest leaf) back to its root; every other leaf (a branch
//! a rewind left behind) and the history before each compaction are threads one can switch to.
//! Compactions that keep messages verbatim (`preservedSegment`, `preservedMessages`) are relinked
//! behind their summary as Claude Code does. Lines whose parent is missing (trimmed or
//! hand-made files) follow the line before them, with a warning. The consecutive assistant
//! lines of one API response (same `message.id`) are one message. Sub-agent runs
//! (`isSidechain: true`) become conversations of their own, one per `agentId`, linked to the
//! `Task` call that started them when its prompt matches.
//!
//! Nothing is dropped: every line is counted in [`Parsed::records`] once. A line that is no
//! message (titles, snapshots, progress, mode and queue records, line types of future releases)
//! goes verbatim into its conversation's import metadata (`claude_code.extras`) with its line
//! number, so an export can write the session back.

use std::borrow::Cow;
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde_json::Value;

pub use super::assemble::ParentSession;
use super::assemble::{assemble, Assembly};
use super::chain::{continue_past_late_hooks, groups, join_orphans, orphan_warnings, GroupKey};
use super::deferred::LineSource;
use super::head::message_line;
use super::keys::Keys;
use super::lines::{convert, Body, LineAt, LineRecord};
use super::messages::{build, Draft};
use super::threads::thread_paths;
use super::tree::Tree;
use crate::anthropic_json::ToolNames;
use crate::Parsed;

pub use super::restore::restore_line;

/// Where Claude Code data sits in metadata.
pub const META_KEY: &str = "claude_code";

/// Reads a session line by line; [`finish`](ClaudeCodeParser::finish) builds the
/// conversations. Memory holds the converted lines, never the whole file; in streaming mode
/// ([`streaming`](ClaudeCodeParser::streaming)) only what the structure needs, and the
/// messages are made when they are stored, by reading their lines again.
pub struct ClaudeCodeParser {
    /// Set in streaming mode.
    source: Option<LineSource>,
    last_cwd: Option<Arc<str>>,
    source_name: String,
    now: DateTime<Utc>,
    lines: Vec<LineRecord>,
    /// The uuids the lines name.
    keys: Keys,
    /// The tool-use ids of the `Task`/`Agent` calls read so far: the results kept in a line's
    /// facts are theirs.
    task_calls: HashSet<String>,
    names: ToolNames,
    session_id: Option<String>,
    /// The `leafUuid` of the last `last-prompt` line: where the user left off.
    leaf_uuid: Option<String>,
    /// For a file of sub-agent runs: the session whose calls started them.
    parent: Option<ParentSession>,
    parsed: Parsed,
}

impl ClaudeCodeParser {
    /// `source_name` names the input in reports; `now` stands in for missing timestamps.
    pub fn new(source_name: &str, now: DateTime<Utc>) -> ClaudeCodeParser {
        ClaudeCodeParser {
            source: None,
            last_cwd: None,
            source_name: source_name.to_owned(),
            now,
            lines: Vec::new(),
            keys: Keys::default(),
            task_calls: HashSet::new(),
            names: ToolNames::new(),
            session_id: None,
            leaf_uuid: None,
            parent: None,
            parsed: Parsed::default(),
        }
    }

    /// A parser that keeps no message content: the conversations it makes hold
    /// [`DeferredMessages`](super::DeferredMessages) that read `path` again.
    /// For a file of sub-agent runs (`<session>/subagents/agent-*.jsonl`): the session whose
    /// `Task` calls started them, which names them and ties each run to its call.
    pub fn with_parent(mut self, parent: ParentSession) -> ClaudeCodeParser {
        self.parent = Some(parent);
        self
    }

    pub fn streaming(path: PathBuf, source_name: &str, now: DateTime<Utc>) -> ClaudeCodeParser {
        let mut parser = ClaudeCodeParser::new(source_name, now);
        parser.source = Some(LineSource::new(path, source_name.to_owned()));
        parser
    }

    /// Parses a whole session held in memory (tests, fuzzing, uploads).
    pub fn parse_str(source_name: &str, text: &str, content_hash: &str) -> Parsed {
        let mut parser = ClaudeCodeParser::new(source_name, Utc::now());
        let mut count = 0;
        let mut offset = 0u64;
        for (i, line) in text.split_inclusive('\n').enumerate() {
            // As the line driver does: a blank line is no record (its bytes still count).
            if !line.trim().is_empty() {
                parser.push_line_at(i + 1, offset, line);
                count += 1;
            }
            offset += line.len() as u64;
        }
        let mut parsed = parser.finish(content_hash);
        parsed.records.lines = count;
        parsed
    }

    /// One line of the file; `no` is its 1-based number. Malformed lines are reported and
    /// skipped.
    pub fn push_line(&mut self, no: usize, text: &str) {
        self.push_line_at(no, 0, text);
    }

    /// One line of the file (with its line ending, if any), `offset` bytes into it.
    pub fn push_line_at(&mut self, no: usize, offset: u64, raw: &str) {
        let at = LineAt {
            no,
            offset,
            len: u32::try_from(raw.len()).unwrap_or(u32::MAX),
            crc: crc32fast::hash(raw.as_bytes()),
        };
        let text = raw.trim();
        if self.source.is_some() {
            // A streamed read keeps no content: most lines need no JSON tree.
            if let Some(line) = message_line(at, text, &mut self.names, &mut self.keys) {
                if self.session_id.is_none() {
                    self.session_id = line.session_id.map(Cow::into_owned);
                }
                return self.push_record(line.record);
            }
        }
        let reason = if text.is_empty() {
            "an empty line".to_owned()
        } else {
            match serde_json::from_str::<Value>(text) {
                Ok(value) if value.is_object() => return self.push_value(at, value),
                Ok(_) => "not a JSON object".to_owned(),
                Err(e) => format!("invalid JSON: {e}"),
            }
        };
        self.parsed.skip_record(&self.source_name, Some(no), reason);
    }

    fn push_value(&mut self, at: LineAt, value: Value) {
        let text = |k: &str| value.get(k).and_then(Value::as_str).map(str::to_owned);
        if self.session_id.is_none() {
            self.session_id = text("sessionId");
        }
        if value.get("type").and_then(Value::as_str) == Some("last-prompt") {
            if let Some(leaf) = text("leafUuid") {
                self.leaf_uuid = Some(leaf);
            }
        }
        let record = convert(at, value, &mut self.names, &mut self.keys);
        self.push_record(record);
    }

    fn push_record(&mut self, mut record: LineRecord) {
        if let Body::Message(line) = &mut record.body {
            if self.source.is_some() {
                line.content = None;
            }
            let calls = &mut self.task_calls;
            calls.extend(line.facts.tasks().iter().map(|(id, _, _)| id.clone()));
            line.facts.keep_results(|id| calls.contains(id));
            // Every line names the same working directory, mostly: keep it once.
            match (&line.facts.cwd, &self.last_cwd) {
                (Some(cwd), Some(last)) if cwd == last => line.facts.cwd = Some(last.clone()),
                (Some(cwd), _) => self.last_cwd = Some(cwd.clone()),
                _ => {}
            }
        }
        self.lines.push(record);
    }

    /// Builds the conversations: the main one first, then one per sub-agent run.
    pub fn finish(mut self, content_hash: &str) -> Parsed {
        // The lines stay until every conversation is built, beside all that is built from
        // them: without the room their growth left (up to half again), a 1 GB session's
        // build needs ~11 MB less at its peak.
        self.lines.shrink_to_fit();
        self.keys.shrink_to_fit();
        let mut tree = Tree::build(&self.lines, std::mem::take(&mut self.keys));
        let groups = groups(&self.lines, &tree);
        for group in &groups {
            let orphans = join_orphans(&self.lines, &mut tree, &group.members);
            continue_past_late_hooks(&self.lines, &mut tree, &group.members);
            let what = match &group.key {
                GroupKey::Main => "the conversation".to_owned(),
                GroupKey::Agent(agent) => format!("sub-agent run {agent}"),
                GroupKey::Task(call) => format!("the sub-agent run of call {call}"),
                GroupKey::Root(root) => {
                    format!("the sub-agent run at line {}", self.lines[*root].no)
                }
            };
            let warnings = orphan_warnings(&self.source_name, &what, &orphans);
            self.parsed.warnings.extend(warnings);
        }
        let leaf = self.leaf_uuid.as_deref().and_then(|u| tree.index(u));
        let mut drafts: Vec<Option<Draft>> = Vec::with_capacity(groups.len());
        for group in &groups {
            let draft = thread_paths(&self.lines, &tree, &group.members, leaf)
                .map(|paths| build(&mut self.lines, &paths, self.now, &mut self.parsed));
            drafts.push(draft);
        }
        let session = self.session_id.clone();
        // A streamed read's messages are made later from the source, with these names; what
        // is assembled now needs none (a line no thread took is read again as written).
        let source = self.source.take().map(|mut s| {
            s.set_names(std::mem::take(&mut self.names));
            Arc::new(s)
        });
        assemble(Assembly {
            source,
            source_name: &self.source_name,
            session,
            content_hash,
            now: self.now,
            lines: &mut self.lines,
            tree: &tree,
            names: &self.names,
            groups: &groups,
            drafts,
            parsed: &mut self.parsed,
            parent: self.parent.as_ref(),
        });
        self.parsed
    }
}
