//! The `squash` binary as a user and a script see it, from import to resume and serve.
//!
//! One test binary for the whole crate (each module was a binary of its own): the stack is
//! compiled and linked once. Shared support comes from `squash-testkit`.

mod ai_cli;
mod detect;
mod export_codex_cli;
mod import_cli;
mod mcp_cli;
mod readme_scenario;
mod real_handoff;
mod real_resume;
mod resume_cli;
mod search_cli;
mod serve;
mod tokens_cli;
mod two_servers;

/// A sandbox for the `squash` binary cargo built for these tests.
fn sandbox() -> squash_testkit::cli::Sandbox {
    squash_testkit::cli::Sandbox::new(env!("CARGO_BIN_EXE_squash"))
}

/// The `squash` binary cargo built for these tests, in an agent sandbox, with the agent at
/// `agent` first on PATH.
fn squash_with_agent(
    sandbox: &squash_testkit::agents::Sandbox,
    agent: &std::path::Path,
) -> tokio::process::Command {
    sandbox.squash(std::path::Path::new(env!("CARGO_BIN_EXE_squash")), agent)
}
