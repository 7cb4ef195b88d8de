//! The README's scenario, run exactly as written with the built `squash` on PATH.

use std::process::Command;

#[test]
fn readme_scenario_runs_as_written() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
        .expect("README.md");
    let start = readme
        .find("<!-- scenario:start -->")
        .expect("scenario start marker");
    let end = readme
        .find("<!-- scenario:end -->")
        .expect("scenario end marker");
    let script: String = readme[start..end]
        .lines()
        .filter(|l| !l.starts_with("<!--") && !l.starts_with("```"))
        .collect::<Vec<_>>()
        .join("\n");
    let dir = tempfile::tempdir().expect("temp dir");
    // The scenario uses a fixed path under /tmp; point it at our own to run in parallel safely.
    let script = script.replace(
        "/tmp/squash-quickstart.db",
        &dir.path().join("q.db").to_string_lossy(),
    );
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_squash"));
    let path = format!(
        "{}:{}",
        bin.parent().expect("bin dir").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("bash")
        .args(["-euo", "pipefail", "-c", &script])
        .env("PATH", path)
        .env_remove("SQUASH_DB")
        .env_remove("DATABASE_URL")
        .output()
        .expect("run bash");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "scenario failed\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    for needle in [
        "created conversation",
        "also included", // the tool result joined the squash
        "squashed 3 message(s)",
        "← manual squash", // provenance
        "now on thread",
    ] {
        assert!(stdout.contains(needle), "missing {needle:?} in:\n{stdout}");
    }
}
