//! `squash fit` and `squash resume` through the built binary, on a real public Claude Code
//! session placed where Claude Code keeps it: a dry run fits it and writes a new session beside
//! the original; bad input (no session, an unknown id, a budget below the protected part, a
//! corrupt file, an agent that is not installed) fails with one line, writes nothing, and leaves
//! the original untouched (checked by hash). The real agents resume in `real_resume.rs`.

use std::path::{Path, PathBuf};

use serde_json::Value;
use squash_testkit::cli::{session_data, stderr, Sandbox};

const SESSION: &str = "claude-code-linear-1af7fc5e.jsonl";
const SESSION_ID: &str = "1af7fc5e-8455-4414-9ccd-011d40f70b2a";

struct Env {
    sandbox: Sandbox,
    /// The directory the session ran in (the test's current directory).
    cwd: PathBuf,
}

impl std::ops::Deref for Env {
    type Target = Sandbox;
    fn deref(&self) -> &Sandbox {
        &self.sandbox
    }
}

impl Env {
    /// A Claude config dir holding the public session under the project of `cwd`.
    fn new() -> Env {
        let sandbox = crate::sandbox();
        let cwd = sandbox.path("work");
        std::fs::create_dir_all(&cwd).unwrap();
        let (claude, codex) = (sandbox.path("claude"), sandbox.path("codex"));
        let sandbox = sandbox
            .in_dir(&cwd)
            .with_env("CLAUDE_CONFIG_DIR", claude)
            .with_env("CODEX_HOME", codex);
        let env = Env { sandbox, cwd };
        std::fs::create_dir_all(env.project()).unwrap();
        env
    }

    fn project(&self) -> PathBuf {
        let encoded: String = self
            .cwd
            .to_string_lossy()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        self.path("claude").join("projects").join(encoded)
    }

    fn place_session(&self) -> PathBuf {
        let target = self.project().join(format!("{SESSION_ID}.jsonl"));
        std::fs::copy(session_data(SESSION), &target).unwrap();
        target
    }

    fn sessions(&self) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(self.project())
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        files
    }
}

fn sha256(path: &Path) -> String {
    squash_formats::sha256_hex(&std::fs::read(path).unwrap())
}

/// Each session file the agent homes hold, with the SHA-256 of its bytes.
fn session_hashes(env: &Env) -> Vec<(PathBuf, String)> {
    env.sessions()
        .into_iter()
        .map(|p| {
            let h = sha256(&p);
            (p, h)
        })
        .collect()
}

/// Fails with one line, writes nothing, leaves the session file alone.
fn refused(env: &Env, args: &[&str], says: &str) {
    let before = session_hashes(env);
    let out = env.run(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
    assert!(err.contains(says), "{args:?}: expected {says:?} in {err}");
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let after = session_hashes(env);
    assert_eq!(before, after, "session files untouched");
    assert!(env.conversations().is_empty(), "nothing imported");
}

#[test]
fn bad_input_fails_with_one_line_and_writes_nothing() {
    let env = Env::new();
    refused(
        &env,
        &["resume", "--agent", "claude", "--dry-run"],
        "no claude session for",
    );
    env.place_session();
    refused(
        &env,
        &["resume", "0000-no-such-session", "--dry-run"],
        "no session 0000-no-such-session in",
    );
    refused(
        &env,
        &["resume", "--dry-run", "--budget", "40"],
        "cannot fit into 40 tokens: the smallest the extract strategy reaches is",
    );
    let corrupt = env.project().join("broken.jsonl");
    std::fs::write(
        &corrupt,
        "{\"type\":\"user\",\"message\":{\"role\":\"user\",\n",
    )
    .unwrap();
    refused(
        &env,
        &["resume", &corrupt.to_string_lossy(), "--dry-run"],
        "broken.jsonl",
    );
    std::fs::remove_file(&corrupt).unwrap();
    // No `claude` anywhere on PATH.
    let empty = env.path("empty-bin");
    std::fs::create_dir_all(&empty).unwrap();
    let mut cmd = env.command(&["resume", "--strategy", "mask", "--budget", "1k"]);
    cmd.env("PATH", &empty);
    let out = cmd.output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("`claude` is not installed"), "{err}");
    assert_eq!(env.sessions().len(), 1);
    assert!(env.conversations().is_empty());
}

