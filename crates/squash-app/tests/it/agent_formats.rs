//! The formats of issue 22 through the import and export services, one story on both backends:
//! Gemini CLI recordings, opencode stores and exports, claude.ai exports and a single ChatGPT
//! conversation object import with every record accounted for and round-trip (import → export
//! → import) with nothing lost; the near misses of each reader are refused, and nothing is
//! written for them.

use squash_testkit::fixtures::{import_options, session_data as data};
use std::path::Path;
use std::sync::Arc;

use serde_json::Value;
use squash_app::import::{ImportError, ImportSummary};
use squash_app::{AppError, Remedy};
use squash_app::{ExportFormat, ExportOptions, ImportFormat, ImportOptions, NoProgress};
use squash_core::{ContentItem, Message};
use squash_testkit::Backend;

fn options() -> ImportOptions {
    import_options("/tmp/agent-formats")
}

async fn import(b: &Backend, path: &Path) -> Result<ImportSummary, ImportError> {
    b.service
        .import_path(path, &options(), Arc::new(NoProgress))
        .await
}

/// The first conversation's current thread, message by message, without ids and times (an
/// export holds one conversation).
async fn content(b: &Backend, summary: &ImportSummary) -> Vec<Vec<ContentItem>> {
    let first = summary.conversations[0].conversation_id;
    let view = b.service.current_thread(first).await.unwrap();
    view.messages
        .iter()
        .map(|m: &Message| m.content.clone())
        .collect()
}

async fn export(b: &Backend, summary: &ImportSummary, format: ExportFormat) -> Vec<u8> {
    let conv = summary.conversations[0].conversation_id;
    let mut out = Vec::new();
    let options = ExportOptions {
        cwd: Some("/work/project".into()),
        ..ExportOptions::new(format)
    };
    b.service.export(conv, &options, &mut out).await.unwrap();
    out
}

fn check_records(summary: &ImportSummary) {
    for f in &summary.file_reports {
        assert!(f.records.balanced(), "{}: {:?}", f.file, f.records);
        assert_eq!(f.records.skipped, 0, "{}: {:?}", f.file, summary.skipped);
    }
    assert!(summary.failed.is_empty(), "{:?}", summary.failed);
}

