#!/usr/bin/env bash
# The web UI and API on long sessions (BENCHMARKS.md, "The web UI on long sessions"): builds the
# release `squash` (without the embedded model: the bench reads, it does not squash), then runs
# crates/squash-web/examples/web_bench.rs against it: 100-message pages of a 10,000- and a
# 100,000-message thread at 64 concurrent connections beside the floor (a static file through
# the same server), the first page's size, the server's resident memory, and — with
# chromedriver — Chromium's own timeline of the first page.
#
#   scripts/bench-web.sh [--sizes 10000,100000] [--concurrency 64] [--seconds 10] [--no-paint]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p squash-cli --no-default-features
cargo run --release -q -p squash-web --example web_bench -- \
  --bin "${CARGO_TARGET_DIR:-target}/release/squash" "$@"
