#!/usr/bin/env bash
# The test command: every test of the workspace, against a real SQLite file and the local
# PostgreSQL server (started here if it is down).
set -euo pipefail
cd "$(dirname "$0")/.."

export SQUASH_TEST_PG="${SQUASH_TEST_PG:-postgres://postgres@127.0.0.1:5432/test}"
export SQUASH_REQUIRE_POSTGRES=1
if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  echo "==> starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
fi

cargo test --workspace --all-features --no-fail-fast "$@"