/// Import, export in `format`, import the export into a fresh store: the same messages.
async fn round_trip(b: &Backend, fresh: &Backend, file: &str, format: ExportFormat) {
    let summary = import(b, &data(file)).await.unwrap();
    check_records(&summary);
    let before = content(b, &summary).await;
    assert!(!before.is_empty(), "{file}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("again.{}", format.extension()));
    std::fs::write(&path, export(b, &summary, format).await).unwrap();
    let again = import(fresh, &path).await.unwrap();
    check_records(&again);
    assert_eq!(content(fresh, &again).await, before, "{file} via {format}");
}

async fn story(b: &Backend, fresh: &Backend) {
    round_trip(
        b,
        fresh,
        "gemini-cli-0.61-probe.jsonl",
        ExportFormat::Gemini,
    )
    .await;
    round_trip(
        b,
        fresh,
        "opencode-1.18-export.json",
        ExportFormat::Opencode,
    )
    .await;
    for file in [
        "gemini-cli-0.61-probe.jsonl",
        "opencode-1.18-export.json",
        "claude-ai-conversations.json",
    ] {
        round_trip(b, fresh, file, ExportFormat::Json).await;
    }

    // One ChatGPT conversation, as one-conversation exporters save it.
    let list: Vec<Value> =
        serde_json::from_slice(&std::fs::read(data("chatgpt-conversations.json")).unwrap())
            .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one-chat.json");
    std::fs::write(&one, serde_json::to_vec(&list[0]).unwrap()).unwrap();
    let summary = import(b, &one).await.unwrap();
    check_records(&summary);
    assert_eq!(
        summary.file_reports[0].format,
        squash_app::import::SourceFormat::ChatGpt
    );
    assert_eq!(summary.conversations.len(), 1);

    near_misses(b, dir.path()).await;
}

/// Files that look like a format but hold nothing of it: refused, nothing written.
async fn near_misses(b: &Backend, dir: &Path) {
    let before = b.service.list_conversations(None).await.unwrap().len();
    let cases: [(&str, &str, &str); 7] = [
        // The shapes the issue names: taken for OpenAI-style chats before.
        (
            "kind.json",
            r#"{"messages": [{"kind": "user"}, {"kind": "bot"}]}"#,
            "none of its 2 record(s) is a message",
        ),
        (
            "gemini-header.jsonl",
            "{\"sessionId\":\"s\",\"projectHash\":\"p\"}\n{\"note\":1}\n",
            "none of its 2 record(s)",
        ),
        (
            "claude-ai.json",
            r#"[{"uuid": "c", "chat_messages": [{"sender": "human"}]}]"#,
            "none of its 1 record(s)",
        ),
        (
            "opencode.json",
            r#"{"info": {"id": "ses_x"}, "messages": [{"info": {"id": "m"}, "parts": [{"type": "text"}]}]}"#,
            "is a message",
        ),
        (
            "unknown.json",
            r#"{"name": "x", "version": 2}"#,
            "cannot tell the format",
        ),
        ("prose.jsonl", "hello\nworld\n", "cannot tell the format"),
        (
            "chatgpt.json",
            r#"{"title": "t", "mapping": {"a": {"id": "a", "message": null, "parent": null}}}"#,
            "none of its",
        ),
    ];
    for (name, text, expected) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let err = import(b, &path).await.expect_err(name);
        let error = err.to_string();
        assert!(error.contains(expected), "{name}: {error}");
        // The way out is the format's name; the CLI words it as `--format takes …`.
        assert!(
            matches!(err.remedies().as_slice(), [Remedy::NameFormat { known }] if known.len() == ImportFormat::ALL.len()),
            "{name}: {error}"
        );
        assert!(!error.contains('\n'), "one line: {error}");
    }
    // Forced formats on files of another.
    let forced = ImportOptions {
        format: ImportFormat::Gemini,
        ..options()
    };
    let error = b
        .service
        .import_path(
            &data("codex-rollout-sample.jsonl"),
            &forced,
            Arc::new(NoProgress),
        )
        .await
        .expect_err("a rollout is no recording")
        .to_string();
    assert!(
        error.contains("expected a Gemini CLI recording, found a Codex rollout"),
        "{error}"
    );
    assert_eq!(
        b.service.list_conversations(None).await.unwrap().len(),
        before,
        "nothing written for a file that is refused"
    );
}

#[tokio::test]
async fn agent_formats_on_sqlite() {
    story(
        &squash_testkit::sqlite().await,
        &squash_testkit::sqlite().await,
    )
    .await;
}

#[tokio::test]
async fn agent_formats_on_postgres() {
    let (Some(a), Some(b)) = (
        squash_testkit::postgres().await,
        squash_testkit::postgres().await,
    ) else {
        return;
    };
    story(&a, &b).await;
}

