//! squash-app's integration tests: the services against real SQLite and PostgreSQL stores, the real agent CLIs against loopback model servers, the embedded model.
//!
//! One test binary for the whole crate (each module was a binary of its own): the stack is
//! compiled and linked once. Shared support comes from `squash-testkit`.

mod agent_formats;
mod ai_squash;
mod changes;
mod concurrency;
mod crash;
mod export_codex;
mod faithful;
mod faithful_providers;
mod fit;
mod fit_published;
mod import_accounting;
mod import_claude_shapes;
mod import_codex_chatgpt;
mod import_directory;
mod import_export;
mod import_grouped;
mod import_streamed;
mod ledger_sessions;
mod local_squash;
mod originals;
mod packed_columns;
mod pages_stored;
mod properties;
mod real_agents;
mod recall;
mod round_trips;
mod search;
mod search_history;
mod search_rule;
mod search_windows;
mod story;
mod tokens;
