#!/usr/bin/env bash
# The test commands. Arguments after the tier go to `cargo test`.
#
#   bash scripts/test.sh         the full command (what CI runs): every test of the workspace,
#       against a real SQLite file and the local PostgreSQL server (started here if it is
#       down), with the real local model and the real agent CLIs (both fetched here when they
#       are missing: scripts/fetch-test-model.sh, 98 MB checked against its SHA-256, and
#       scripts/fetch-agents.sh, pinned npm packages into .ci/agents). SQUASH_NO_FETCH=1 skips
#       both downloads.
#   bash scripts/test.sh quick   unit tests, the SQLite and API tests: no PostgreSQL, no real
#       agent, no local model, no browser, and no llama.cpp to compile (`--no-default-features`).
#
# A test that cannot run here (no test model, no Chromium, no agent CLI) passes without running;
# each one is listed in the summary at the end with the command that makes it run.
set -euo pipefail
cd "$(dirname "$0")/.."

# Runs `cargo test` with the given flags, compiling first so that the summary can say how long
# each part took (with extra arguments, one step: they may hold test-binary arguments).
timings=""
cargo_test() {
  local flags=("$@") start=$SECONDS
  if [[ ${#extra[@]} -eq 0 ]]; then
    cargo test "${flags[@]}" --no-run || return
    timings="compile $((SECONDS - start)) s"
    start=$SECONDS
    cargo test "${flags[@]}" || return
    timings="$timings, run $((SECONDS - start)) s"
  else
    cargo test "${flags[@]}" "${extra[@]}" || return
    timings="compile and run $((SECONDS - start)) s"
  fi
}

tier=full
if [[ "${1:-}" == quick ]]; then
  tier=quick
  shift
fi
extra=("$@")

# Tests that skip write a line here (`squash_testkit::note_skip`); libtest would hide their note
# otherwise.
skip_log="$(mktemp)"
trap 'rm -f "$skip_log"' EXIT
export SQUASH_SKIP_LOG="$skip_log"

if [[ "$tier" == quick ]]; then
  # The testkit leaves PostgreSQL, the agents, the model and the browser out in this tier.
  export SQUASH_TIER=quick
  status=0
  cargo_test --workspace --no-default-features --lib --bins --tests --no-fail-fast || status=$?
  echo
  echo "==> quick tier: $timings"
  echo "==> quick tier: $(sort -u "$skip_log" | wc -l) test(s) left (in whole or in part) to the full command:"
  sed 's/^[^ ]* [^:]*: //' "$skip_log" | sort | uniq -c | sed 's/^/    /'
  echo "    (bash scripts/test.sh runs them all)"
  exit "$status"
fi

export SQUASH_TEST_PG="${SQUASH_TEST_PG:-postgres://postgres@127.0.0.1:5432/test}"
export SQUASH_REQUIRE_POSTGRES=1
if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  echo "==> starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
fi

# The real local-inference tests need the test model, the agent tests the agent CLIs; fetching
# either is idempotent (nothing is downloaded when the pinned files are already there).
if [[ "${SQUASH_NO_FETCH:-0}" != 1 ]]; then
  echo "==> test model"
  if ! bash scripts/fetch-test-model.sh; then
    echo "==> could not fetch the test model; the local-model tests will be skipped" >&2
  fi
  echo "==> agent CLIs"
  if ! bash scripts/fetch-agents.sh; then
    echo "==> could not fetch the agent CLIs; the real-agent tests will be skipped" >&2
  fi
fi
agents=.ci/agents/node_modules/.bin
for agent in claude codex gemini opencode mcp-inspector; do
  var="SQUASH_$(echo "$agent" | tr '[:lower:]-' '[:upper:]_')_BIN"
  if [[ -z "${!var:-}" && -x "$agents/$agent" ]]; then
    export "$var=$PWD/$agents/$agent"
  fi
done

status=0
cargo_test --workspace --all-features --no-fail-fast || status=$?

echo
echo "==> full command: $timings"
if [[ -s "$skip_log" ]]; then
  echo "==> SKIPPED: $(sort -u "$skip_log" | wc -l) test(s) passed without running:"
  sort -u "$skip_log" | sed 's/^/    /'
  echo "    (test model: bash scripts/fetch-test-model.sh; browser: apt-get install chromium chromium-driver;"
  echo "     agent CLIs: bash scripts/fetch-agents.sh, or set SQUASH_CLAUDE_BIN, SQUASH_CODEX_BIN,"
  echo "     SQUASH_GEMINI_BIN, SQUASH_OPENCODE_BIN and SQUASH_MCP_INSPECTOR_BIN)"
else
  echo "==> no test skipped"
fi
exit "$status"
