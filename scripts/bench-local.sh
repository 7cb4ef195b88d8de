#!/usr/bin/env bash
# The local provider's prompt and generation speed against llama.cpp's own `llama-bench` on the
# same model, threads and sizes, run alternately so both see the same machine load.
#
#   LLAMA_BENCH=/path/to/llama-bench scripts/bench-local.sh MODEL.gguf [THREADS] [ROUNDS]
#
# llama-bench is not part of this project: build it from the llama.cpp sources that the
# `llama-cpp-sys-2` crate bundles (same version as ours), with its `tools/llama-bench` sources
# added, `-DGGML_NATIVE=OFF` like the crate's build (see BENCHMARKS.md).
set -euo pipefail
cd "$(dirname "$0")/.."

MODEL=${1:?usage: scripts/bench-local.sh MODEL.gguf [THREADS] [ROUNDS]}
THREADS=${2:-2}
ROUNDS=${3:-2}
: "${LLAMA_BENCH:?set LLAMA_BENCH to a llama-bench binary}"

# --all-targets --all-features: the same feature set as the test build, so llama.cpp is not
# compiled a second time.
cargo build -q --workspace --all-targets --all-features
OURS="${CARGO_TARGET_DIR:-target}/debug/examples/throughput"

for round in $(seq 1 "$ROUNDS"); do
  echo "== round $round: squash (llama-cpp-2)"
  "$OURS" --model "$MODEL" --threads "$THREADS" --prompt-tokens 512 --gen-tokens 128 --reps 3
  echo "== round $round: llama-bench"
  # Prompt of 512 tokens; then 128 generated after a 512-token context, as ours does.
  "$LLAMA_BENCH" -m "$MODEL" -t "$THREADS" -p 512 -n 0 -r 3 -o md
  "$LLAMA_BENCH" -m "$MODEL" -t "$THREADS" -p 0 -n 128 -d 512 -r 3 -o md
done
