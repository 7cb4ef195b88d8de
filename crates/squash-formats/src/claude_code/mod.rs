//! Claude Code session logs (`~/.claude/projects/<dir>/<sessionId>.jsonl`): the reader, and the
//! writer of sessions that `claude --resume` accepts.

mod pairing;
mod read;
mod write;

pub use read::*;
pub use write::{extras_of, project_dir, write, Session, Written, FALLBACK_VERSION};
