#!/usr/bin/env bash
# Quick start: build squash and run the README's scenario on the embedded default (a SQLite
# file). Safe to run again: the scenario starts from a fresh database each time.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cargo >/dev/null 2>&1; then
  echo "quickstart: cargo is not installed; install Rust from your package manager or rustup" >&2
  exit 1
fi

echo "==> building squash (release)"
cargo build --release -q -p squash-cli
export PATH="$PWD/target/release:$PATH"

echo "==> running the README scenario"
# The scenario block of README.md, run exactly as written.
scenario=$(sed -n '/<!-- scenario:start -->/,/<!-- scenario:end -->/p' README.md | sed '/^<!--/d; /^```/d')
bash -euo pipefail -c "$scenario"
