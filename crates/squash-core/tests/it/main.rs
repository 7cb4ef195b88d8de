//! squash-core's integration tests: the squash prompts as snapshots (in `snapshots/`).
//!
//! One test binary per crate: see `squash-testkit`.

mod prompt_snapshots;
