//! Every record of every file is accounted for, on every backend: each file under
//! testdata/sessions (whatever is added there later) and a few documents made here is imported,
//! and its report's `lines` adds up to `messages + metadata + skipped`, against counts made here
//! from the raw files. Files that are bad on purpose are listed with the error they must give.

use squash_testkit::fixtures::import_options;
use squash_testkit::on_every_backend;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{json, Value};
use squash_app::import::{FileReport, ImportSummary, SourceFormat};
use squash_app::{ExportFormat, ExportOptions, ImportOptions, NoProgress};
use squash_testkit::Backend;

/// Files that must fail, by file name, with a piece of their error.
const BAD: &[(&str, &str)] = &[
    ("not-a-session.jsonl", "cannot tell the format"),
    ("config.json", "cannot tell the format"),
];

fn sessions() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/sessions")
}

fn options() -> ImportOptions {
    import_options("/tmp/accounting-tests")
}

/// Every file under `dir`, recursively.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else if path.extension().is_some_and(|e| e == "sql") {
            // A store's dump, rebuilt into a database by the tests that use it.
            continue;
        } else {
            out.push(path);
        }
    }
    out.sort();
    out
}

fn non_empty_lines(path: &Path) -> usize {
    std::fs::read(path)
        .unwrap()
        .split(|&b| b == b'\n')
        .filter(|line| !line.iter().all(u8::is_ascii_whitespace))
        .count()
}

/// The records of a document, counted from its JSON: the entries of its message list (and the
/// system prompt of an Anthropic one); the message rows of a Gromozeka database.
fn document_records(path: &Path, format: SourceFormat) -> Option<usize> {
    if format == SourceFormat::Opencode && path.extension().is_some_and(|e| e == "db") {
        // The session, each message and each part.
        let db = rusqlite::Connection::open(path).unwrap();
        let count = |table: &str| -> i64 {
            db.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
                .unwrap()
        };
        return usize::try_from(count("session") + count("message") + count("part")).ok();
    }
    if format == SourceFormat::Gromozeka {
        let db = rusqlite::Connection::open(path).unwrap();
        let rows: i64 = db
            .query_row("SELECT count(*) FROM messages", [], |r| r.get(0))
            .unwrap();
        return usize::try_from(rows).ok();
    }
    let doc: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).ok()?;
    let list = |key: &str| doc.get(key).and_then(Value::as_array).map(Vec::len);
    match format {
        SourceFormat::OpenAi => doc
            .as_array()
            .map(Vec::len)
            .or_else(|| list("messages"))
            .or_else(|| list("history")),
        SourceFormat::Anthropic => {
            Some(list("messages")? + usize::from(doc.get("system").is_some()))
        }
        SourceFormat::Squash => list("messages"),
        SourceFormat::ClaudeAi => doc.as_array().map(|convs| {
            convs
                .iter()
                .map(|c| c["chat_messages"].as_array().map_or(1, Vec::len))
                .sum()
        }),
        // The session, each message and each part.
        SourceFormat::Opencode => Some(
            1 + doc["messages"]
                .as_array()?
                .iter()
                .map(|m| 1 + m["parts"].as_array().map_or(0, Vec::len))
                .sum::<usize>(),
        ),
        _ => None,
    }
}

/// Checks the summary of importing the directory `dir` against the raw files.
fn check(dir: &Path, summary: &ImportSummary) {
    let reports: BTreeMap<&str, &FileReport> = summary
        .file_reports
        .iter()
        .map(|r| (r.file.as_str(), r))
        .collect();
    assert_eq!(
        reports.len(),
        summary.file_reports.len(),
        "one report per file"
    );
    for path in files_under(dir) {
        let name = path.display().to_string();
        let file_name = path.file_name().unwrap().to_string_lossy().into_owned();
        if let Some((_, error)) = BAD.iter().find(|(bad, _)| *bad == file_name) {
            let failure = summary
                .failed
                .iter()
                .find(|f| f.file == name)
                .unwrap_or_else(|| panic!("{name} must fail: {:?}", summary.failed));
            assert!(failure.error.contains(error), "{name}: {}", failure.error);
            assert!(
                !reports.contains_key(name.as_str()),
                "{name} failed yet has a report"
            );
            continue;
        }
        let report = reports
            .get(name.as_str())
            .unwrap_or_else(|| panic!("{name}: no report; failed: {:?}", summary.failed));
        let r = report.records;
        assert!(r.balanced(), "{name}: {r:?}");
        assert!(r.lines > 0, "{name}: no records");
        let skipped = summary.skipped.iter().filter(|s| s.file == name).count();
        assert_eq!(r.skipped, skipped, "{name}: skipped entries");
        match report.format {
            SourceFormat::ClaudeCode | SourceFormat::Codex | SourceFormat::Gemini => {
                assert_eq!(r.lines, non_empty_lines(&path), "{name}: lines");
            }
            format => {
                if let Some(n) = document_records(&path, format) {
                    assert_eq!(r.lines, n, "{name}: records of the document");
                }
            }
        }
        eprintln!("{name}: {r:?}");
    }
    assert_eq!(
        summary.failed.len(),
        files_under(dir)
            .iter()
            .filter(|p| BAD.iter().any(|(bad, _)| p.ends_with(bad)))
            .count(),
        "only the bad files fail: {:?}",
        summary.failed
    );
}

