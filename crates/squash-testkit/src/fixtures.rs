//! Fixture builders: conversations of realistic content for the tests to store and read.

use std::path::{Path, PathBuf};

use serde_json::json;
use squash_app::import::{ImportStatus, ImportSummary};
use squash_app::resume::AgentHomes;
use squash_app::{ConversationService, ManualSquashRequest};

pub use crate::backend::import_options;
use crate::backend::Backend;
use squash_core::sample::{self, TextSize};
use squash_core::{
    ContentItem, Conversation, ConversationId, ImportSource, Message, MessageId, Role,
    SourceFormat, SquashOperation, Thread, ThreadId, ThreadOrigin,
};
use squash_store::{Commit, ImportBatch, LinkEdit, NewLinks};

/// The content of the n-th message of a realistic mixed conversation, short texts
/// ([`squash_core::sample::mixed_content`]).
pub fn mixed_content(n: usize) -> (Role, Vec<ContentItem>) {
    sample::mixed_content(n, TextSize::Short)
}

/// A conversation of `messages` on one initial thread, as an import stores it in one piece
/// (from a Claude Code source keyed `source_key`, under `project_path`).
pub fn single_thread_batch(
    conversation: ConversationId,
    messages: Vec<Message>,
    source_key: &str,
    project_path: &str,
) -> ImportBatch {
    let source = ImportSource {
        source_key: source_key.into(),
        format: SourceFormat::ClaudeCode,
        content_hash: "h1".into(),
        metadata: None,
    };
    ImportBatch::single_thread(source, project_path, "imported", conversation, messages)
}

/// How a generated Claude Code session looks: whose it is, where it ran, and what each turn's
/// Bash call runs and prints.
pub struct GeneratedSession<'a> {
    pub session_id: &'a str,
    pub cwd: &'a str,
    pub command: &'a dyn Fn(usize) -> String,
    pub output: &'a dyn Fn(usize) -> String,
}

/// Writes a Claude Code session of `turns` turns to `path`: each a prompt, an answer with a
/// tool call, the tool's result, chained by `parentUuid`.
pub fn write_claude_session(path: &Path, turns: usize, how: &GeneratedSession) {
    let mut out = String::new();
    let mut parent: Option<String> = None;
    for t in 0..turns {
        let lines = [
            (
                "user",
                json!({"role": "user", "content": format!("prompt {t}")}),
            ),
            (
                "assistant",
                json!({"id": format!("msg_{t}"), "role": "assistant", "content": [
                    {"type": "text", "text": format!("answer {t}")},
                    {"type": "tool_use", "id": format!("toolu_{t}"), "name": "Bash",
                     "input": {"command": (how.command)(t)}}]}),
            ),
            (
                "user",
                json!({"role": "user", "content": [{"type": "tool_result",
                    "tool_use_id": format!("toolu_{t}"), "content": (how.output)(t)}]}),
            ),
        ];
        for (k, (kind, message)) in lines.into_iter().enumerate() {
            let uuid = format!("00000000-0000-4000-8000-{:012}", t * 3 + k);
            let line = json!({"parentUuid": parent, "isSidechain": false, "type": kind,
                "uuid": uuid, "sessionId": how.session_id, "cwd": how.cwd,
                "timestamp": format!("2026-01-01T00:{:02}:{:02}.000Z", (t / 60) % 60, t % 60),
                "message": message});
            out.push_str(&line.to_string());
            out.push('\n');
            parent = Some(uuid);
        }
    }
    std::fs::write(path, out).expect("write the generated session");
}

#[derive(serde::Deserialize)]
struct DemoSession {
    messages: Vec<DemoMessage>,
}

#[derive(serde::Deserialize)]
struct DemoMessage {
    role: Role,
    content: Vec<ContentItem>,
}

/// The CLI's demo session (`crates/squash-cli/demo/session.json`) stored as a conversation of
/// `project`; its messages in order.
pub async fn store_demo(b: &Backend, project: &str) -> (ConversationId, Vec<Message>) {
    let session: DemoSession =
        serde_json::from_str(include_str!("../../squash-cli/demo/session.json"))
            .expect("the demo session");
    let conv = b
        .service
        .create_conversation(project, "demo")
        .await
        .expect("create the demo conversation")
        .id;
    let mut messages = Vec::new();
    for m in session.messages {
        let (message, _) = b
            .service
            .append(conv, m.role, m.content)
            .await
            .expect("append a demo message");
        messages.push(message);
    }
    (conv, messages)
}

/// The agents' homes in folders of their own under `dir` (`.claude`, `.codex`, `.gemini`,
/// `opencode`, `opencode-config`): where a test writes sessions that no real agent reads.
pub fn agent_homes_under(dir: &Path) -> AgentHomes {
    AgentHomes {
        claude_config: dir.join(".claude"),
        codex_home: dir.join(".codex"),
        gemini_home: dir.join(".gemini"),
        opencode_data: dir.join("opencode"),
        opencode_config: dir.join("opencode-config"),
    }
}

/// A session file of the repository's test data (`testdata/sessions/NAME`).
pub fn session_data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/sessions")
        .join(name)
}

/// The session file `name` of the test data, imported into `b` by Squash's own importer: its
/// first conversation.
pub async fn import_session_data(b: &Backend, name: &str) -> ConversationId {
    let summary = b
        .service
        .import_file(
            &session_data(name),
            &squash_app::import::ImportOptions::default(),
            std::sync::Arc::new(squash_app::import::NoProgress),
        )
        .await
        .expect("import the session");
    summary.conversations[0].conversation_id
}

