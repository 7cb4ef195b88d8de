#!/usr/bin/env bash
# Makes the databases the store's migration test starts from (testdata/migration/): a story
# written by a `squash` binary built from an older commit, dumped as SQL — SQLite with
# `sqlite3 .dump`, PostgreSQL with `pg_dump` of one schema.
#
#   scripts/make-migration-fixture.sh SQUASH_BINARY COMMIT
#
# e.g. (a build of main at 7176d32, the layout before thread segments):
#   scripts/make-migration-fixture.sh /work/main/target/debug/squash 7176d32
set -euo pipefail
bin=${1:?the squash binary}
commit=${2:?the commit it was built from}
pg=${SQUASH_TEST_PG:-postgres://postgres@127.0.0.1:5432/test}
out=$(cd "$(dirname "$0")/.." && pwd)/testdata/migration
work=$(mktemp -d /tmp/migration-fixture.XXXXXX)
schema=fixture_$commit
trap 'rm -rf "$work"; psql -q "$pg" -c "DROP SCHEMA IF EXISTS $schema CASCADE" >/dev/null' EXIT

story() {
    local db=$1
    s() { "$bin" --db "$db" "$@"; }
    s conversation new "before segments" >/dev/null
    for i in $(seq 1 12); do
        if (( i % 2 )); then role=user; else role=assistant; fi
        s message add "before segments" --role $role --text "message $i: the lexer at src/lexer.rs:$((40 + i)) fails on token $i" >/dev/null
    done
    s message edit "before segments" @3 --text "message 3, edited: the parser recovers" >/dev/null
    s message delete "before segments" @5 >/dev/null
    s manual "before segments" @2 @7 @9 --text "squashed 2, 7 and 9: tokens 2, 7, 9 fixed" >/dev/null
    s undo "before segments" >/dev/null
    s redo "before segments" >/dev/null
    s message add "before segments" --text "message 13: appended after the squash" >/dev/null
    s conversation new "untouched" >/dev/null
    s message add "untouched" --text "a conversation that was never derived" >/dev/null
}

story "$work/squash.db"
{
    echo "-- Made by scripts/make-migration-fixture.sh with squash at commit $commit."
    sqlite3 "$work/squash.db" .dump
    # .dump leaves out the schema level rusqlite_migration keeps here.
    echo "PRAGMA user_version = $(sqlite3 "$work/squash.db" 'PRAGMA user_version');"
} >"$out/sqlite-$commit.sql"

psql -q "$pg" -c "DROP SCHEMA IF EXISTS $schema CASCADE; CREATE SCHEMA $schema" >/dev/null
story "$pg?options=-csearch_path%3D$schema"
{
    echo "-- Made by scripts/make-migration-fixture.sh with squash at commit $commit; the"
    echo "-- schema name $schema is replaced by the test's own."
    pg_dump --column-inserts --no-owner --no-privileges --schema="$schema" "$pg" | grep -v '^\\\(un\)\?restrict '
} >"$out/postgres-$commit.sql"
ls -l "$out"
