//! `squash export --format codex` through the built binary: `--install` writes a new rollout where
//! Codex looks for it (under `$CODEX_HOME/sessions/YYYY/MM/DD/`, named by its time and id) and
//! leaves the original untouched; the rollout imports back to the same messages; bad input is a
//! one-line error that writes nothing.

use std::path::{Path, PathBuf};

use serde_json::Value;
use squash_testkit::cli::{one_line_failure, session_data, stderr, Sandbox};

const ORIGINAL: &str = "rollout-2025-11-02T09-15-00-0199a0b0-0000-7000-8000-00000000c0de.jsonl";

/// A database of its own, a home without configuration and a Codex home holding one rollout.
struct Env(Sandbox);

impl std::ops::Deref for Env {
    type Target = Sandbox;
    fn deref(&self) -> &Sandbox {
        &self.0
    }
}

impl Env {
    fn new() -> Env {
        let sandbox = crate::sandbox();
        let home = sandbox.path("codex-home");
        let env = Env(sandbox.with_env("CODEX_HOME", home));
        let day = env.codex_home().join("sessions/2025/11/02");
        std::fs::create_dir_all(&day).unwrap();
        std::fs::copy(session_data("codex-exit-code.jsonl"), day.join(ORIGINAL)).unwrap();
        env
    }

    fn codex_home(&self) -> PathBuf {
        self.path("codex-home")
    }

    fn original(&self) -> PathBuf {
        self.codex_home().join("sessions/2025/11/02").join(ORIGINAL)
    }

    /// Imports the rollout at `path`; the id of the conversation it made.
    fn import_rollout(&self, path: &Path) -> String {
        let summary = self.json(&["import", &path.to_string_lossy(), "--format", "codex"]);
        summary["summary"]["conversations"][0]["conversation_id"]
            .as_str()
            .unwrap_or_else(|| panic!("a conversation id: {summary}"))
            .to_owned()
    }

    /// Every rollout under the Codex home.
    fn rollouts(&self) -> Vec<PathBuf> {
        let mut out = Vec::new();
        let mut todo = vec![self.codex_home()];
        while let Some(d) = todo.pop() {
            for entry in std::fs::read_dir(&d).unwrap().flatten() {
                let p = entry.path();
                if p.is_dir() {
                    todo.push(p);
                } else {
                    out.push(p);
                }
            }
        }
        out.sort();
        out
    }
}

/// Role and text of each message of the conversation's current thread.
fn outline(env: &Env, id: &str) -> Vec<(String, String)> {
    let shown = env.json(&["conversation", "show", id]);
    let messages = shown["messages"]
        .as_array()
        .unwrap_or_else(|| panic!("messages: {shown}"));
    messages
        .iter()
        .map(|m| (m["role"].to_string(), m["content"].to_string()))
        .collect()
}

#[test]
fn install_writes_a_new_rollout_codex_finds_by_its_id() {
    let env = Env::new();
    let original = std::fs::read(env.original()).unwrap();
    let conv = env.import_rollout(&env.original());

    let done = env.json(&[
        "export",
        &conv,
        "--format",
        "codex",
        "--install",
        "--cwd",
        "/work/demo",
    ]);
    let session = done["report"]["session_id"].as_str().expect("a session id");
    let path = PathBuf::from(done["path"].as_str().expect("a path"));
    // sessions/YYYY/MM/DD/rollout-YYYY-MM-DDThh-mm-ss-<id>.jsonl
    let relative = path
        .strip_prefix(env.codex_home().join("sessions"))
        .unwrap();
    let parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    assert_eq!(parts.len(), 4, "{relative:?}");
    let name = &parts[3];
    assert_eq!(
        &name[..19],
        format!("rollout-{}-{}-{}T", parts[0], parts[1], parts[2])
    );
    assert!(name.ends_with(&format!("-{session}.jsonl")), "{name}");
    assert_eq!(env.rollouts(), {
        let mut both = vec![env.original(), path.clone()];
        both.sort();
        both
    });
    assert_eq!(
        std::fs::read(env.original()).unwrap(),
        original,
        "the original is untouched"
    );

    let text = std::fs::read_to_string(&path).unwrap();
    let meta: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(meta["type"], "session_meta");
    assert_eq!(meta["payload"]["id"], session);
    assert_eq!(meta["payload"]["cwd"], "/work/demo");

    // Imported back: a conversation of its own with the same messages.
    let again = env.import_rollout(&path);
    assert_ne!(again, conv);
    assert_eq!(outline(&env, &again), outline(&env, &conv));

    // Text mode says how to resume it.
    let out = env.run(&["export", &conv, "--format", "codex", "--install"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("&& codex resume "), "{said}");
}

#[test]
fn an_output_directory_gets_the_rollout_name() {
    let env = Env::new();
    let conv = env.import_rollout(&env.original());
    let dir = env.path("out");
    std::fs::create_dir(&dir).unwrap();
    let done = env.json(&[
        "export",
        &conv,
        "--format",
        "codex",
        "-o",
        &dir.to_string_lossy(),
    ]);
    let session = done["report"]["session_id"].as_str().unwrap();
    let path = PathBuf::from(done["path"].as_str().unwrap());
    assert_eq!(path.parent(), Some(dir.as_path()));
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        name.starts_with("rollout-") && name.ends_with(&format!("-{session}.jsonl")),
        "{name}"
    );
}

#[test]
fn bad_input_is_one_line_and_writes_nothing() {
    let env = Env::new();
    let conv = env.import_rollout(&env.original());
    let before = env.rollouts();
    let cases: [(Vec<&str>, &str); 3] = [
        (
            vec![
                "export",
                "no-such-conversation",
                "--format",
                "codex",
                "--install",
            ],
            "no-such-conversation",
        ),
        (
            vec!["export", &conv, "--format", "markdown", "--install"],
            "--install only applies to --format claude-code, codex or gemini",
        ),
        (
            vec!["export", &conv, "--format", "codex", "--thread", "ffffffff"],
            "ffffffff",
        ),
    ];
    for (args, expected) in cases {
        let line = one_line_failure(&env.run(&args));
        assert!(line.contains(expected), "{args:?}: {line}");
        assert_eq!(env.rollouts(), before, "{args:?}: nothing written");
    }
}
