//! Test support for Squash's integration tests, one copy of each helper: every storage backend
//! and "on every backend" (a SQLite file, the real PostgreSQL), the real agent CLIs in a sandbox
//! with loopback model servers, a scripted HTTP model server, the `squash` binary in a sandbox,
//! skip notes, and fixture builders.
//!
//! A dev-dependency only (`publish = false`): no production crate depends on it.

pub mod agents;
pub mod answers;
pub mod backend;
pub mod cli;
pub mod fixtures;
pub mod invariants;
pub mod long_session;
pub mod model;
pub mod model_server;
pub mod process;
pub mod schema;
pub mod sessions;
pub mod skip;

pub use backend::{every_backend, pg_url, postgres, postgres_store, sqlite, Backend};
pub use fixtures::mixed_content;
pub use invariants::{dense_positions, violations};
pub use sessions::{assert_api_pairing, claude_api_messages, claude_chain, content_text};
pub use skip::{note_skip, Need};