/// The resume use case on a backend: a Codex rollout named by its path, resumed by Codex (within
/// the budget: the original, by the id in its name), handed to Claude Code (a session of its
/// own in the project folder of the rollout's working directory), refused at a budget it cannot
/// meet (nothing written), and the stored conversation written for Gemini CLI. Every written
/// file reads back with its agent's reader.
async fn resume_story(b: &Backend) {
    use squash_app::resume::{Agent, ResumeError, ResumeFit, ResumeFrom};
    use squash_app::resume::{ResumeRequest, ResumeService};

    let dir = tempfile::tempdir().unwrap();
    let homes = squash_testkit::fixtures::agent_homes_under(dir.path());
    let id = "019b64e5-57fa-7463-b644-fba7e456f905";
    let rollout = homes.codex_home.join(format!(
        "sessions/2025/12/28/rollout-2025-12-28T12-18-30-{id}.jsonl"
    ));
    std::fs::create_dir_all(rollout.parent().unwrap()).unwrap();
    std::fs::copy(data("codex-rollout-sample.jsonl"), &rollout).unwrap();
    let resumer = ResumeService::new(b.service.clone(), homes.clone());
    let request = |agent, fit| ResumeRequest {
        from: ResumeFrom::Session {
            session: Some(rollout.to_string_lossy().into_owned()),
            cwd: "/somewhere/else".into(),
        },
        agent,
        fit,
        agent_args: vec!["--full-auto".into()],
        start_agent: false,
        recall: None,
    };
    let same = resumer
        .resume(request(None, ResumeFit::default()))
        .await
        .unwrap();
    assert_eq!(same.agent, Agent::Codex, "{}", b.name);
    assert!(same.written.is_none());
    assert!(same.fit.thread.is_none());
    assert_eq!(same.launch.args, ["resume", id, "--full-auto"]);
    // The rollout last ran on gpt-5.2-codex: the window is that model's (the context-window
    // table's 400k for the GPT-5 family), not the agent's default.
    assert_eq!(same.window, 400_000);
    assert_ne!(same.window, Agent::Codex.default_window());
    let thread = b
        .service
        .current_thread(same.conversation_id)
        .await
        .unwrap();
    assert_eq!(same.plan.messages, thread.messages.len());

    let claude = resumer
        .resume(request(Some(Agent::Claude), ResumeFit::default()))
        .await
        .unwrap();
    assert_eq!(
        claude.conversation_id, same.conversation_id,
        "imported once"
    );
    let written = claude.written.expect("a session of its own");
    let project = squash_app::export::project_dir(
        &homes.claude_config,
        "/Users/macmini/Code/homelab-migration",
    );
    assert!(
        written.path.starts_with(&project),
        "{}",
        written.path.display()
    );
    assert_eq!(
        claude.launch.args[..2],
        ["--resume".to_owned(), written.session_id.clone()]
    );
    let messages = read_back(&written.path, squash_core::SourceFormat::ClaudeCode);
    assert!(messages > 0, "{}", written.path.display());

    let files = || std::fs::read_dir(&project).unwrap().count();
    let before = files();
    let tight = ResumeFit {
        budget: Some(1),
        ..ResumeFit::default()
    };
    let refused = resumer.resume(request(Some(Agent::Claude), tight)).await;
    assert!(
        matches!(refused, Err(ResumeError::Fit(_))),
        "{:?}",
        refused.err()
    );
    assert_eq!(files(), before, "nothing written");

    let gemini = resumer
        .resume(ResumeRequest {
            from: ResumeFrom::Conversation(same.conversation_id),
            agent: Some(Agent::Gemini),
            fit: ResumeFit::default(),
            agent_args: Vec::new(),
            start_agent: false,
            recall: None,
        })
        .await
        .unwrap();
    let written = gemini.written.expect("a session");
    assert!(written.path.starts_with(&homes.gemini_home));
    assert!(read_back(&written.path, squash_core::SourceFormat::Gemini) > 0);
}

/// The messages of the main conversation a file holds, read by its agent's reader.
fn read_back(path: &Path, format: squash_core::SourceFormat) -> usize {
    let parsed = squash_formats::read::read_file(
        path,
        &path.display().to_string(),
        format,
        chrono::Utc::now(),
        &mut |_| {},
    )
    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parsed
        .conversations
        .iter()
        .find(|c| !c.sidechain)
        .map_or(0, |c| c.messages.len())
}

#[tokio::test]
async fn resume_on_sqlite() {
    resume_story(&squash_testkit::sqlite().await).await;
}

#[tokio::test]
async fn resume_on_postgres() {
    let Some(backend) = squash_testkit::postgres().await else {
        return;
    };
    resume_story(&backend).await;
}

/// A resume of the store's `conv` in Claude Code, fitted to `budget` from `history`, not
/// started.
fn to_claude(
    conv: squash_core::ConversationId,
    budget: u64,
    history: squash_app::resume::ResumeHistory,
) -> squash_app::resume::ResumeRequest {
    use squash_app::resume::{Agent, ResumeFit, ResumeFrom, ResumeRequest};
    ResumeRequest {
        from: ResumeFrom::Conversation(conv),
        agent: Some(Agent::Claude),
        fit: ResumeFit {
            budget: Some(budget),
            history,
            ..ResumeFit::default()
        },
        agent_args: Vec::new(),
        start_agent: false,
        recall: None,
    }
}

