#!/usr/bin/env bash
# The test command: every test of the workspace, against a real SQLite file and the local
# PostgreSQL server (started here if it is down), with the real local model (fetched here if it
# is missing: scripts/fetch-test-model.sh, 98 MB, checked against its SHA-256).
#
# A test that cannot run here (no test model, no Chromium) passes without running; each one is
# listed in the summary at the end with the command that makes it run. SQUASH_NO_FETCH=1 skips
# the download. Arguments go to `cargo test`.
set -euo pipefail
cd "$(dirname "$0")/.."

export SQUASH_TEST_PG="${SQUASH_TEST_PG:-postgres://postgres@127.0.0.1:5432/test}"
export SQUASH_REQUIRE_POSTGRES=1
if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  echo "==> starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
fi

# The real local-inference tests need the test model; fetching it is idempotent (nothing is
# downloaded when the pinned file is already there).
if [[ "${SQUASH_NO_FETCH:-0}" != 1 ]]; then
  echo "==> test model"
  if ! bash scripts/fetch-test-model.sh; then
    echo "==> could not fetch the test model; the local-model tests will be skipped" >&2
  fi
fi

# Tests that skip write a line here (see `note_skip` in the test files); libtest would hide
# their note otherwise.
skip_log="$(mktemp)"
trap 'rm -f "$skip_log"' EXIT
export SQUASH_SKIP_LOG="$skip_log"

status=0
cargo test --workspace --all-features --no-fail-fast "$@" || status=$?

echo
if [[ -s "$skip_log" ]]; then
  echo "==> SKIPPED: $(sort -u "$skip_log" | wc -l) test(s) passed without running:"
  sort -u "$skip_log" | sed 's/^/    /'
  echo "    (test model: bash scripts/fetch-test-model.sh; browser: apt-get install chromium chromium-driver;"
  echo "     agent CLIs: npm install @anthropic-ai/claude-code@2.1.197 @openai/codex@0.171.0"
  echo "     @google/gemini-cli@0.61.0 opencode-ai@1.18.33, then set SQUASH_CLAUDE_BIN, SQUASH_CODEX_BIN,"
  echo "     SQUASH_GEMINI_BIN and SQUASH_OPENCODE_BIN to their node_modules/.bin/{claude,codex,gemini,opencode})"
else
  echo "==> no test skipped"
fi
exit "$status"
