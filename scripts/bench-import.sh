#!/usr/bin/env bash
# Import throughput: generates a large Claude Code session (default 64 MB) and imports it with
# the release build, first into an empty SQLite database, then again (already imported: read,
# parse and hash only), and — when SQUASH_BENCH_PG names a PostgreSQL database — into that.
# Prints MB/s on wall time and on CPU time (user+sys: the machine is shared, so wall time
# depends on the load) and the peak RSS that /usr/bin/time -v reports. Several sizes show
# whether the peak RSS grows with the file. Floors measured in the same run: `sha256sum` of the
# file (reading and hashing, no parsing), and the second import (already imported: the same
# binary reads, parses and hashes the file — the first pass alone — and writes nothing).
# The PostgreSQL database is emptied (schema public dropped) before each of its imports.
#
#   scripts/bench-import.sh [MEGABYTES...]        (default: 64)
#   scripts/bench-import.sh 64 128
#   SQUASH_BENCH_PG=postgres://postgres@127.0.0.1:5432/squash_bench scripts/bench-import.sh
#   SQUASH_BENCH_BIN=/tmp/squash-before scripts/bench-import.sh 50   (that binary, no build:
#   to compare two commits in one sitting, run the script once with each binary)
set -euo pipefail
cd "$(dirname "$0")/.."

SIZES=("${@:-64}")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

if [ -n "${SQUASH_BENCH_BIN:-}" ]; then
  BIN=$SQUASH_BENCH_BIN
else
  cargo build --release -q -p squash-cli --no-default-features
  BIN="${CARGO_TARGET_DIR:-target}/release/squash"
fi
echo "binary: $BIN"
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

REPORT=$(cat <<'PY'
import json, sys
label, size, time_file = sys.argv[1], int(sys.argv[2]), sys.argv[3]
summary_file = sys.argv[4] if len(sys.argv) > 4 else None
fields = {}
for line in open(time_file):
    if ":" in line:
        k, v = line.rsplit(":", 1) if "Elapsed" not in line else line.split(": ", 1)
        fields[k.strip()] = v.strip()
clock = fields["Elapsed (wall clock) time (h:mm:ss or m:ss)"].split(":")
seconds = sum(float(p) * 60 ** i for i, p in enumerate(reversed(clock)))
rss_mib = int(fields["Maximum resident set size (kbytes)"]) / 1024
cpu = float(fields["User time (seconds)"]) + float(fields["System time (seconds)"])
line = (f"{label}: {size / 1e6:.1f} MB in {seconds:.2f} s wall = {size / 1e6 / seconds:.1f} MB/s, "
        f"{cpu:.2f} s CPU = {size / 1e6 / cpu:.1f} MB/s, peak RSS {rss_mib:.0f} MiB")
if summary_file:
    totals = json.load(open(summary_file))["totals"]
    line += (f" ({totals['counts']['messages']} messages, {totals['counts']['tool_calls']} tool "
             f"calls, {totals['sidechains']} sub-agent runs)")
print(line)
PY
)

measure() { # label, database
  /usr/bin/time -v "$BIN" --db "$2" --json import "$WORK/session.jsonl" \
    >"$WORK/summary.json" 2>"$WORK/time.txt"
  python3 -c "$REPORT" "$1" "$SIZE" "$WORK/time.txt" "$WORK/summary.json"
}

floor() { # label, command...
  local label=$1
  shift
  /usr/bin/time -v "$@" >/dev/null 2>"$WORK/time.txt"
  python3 -c "$REPORT" "$label" "$SIZE" "$WORK/time.txt"
}

for MB in "${SIZES[@]}"; do
  rm -f "$WORK"/squash.db*
  python3 scripts/gen-claude-session.py "$WORK/session.jsonl" "$MB"
  SIZE=$(stat -c %s "$WORK/session.jsonl")
  floor "$MB MB, floor: sha256sum" sha256sum "$WORK/session.jsonl"
  measure "$MB MB, SQLite, first import" "$WORK/squash.db"
  measure "$MB MB, SQLite, again (already imported)" "$WORK/squash.db"
  if [ -n "${SQUASH_BENCH_PG:-}" ]; then
    PGOPTIONS=--client-min-messages=warning psql "$SQUASH_BENCH_PG" -q -c "DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;"
    measure "$MB MB, PostgreSQL, first import" "$SQUASH_BENCH_PG"
  fi
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