/// `ResumeHistory::Whole` on a conversation of the store: a refused fit leaves the thread the
/// agent continues from current (the switch to the whole history is taken back); an accepted
/// one fits the whole history and says so.
async fn resume_whole_history_story(b: &Backend) {
    use squash_app::resume::{ResumeError, ResumeHistory, ResumeService};

    let dir = tempfile::tempdir().unwrap();
    let homes = squash_testkit::fixtures::agent_homes_under(dir.path());
    let imported = import(b, &data("codex-compacted.jsonl")).await.unwrap();
    let conv = imported.conversations[0].conversation_id;
    let current = b.service.current_thread_header(conv).await.unwrap().1;
    let resumer = ResumeService::new(b.service.clone(), homes);
    let request = |budget| to_claude(conv, budget, ResumeHistory::Whole);
    let refused = resumer.resume(request(1)).await;
    assert!(
        matches!(refused, Err(ResumeError::Fit(_))),
        "{}: {:?}",
        b.name,
        refused.err()
    );
    let after = b.service.current_thread_header(conv).await.unwrap().1;
    assert_eq!(
        after.id, current.id,
        "{}: the refusal changed nothing",
        b.name
    );

    let resumed = resumer.resume(request(100_000)).await.unwrap();
    assert!(resumed.fit.fitted.origin.is_whole_history(), "{}", b.name);
    assert!(resumed.fit.fitted.message_count > current.message_count);
}

/// A conversation that went through compactions, stored before Squash kept its whole history
/// (an export of one without that thread): asked for the whole history, a resume says so and
/// how to get it, and changes nothing — rather than fitting the current thread as if asked.
async fn resume_whole_history_of_an_older_import_story(b: &Backend) {
    use squash_app::resume::{ResumeError, ResumeHistory, ResumeService};

    let imported = import(b, &data("codex-compacted.jsonl")).await.unwrap();
    let exported = export(b, &imported, ExportFormat::Json).await;
    let mut doc: Value = serde_json::from_slice(&exported).unwrap();
    let threads = doc["threads"].as_array_mut().unwrap();
    let before = threads.len();
    threads.retain(|t| t["origin"]["branch"] != "whole_history");
    assert_eq!(
        threads.len(),
        before - 1,
        "the export held the whole history"
    );
    let older = b.fresh().await;
    let summary = older
        .service
        .import_bytes("older.json", serde_json::to_vec(&doc).unwrap(), &options())
        .await
        .unwrap();
    let conv = summary.conversations[0].conversation_id;
    let current = older.service.current_thread_header(conv).await.unwrap().1;

    let dir = tempfile::tempdir().unwrap();
    let homes = squash_testkit::fixtures::agent_homes_under(dir.path());
    let resumer = ResumeService::new(older.service.clone(), homes);
    let request = |history| to_claude(conv, 100_000, history);
    let refused = resumer.resume(request(ResumeHistory::Whole)).await;
    let Err(e @ ResumeError::NoWholeHistory { .. }) = refused else {
        panic!("{}: {:?}", b.name, refused.map(|r| r.fit.fitted));
    };
    assert_eq!(e.code(), squash_app::ErrorCode::InvalidInput);
    assert_eq!(e.remedies(), [Remedy::ImportAgain, Remedy::FitCurrent]);
    let after = older.service.current_thread_header(conv).await.unwrap().1;
    assert_eq!(
        (after.id, after.revision),
        (current.id, current.revision),
        "{}: the refusal changed nothing",
        b.name
    );
    // The thread the agent goes on from is still there to fit.
    let resumed = resumer
        .resume(request(ResumeHistory::Current))
        .await
        .unwrap();
    assert!(!resumed.fit.fitted.origin.is_whole_history(), "{}", b.name);
    older.cleanup().await;
}

#[tokio::test]
async fn resume_whole_history_of_an_older_import_on_sqlite() {
    resume_whole_history_of_an_older_import_story(&squash_testkit::sqlite().await).await;
}

#[tokio::test]
async fn resume_whole_history_of_an_older_import_on_postgres() {
    let Some(backend) = squash_testkit::postgres().await else {
        return;
    };
    resume_whole_history_of_an_older_import_story(&backend).await;
}

#[tokio::test]
async fn resume_whole_history_on_sqlite() {
    resume_whole_history_story(&squash_testkit::sqlite().await).await;
}

#[tokio::test]
async fn resume_whole_history_on_postgres() {
    let Some(backend) = squash_testkit::postgres().await else {
        return;
    };
    resume_whole_history_story(&backend).await;
}
