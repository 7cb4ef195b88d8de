//! Claude Code session logs (`~/.claude/projects/<dir>/<sessionId>.jsonl`): the reader, and the
//! writer of sessions that `claude --resume` accepts.

mod assemble;
mod chain;
mod deferred;
mod head;
mod keys;
mod lines;
mod messages;
mod naming;
mod pairing;
mod read;
mod restore;
mod system;
mod threads;
mod tree;
mod write;

#[cfg(test)]
#[path = "fixtures_tests.rs"]
mod fixtures;
#[cfg(test)]
mod streaming_tests;
#[cfg(test)]
mod tests;

pub use deferred::{Chunks, DeferredMessages, MessagePlan};
pub use read::*;
pub use write::{extras_of, project_dir, write, FALLBACK_VERSION};