#[test]
fn a_dry_run_fits_and_writes_a_new_session_beside_the_original() {
    let env = Env::new();
    let original = env.place_session();
    let hash = sha256(&original);
    let out = env.run(&[
        "--json",
        "resume",
        "--dry-run",
        "--budget",
        "1k",
        "--",
        "--model",
        "sonnet",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(sha256(&original), hash, "the original is untouched");
    let written = PathBuf::from(report["written"]["path"].as_str().expect("a new session"));
    assert_eq!(written.parent(), original.parent(), "beside the original");
    let id = report["written"]["session_id"].as_str().unwrap();
    assert_eq!(
        written.file_name().unwrap().to_string_lossy(),
        format!("{id}.jsonl")
    );
    let command: Vec<&str> = report["command"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    // The recall server's registration first, then the resume and the person's arguments.
    assert_eq!(command[1], "--mcp-config", "{command:?}");
    let at = command
        .iter()
        .position(|w| *w == "--resume")
        .expect("--resume");
    assert_eq!(command[at..], ["--resume", id, "--model", "sonnet"]);
    let fit = &report["fit"];
    assert!(
        fit["tokens_after"].as_u64() < fit["tokens_before"].as_u64(),
        "{fit}"
    );
    assert!(fit["steps"].as_array().is_some_and(|s| !s.is_empty()));
    // What it kept and what it cut, per level.
    let plan = &report["plan"];
    assert!(plan["protection"]["requests"].as_u64() >= Some(1), "{plan}");
    assert!(
        plan["levels"].as_array().is_some_and(|l| !l.is_empty()),
        "{plan}"
    );

    // The new session is a Claude Code session of the same conversation, smaller; importing it
    // again gives a conversation whose thread is that size.
    let again = env.run(&["--json", "import", &written.to_string_lossy()]);
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(env.sessions().len(), 2);

    // `fit --preview` on the imported original says what it would do and changes nothing.
    let conv = report["conversation_id"].as_str().unwrap();
    let preview = env.run(&[
        "fit",
        conv,
        "--budget",
        "1",
        "--preview",
        "--strategy",
        "mask",
    ]);
    let text = String::from_utf8_lossy(&preview.stdout);
    assert!(preview.status.success(), "{}", stderr(&preview));
    assert!(text.contains("not applied (preview)"), "{text}");
    assert!(text.contains("does not fit"), "{text}");
}

/// The history of a real Claude Code 2.1.39 session before its `/compact` (121k tokens: one
/// request, 123 tool calls), placed as the latest session of the directory: `squash resume`
/// with no option fits it into half the model's window and says what it kept and cut.
#[test]
fn resume_with_the_defaults_fits_a_long_agent_run() {
    let place = |env: &Env| {
        let data = Path::new(env!("CARGO_MANIFEST_DIR")).join(
            "../../testdata/sessions/claude-code-compacted-258c7280/258c7280-ae70-4798-800f-63464d01a85d.jsonl",
        );
        let text = std::fs::read_to_string(data).unwrap();
        let history: Vec<&str> = text
            .lines()
            .take_while(|l| !l.contains("\"compact_boundary\""))
            .collect();
        let id = "258c7280-ae70-4798-800f-63464d01a85d";
        std::fs::write(
            env.project().join(format!("{id}.jsonl")),
            history.join("\n") + "\n",
        )
        .unwrap();
    };
    let env = Env::new();
    place(&env);
    let json = env.run(&["--json", "resume", "--dry-run"]);
    assert!(json.status.success(), "{}", stderr(&json));
    let report: Value = serde_json::from_slice(&json.stdout).expect("JSON");
    let fit = &report["fit"];
    let budget = fit["budget"].as_u64().unwrap();
    let after = fit["tokens_after"].as_u64().unwrap();
    assert!(fit["tokens_before"].as_u64().unwrap() > budget, "{fit}");
    assert!(
        after <= budget && after * 10 >= budget * 9,
        "{after} of {budget}"
    );
    assert!(report["written"]["path"].is_string(), "{report}");

    let env = Env::new();
    place(&env);
    let out = env.run(&["resume", "--dry-run"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}{stdout}", stderr(&out));
    for says in [
        "kept as they are:",
        "trimmed to the lines that carry facts",
        "fitted: ",
        "new claude session ",
        "dry run; the agent would start with:",
    ] {
        assert!(stdout.contains(says), "{says:?} in {stdout}");
    }
}

/// A published Claude Code 2.1 session whose compaction points past the file, placed whole as
/// the latest session of the directory: `resume` fits the thread the agent continues from, and
/// `resume --whole-history` the whole history, compactions undone — each saying which.
#[test]
fn resume_whole_history_fits_the_session_with_its_compaction_undone() {
    let id = "8209f1c2-ccba-4dd6-8b9e-8d6d142183e2";
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!(
        "../../testdata/sessions/claude-code-compacted-8209f1c2/{id}.jsonl"
    ));
    let fitted = |whole: bool| -> Value {
        let env = Env::new();
        std::fs::copy(&data, env.project().join(format!("{id}.jsonl"))).unwrap();
        let mut args = vec!["--json", "resume", "--dry-run", "--budget", "15k"];
        if whole {
            args.push("--whole-history");
        }
        let out = env.run(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        report["fit"].clone()
    };
    let current = fitted(false);
    assert_eq!(
        current["fitted"]["origin"]["branch"], "compaction",
        "{current}"
    );
    let whole = fitted(true);
    assert_eq!(
        whole["fitted"]["origin"]["branch"], "whole_history",
        "{whole}"
    );
    // The whole history is more than the agent's summary and what followed it, and is fitted
    // to the same budget.
    let before = |fit: &Value| fit["tokens_before"].as_u64().unwrap();
    assert!(before(&whole) > 2 * before(&current), "{whole} {current}");
    assert!(whole["tokens_after"].as_u64().unwrap() <= 15_000, "{whole}");
}
