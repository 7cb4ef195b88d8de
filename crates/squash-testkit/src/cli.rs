//! The `squash` binary in a sandbox: a database of its own and a home without configuration, so
//! nothing of the user's settings, sessions or servers is read and nothing outside is written.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use serde_json::Value;

pub struct Sandbox {
    dir: tempfile::TempDir,
    bin: PathBuf,
    /// Set on every run, after the sandbox's own.
    envs: Vec<(String, OsString)>,
    cwd: Option<PathBuf>,
}

impl Sandbox {
    /// A sandbox for the binary at `bin` (`env!("CARGO_BIN_EXE_squash")` in the CLI's tests).
    pub fn new(bin: impl Into<PathBuf>) -> Sandbox {
        Sandbox {
            dir: tempfile::tempdir().expect("temp dir"),
            bin: bin.into(),
            envs: Vec::new(),
            cwd: None,
        }
    }

    /// Every run gets `name=value` too (an agent's home inside the sandbox, say).
    pub fn with_env(mut self, name: &str, value: impl Into<OsString>) -> Sandbox {
        self.envs.push((name.to_owned(), value.into()));
        self
    }

    /// Every run starts in `dir`.
    pub fn in_dir(mut self, dir: impl Into<PathBuf>) -> Sandbox {
        self.cwd = Some(dir.into());
        self
    }

    /// The sandbox's root: its home.
    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// `squash --db <the sandbox's database> ARGS`, in the sandbox's home.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(&self.bin);
        c.arg("--db")
            .arg(self.path("squash.db"))
            .args(args)
            .env_remove("SQUASH_DB")
            .env_remove("DATABASE_URL")
            .env("HOME", self.dir.path())
            .env("XDG_CONFIG_HOME", self.path("config"))
            .env("XDG_DATA_HOME", self.path("data"))
            .env("SQUASH_LOCAL_SERVERS", "none")
            .envs(self.envs.iter().map(|(k, v)| (k, v)));
        if let Some(dir) = &self.cwd {
            c.current_dir(dir);
        }
        c
    }

    pub fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().expect("run squash")
    }

    /// Runs `args`, which must succeed; its stdout.
    pub fn ok(&self, args: &[&str]) -> String {
        self.feed(args, "")
    }

    /// Runs `args` feeding `stdin`, which must succeed; its stdout.
    pub fn feed(&self, args: &[&str], stdin: &str) -> String {
        let mut child = self
            .command(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run squash");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(stdin.as_bytes())
            .expect("write stdin");
        let out = child.wait_with_output().expect("wait");
        assert!(
            out.status.success(),
            "squash {args:?} failed: {}",
            stderr(&out)
        );
        String::from_utf8(out.stdout).expect("UTF-8 output")
    }

    /// `squash --json import PATH --format FORMAT`.
    pub fn import(&self, path: &Path, format: &str) -> Output {
        let path = path.to_string_lossy();
        self.run(&["--json", "import", &path, "--format", format])
    }

    /// `squash --json ARGS`, which must succeed; its answer.
    pub fn json(&self, args: &[&str]) -> Value {
        let mut all = vec!["--json"];
        all.extend_from_slice(args);
        let out = self.run(&all);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        serde_json::from_slice(&out.stdout).expect("JSON output")
    }

    /// The conversations the database holds, as `conversation list --json` prints them.
    pub fn conversations(&self) -> Vec<Value> {
        let out = self.run(&["--json", "conversation", "list"]);
        assert!(out.status.success(), "{}", stderr(&out));
        serde_json::from_slice(&out.stdout).expect("conversation list JSON")
    }
}

pub use crate::fixtures::session_data;

/// Nothing configured for `cmd`: `home` as its home and its only PATH (no `claude` found), no
/// provider keys or URLs, no configuration file, no installed local model, no local server.
pub fn unconfigured<'a>(cmd: &'a mut Command, home: &Path) -> &'a mut Command {
    cmd.env("PATH", home)
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("SQUASH_LOCAL_SERVERS", "none")
        .env_remove("SQUASH_LOCAL_MODEL")
        .env_remove("SQUASH_CONFIG")
        .env_remove("ANTHROPIC_API_KEY")
        .env_remove("OPENAI_API_KEY")
        .env_remove("OPENAI_BASE_URL")
}

/// A `squash serve` process, killed when dropped (the test passed or not).
pub struct Served {
    child: Child,
    /// The address it printed, `http://…`.
    pub url: String,
}

impl Served {
    /// Spawns `cmd` (a `squash serve`) and reads the URL it prints on its first line.
    pub fn start(cmd: &mut Command) -> Served {
        let mut child = cmd
            .stdout(Stdio::piped())
            .spawn()
            .expect("start squash serve");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("read the address");
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL in {line:?}"))
            .to_owned();
        Served { child, url }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The run failed (not a panic) with exactly one line on stderr, which is returned.
pub fn one_line_failure(out: &Output) -> String {
    let text = stderr(out);
    assert!(!out.status.success(), "exit 0; stderr: {text}");
    assert_ne!(out.status.code(), Some(101), "a panic: {text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1, "one line expected:\n{text}");
    lines[0].to_owned()
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}
