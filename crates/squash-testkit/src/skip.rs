//! Tests that need what a machine may lack (PostgreSQL, the real agent CLIs, the test model,
//! Chromium) pass with a note when it is missing, unless the run requires it; the quick tier
//! (`scripts/test.sh quick`, `SQUASH_TIER=quick`) leaves all of them to the full command.

use std::io::Write;

/// What a test needs beyond the workspace itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    Postgres,
    Agents,
    Model,
    Browser,
}

impl Need {
    /// The switch that makes a missing one a failure (`CI` does too).
    pub fn switch(self) -> &'static str {
        match self {
            Need::Postgres => "SQUASH_REQUIRE_POSTGRES",
            Need::Agents => "SQUASH_REQUIRE_AGENTS",
            Need::Model => "SQUASH_REQUIRE_MODEL",
            Need::Browser => "SQUASH_REQUIRE_BROWSER",
        }
    }

    fn what(self) -> &'static str {
        match self {
            Need::Postgres => "PostgreSQL",
            Need::Agents => "the real agent CLIs",
            Need::Model => "the test model",
            Need::Browser => "Chromium",
        }
    }

    /// Whether this run must have it: its switch is set (not to `0`), or `CI` is.
    pub fn required(self) -> bool {
        let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0");
        !quick() && (set(self.switch()) || set("CI"))
    }

    /// In the quick tier: notes the skip and says so (`true`); the test should return.
    pub fn left_to_full_tier(self) -> bool {
        if quick() {
            note_skip(&format!(
                "needs {} (the quick tier leaves it to `bash scripts/test.sh`)",
                self.what()
            ));
        }
        quick()
    }

    /// It is missing (`why`): a failure when the run requires it, else a noted skip.
    pub fn missing(self, why: &str) {
        assert!(
            !self.required(),
            "{why}: this run requires {} ({} or CI is set)",
            self.what(),
            self.switch()
        );
        note_skip(why);
    }
}

/// Whether this is the quick tier (`SQUASH_TIER=quick`).
pub fn quick() -> bool {
    std::env::var("SQUASH_TIER").as_deref() == Ok("quick")
}

/// Says that the running test did not run, on stderr and, under `scripts/test.sh`, in the list
/// its summary prints (`SQUASH_SKIP_LOG`): libtest hides a passing test's stderr, and a skip
/// must not read as a pass.
pub fn note_skip(message: &str) {
    eprintln!("note: skipping: {message}");
    let Some(log) = std::env::var_os("SQUASH_SKIP_LOG") else {
        return;
    };
    let package = std::env::var("CARGO_PKG_NAME").unwrap_or_else(|_| "squash".into());
    let test = std::thread::current().name().unwrap_or("a test").to_owned();
    let line = format!("{package} {test}: {message}\n");
    let written = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log)
        .and_then(|mut f| f.write_all(line.as_bytes()));
    if let Err(e) = written {
        eprintln!(
            "note: cannot record the skip in {}: {e}",
            log.to_string_lossy()
        );
    }
}