/// A user message saying `text`.
pub fn user_text(conversation: ConversationId, text: &str) -> Message {
    Message::new(
        conversation,
        Role::User,
        vec![ContentItem::text_for(Role::User, text)],
    )
    .expect("valid message")
}

/// Every conversation of a second import of the same file was already imported.
pub fn assert_already_imported(again: &ImportSummary, name: &str) {
    assert!(
        again
            .conversations
            .iter()
            .all(|c| c.status == ImportStatus::AlreadyImported),
        "{name}: {:?}",
        again.conversations
    );
}

/// A deterministic stream of choices (no dependency, the same on every run).
pub struct Lcg(pub u64);

impl Lcg {
    /// The next choice in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n.max(1)
    }

    /// The next index into something of length `n`.
    pub fn pick(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }
}

/// The tables of a Gromozeka database (the SQLite file its sessions live in).
pub const GROMOZEKA_SCHEMA: &str =
    "CREATE TABLE projects (id TEXT PRIMARY KEY, path TEXT NOT NULL, name TEXT, created_at INTEGER);
         CREATE TABLE conversations (id TEXT PRIMARY KEY, project_id TEXT, display_name TEXT NOT NULL DEFAULT '',
             current_thread_id TEXT NOT NULL, ai_provider TEXT, model_name TEXT, created_at, updated_at);
         CREATE TABLE threads (id TEXT PRIMARY KEY, conversation_id TEXT NOT NULL, original_thread_id TEXT,
             created_at, updated_at);
         CREATE TABLE thread_messages (thread_id TEXT NOT NULL, message_id TEXT NOT NULL, position INT NOT NULL,
             PRIMARY KEY (thread_id, message_id));
         CREATE TABLE messages (id TEXT PRIMARY KEY, conversation_id TEXT NOT NULL, message_json TEXT NOT NULL,
             created_at);
         CREATE TABLE squash_operations (id VARCHAR(255) PRIMARY KEY, conversation_id VARCHAR(255),
             source_message_ids TEXT, result_message_id VARCHAR(255), prompt TEXT NULL, model VARCHAR(255) NULL,
             performed_by_agent BOOLEAN, created_at TIMESTAMP);";

/// The long output of the `t`-th `cargo test` of a generated agent session: 150 lines of
/// compiling, then the failure or `passed` passing tests.
pub fn cargo_log(t: usize, failing: bool, passed: usize) -> Vec<String> {
    let mut log: Vec<String> = (0..150)
        .map(|i| format!("   Compiling dep_{i} v0.{t}.{i} (/work/deps/dep_{i})"))
        .collect();
    log.push(if failing {
        format!("error[E0425]: cannot find value `total_{t}` in src/report_{t}.rs")
    } else {
        format!("test result: ok. {passed} passed; 0 failed")
    });
    log
}

/// A new conversation named `name` in the project at `project`.
pub async fn new_conversation(
    service: &ConversationService,
    project: &str,
    name: &str,
) -> Conversation {
    service
        .create_conversation(project, name)
        .await
        .expect("create a conversation")
}

/// `content` appended to `conversation`'s current thread as `role`.
pub async fn append(
    service: &ConversationService,
    conversation: ConversationId,
    role: Role,
    content: Vec<ContentItem>,
) -> Message {
    service
        .append(conversation, role, content)
        .await
        .expect("append a message")
        .0
}

/// `text` appended as `role`.
pub async fn append_text(
    service: &ConversationService,
    conversation: ConversationId,
    role: Role,
    text: &str,
) -> Message {
    append(
        service,
        conversation,
        role,
        vec![ContentItem::text_for(role, text)],
    )
    .await
}

/// The assistant's call `id` of `tool` with `input`, appended.
pub async fn append_call(
    service: &ConversationService,
    conversation: ConversationId,
    id: &str,
    tool: &str,
    input: serde_json::Value,
) -> Message {
    let call = ContentItem::tool_call(id, tool, input);
    append(service, conversation, Role::Assistant, vec![call]).await
}

/// The output of call `id` of `tool`, appended as the user's message (as Claude Code has it).
pub async fn append_output(
    service: &ConversationService,
    conversation: ConversationId,
    id: &str,
    tool: &str,
    output: &str,
    is_error: bool,
) -> Message {
    let result = ContentItem::tool_result(id, tool, output, is_error);
    append(service, conversation, Role::User, vec![result]).await
}

/// `ids` of `conversation` squashed by hand into `text`: the operation's record.
pub async fn squash_into(
    service: &ConversationService,
    conversation: ConversationId,
    ids: &[MessageId],
    text: &str,
) -> SquashOperation {
    let request = ManualSquashRequest {
        messages: ids.to_vec(),
        text: Some(text.to_owned()),
        ..ManualSquashRequest::default()
    };
    let out = service
        .squash_manual(conversation, request)
        .await
        .expect("a manual squash");
    out.operation.expect("a squash has its record")
}

/// A commit of `edit` to the thread `base` (its links edited by the store, as the service
/// commits), with `message` as the edit's new message if it replaces one.
pub fn edit_commit(base: &Thread, edit: LinkEdit, message: Option<Message>) -> Commit {
    Commit {
        conversation_id: base.conversation_id,
        base_thread_id: base.id,
        base_revision: base.revision,
        thread_id: ThreadId::new(),
        origin: ThreadOrigin::Delete {
            message_ids: Vec::new(),
        },
        links: NewLinks::Edit(edit),
        messages: message.into_iter().collect(),
        operations: Vec::new(),
    }
}
