//! Test support for running the real agent CLIs (Claude Code, Codex, Gemini CLI, opencode)
//! against loopback model servers whose answers are scripted turn by turn, tool calls included,
//! so the agents really run tools and write their own current-format session files.
//!
//! The binaries come from `SQUASH_CLAUDE_BIN` / `SQUASH_CODEX_BIN` / `SQUASH_GEMINI_BIN` /
//! `SQUASH_OPENCODE_BIN`, else `PATH`. Without one a
//! test notes the skip and passes, unless `SQUASH_REQUIRE_AGENTS` or `CI` is set: then it fails.
//! The quick tier leaves them out.

pub mod anthropic;
pub mod chat;
pub mod cli;
pub mod gemini;
pub mod openai;
pub mod pairing;
pub mod recorder;

pub use cli::{Agent, AgentKind, Sandbox};
