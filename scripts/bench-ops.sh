#!/usr/bin/env bash
# A person's squash, edit, delete and undo end to end, through the CLI and the API, on a thread
# of 100 messages beside one of 100,000 (BENCHMARKS.md, "Operations end to end"): builds the
# release `squash` (without the embedded model), then runs crates/squash-cli/examples/ops_bench.rs
# against it.
#
#   scripts/bench-ops.sh [--sizes 100,100000] [--runs 10] [--dir DIR (keeps the databases)]
#       [--pg postgres://postgres@127.0.0.1:5432/test (a database per size on that server)]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p squash-cli --no-default-features
cargo run --release -q -p squash-cli --no-default-features --example ops_bench -- \
  --bin "${CARGO_TARGET_DIR:-target}/release/squash" "$@"