/// Documents made here: the chat formats with an entry of no known role, and garbage.
fn made_documents(dir: &Path) {
    let write = |name: &str, doc: Value| {
        std::fs::write(dir.join(name), serde_json::to_vec_pretty(&doc).unwrap()).unwrap()
    };
    write(
        "anthropic-chat.json",
        json!({"model": "claude", "system": "be brief", "messages": [
            {"role": "user", "content": "list the files"},
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": "t1", "name": "ls", "input": {}}]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "t1", "content": "a b"}]},
            {"role": "robot", "content": "beep"},
            {"role": "assistant", "content": "a and b"}
        ]}),
    );
    write(
        "openai-chat.json",
        json!({"messages": [
            {"role": "system", "content": "you help"},
            {"role": "user", "content": "hi"},
            {"role": "narrator", "content": "meanwhile"},
            {"role": "assistant", "content": "hello", "tool_calls": [{"id": "c1",
                "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": "done"}
        ]}),
    );
    write("config.json", json!({"name": "not a chat", "version": 3}));
    gromozeka(&dir.join("gromozeka.db"));
    // The store opencode 1.18 wrote, from its dump.
    let store = rusqlite::Connection::open(dir.join("opencode.db")).unwrap();
    store
        .execute_batch(
            &std::fs::read_to_string(sessions().join("opencode-1.18-store.sql")).unwrap(),
        )
        .unwrap();
    std::fs::write(dir.join("not-a-session.jsonl"), "hello\nworld\n").unwrap();
}

/// A Gromozeka database of two conversations; one message document does not parse (it is kept
/// as unknown content, still a record of its own).
fn gromozeka(path: &Path) {
    let db = rusqlite::Connection::open(path).unwrap();
    db.execute_batch(
        "CREATE TABLE conversations (id TEXT, display_name TEXT, current_thread_id TEXT);
         CREATE TABLE messages (id TEXT, conversation_id TEXT, message_json TEXT);
         CREATE TABLE threads (id TEXT, conversation_id TEXT, original_thread_id TEXT);
         CREATE TABLE thread_messages (thread_id TEXT, message_id TEXT);
         INSERT INTO conversations VALUES ('c1', 'first', 't1'), ('c2', 'second', 't2');
         INSERT INTO threads VALUES ('t1', 'c1', NULL), ('t2', 'c2', NULL);",
    )
    .unwrap();
    let user = json!({"role": "USER", "content": [{"type": "Message", "text": "hello"}]});
    let rows = [
        ("m1", "c1", user.to_string()),
        ("m2", "c1", "{broken".to_owned()),
        ("m3", "c2", user.to_string()),
    ];
    for (id, conversation, doc) in rows {
        db.execute(
            "INSERT INTO messages VALUES (?1, ?2, ?3)",
            rusqlite::params![id, conversation, doc],
        )
        .unwrap();
        let thread = if conversation == "c1" { "t1" } else { "t2" };
        db.execute(
            "INSERT INTO thread_messages VALUES (?1, ?2)",
            rusqlite::params![thread, id],
        )
        .unwrap();
    }
}

async fn import_dir(b: &Backend, dir: &Path) -> ImportSummary {
    b.service
        .import_path(dir, &options(), Arc::new(NoProgress))
        .await
        .unwrap_or_else(|e| panic!("import of {} failed: {e}", dir.display()))
}

async fn every_file_is_accounted_for(b: &Backend) {
    let summary = import_dir(b, &sessions()).await;
    check(&sessions(), &summary);

    let made = tempfile::tempdir().unwrap();
    made_documents(made.path());
    // A Squash export of what was just imported, as a file of its own.
    let conversation = summary.conversations[0].conversation_id;
    let mut export = Vec::new();
    b.service
        .export(
            conversation,
            &ExportOptions::new(ExportFormat::Json),
            &mut export,
        )
        .await
        .unwrap();
    std::fs::write(made.path().join("export.json"), export).unwrap();
    let summary = import_dir(b, made.path()).await;
    check(made.path(), &summary);
    let skipped: Vec<&str> = summary.skipped.iter().map(|s| s.reason.as_str()).collect();
    assert_eq!(
        skipped,
        [
            "message 4: no user/assistant role",
            "message 3: unknown role \"narrator\""
        ]
    );
}

#[tokio::test]
async fn every_record_of_every_file_is_accounted_for() {
    on_every_backend!(every_file_is_accounted_for);
}
