#!/usr/bin/env bash
# The fuzz campaign: every reader's target, one after the other, one process each, from the
# committed seeds (seeds/<target>/) with the target's dictionary. Prints one line per target
# (runs, corpus size, crashes) and exits non-zero if any target crashed.
#
#   fuzz/run-all.sh [SECONDS_PER_TARGET]     (default 600)
#   TARGETS="codex chatgpt" fuzz/run-all.sh 60
set -uo pipefail
cd "$(dirname "$0")"
export RUSTC_BOOTSTRAP=1
SECONDS_EACH="${1:-600}"
TARGETS=(${TARGETS:-claude_code codex chatgpt openai_json anthropic_json gromozeka_json gemini opencode claude_ai})
mkdir -p logs
cargo fuzz build -a >/dev/null 2>&1 || { echo "cargo fuzz build failed"; exit 2; }
status=0
for t in "${TARGETS[@]}"; do
  mkdir -p "corpus/$t"
  cp -n seeds/"$t"/* "corpus/$t/"
  cargo fuzz run -a "$t" "corpus/$t" -- -dict="dicts/$t.dict" -max_len=16384 \
    -max_total_time="$SECONDS_EACH" >"logs/$t.log" 2>&1
  rc=$?
  runs=$(grep -Eo '^#[0-9]+' "logs/$t.log" | tail -1)
  crashes=$(ls "artifacts/$t" 2>/dev/null | grep -c '^crash-' || true)
  echo "$t: ${SECONDS_EACH}s, exit $rc, runs ${runs:-?}, corpus $(ls "corpus/$t" | wc -l), crashes $crashes"
  [ "$rc" -eq 0 ] && [ "$crashes" -eq 0 ] || status=1
done
exit "$status"
