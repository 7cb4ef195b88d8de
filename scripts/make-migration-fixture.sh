#!/usr/bin/env bash
# Makes the databases the store's migration test starts from (testdata/migration/): a story
# written by a `squash` binary built from an older commit, dumped as SQL — SQLite with
# `sqlite3 .dump`, PostgreSQL with `pg_dump` of one schema.
#
#   scripts/make-migration-fixture.sh SQUASH_BINARY COMMIT [STORY]
#
# STORY is `segments` (the default: edits, a delete, a squash, undo and redo, for the layout
# before thread segments) or `provenance` (every kind of operation record: an edit, manual
# squashes, an AI squash by a loopback OpenAI-compatible server, an extract, a fit's masks and
# extracts; for the records before operation kinds). e.g.:
#   scripts/make-migration-fixture.sh /work/main/target/debug/squash 7176d32
#   scripts/make-migration-fixture.sh /work/main/target/debug/squash f59860d provenance
set -euo pipefail
bin=${1:?the squash binary}
commit=${2:?the commit it was built from}
kind=${3:-segments}
pg=${SQUASH_TEST_PG:-postgres://postgres@127.0.0.1:5432/test}
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/testdata/migration
work=$(mktemp -d /tmp/migration-fixture.XXXXXX)
schema=fixture_$commit
server=
trap '[ -n "$server" ] && kill "$server"; rm -rf "$work"; psql -q "$pg" -c "DROP SCHEMA IF EXISTS $schema CASCADE" >/dev/null' EXIT

segments() {
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

# An OpenAI-compatible server that answers every squash prompt with the file positions it
# names: a faithful answer, so the record is the engine's whole AI record.
serve_model() {
    cat >"$work/model.py" <<'PY'
import http.server, json, re, sys

class Model(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["content-length"])))
        asked = " ".join(str(m.get("content", "")) for m in body["messages"])
        spots = sorted(set(re.findall(r"src/lexer\.rs:\d+", asked)))
        tokens = sorted(set(re.findall(r"token (\d+)", asked)), key=int)
        text = ("The lexer failed at %s on tokens %s; each was fixed."
                % (" and ".join(spots), ", ".join(tokens)))
        usage = {"prompt_tokens": 321, "completion_tokens": 17}
        if body.get("stream"):
            chunks = [{"model": "loopback-model-1", "choices": [{"index": 0,
                       "delta": {"content": text}, "finish_reason": None}]},
                      {"model": "loopback-model-1", "choices": [{"index": 0, "delta": {},
                       "finish_reason": "stop"}], "usage": usage}]
            data = "".join("data: %s\n\n" % json.dumps(c) for c in chunks) + "data: [DONE]\n\n"
            kind = "text/event-stream"
        else:
            data = json.dumps({"model": "loopback-model-1", "choices": [{"index": 0,
                   "message": {"role": "assistant", "content": text},
                   "finish_reason": "stop"}], "usage": usage})
            kind = "application/json"
        self.send_response(200)
        self.send_header("content-type", kind)
        self.end_headers()
        self.wfile.write(data.encode())

    def log_message(self, *args):
        pass

server = http.server.HTTPServer(("127.0.0.1", 0), Model)
print(server.server_port, flush=True)
server.serve_forever()
PY
    python3 "$work/model.py" >"$work/port" &
    server=$!
    while [ ! -s "$work/port" ]; do sleep 0.1; done
    export OPENAI_BASE_URL="http://127.0.0.1:$(cat "$work/port")/v1" OPENAI_API_KEY=sk-fixture
    export OPENAI_MODEL=loopback-model
    unset ANTHROPIC_API_KEY SQUASH_DB DATABASE_URL
}

provenance() {
    local db=$1
    s() { "$bin" --db "$db" "$@"; }
    s conversation new "provenance" >/dev/null
    for i in $(seq 1 8); do
        if (( i % 2 )); then role=user; else role=assistant; fi
        s message add "provenance" --role $role --text "message $i: the lexer at src/lexer.rs:$((40 + i)) fails on token $i" >/dev/null
    done
    s message edit "provenance" @3 --text "message 3, edited: the parser recovers" >/dev/null
    s manual "provenance" @1 @2 >/dev/null
    s manual "provenance" @2 @3 --text "squashed 3 and 4: tokens 3 and 4 fixed" >/dev/null
    s ai "provenance" @3 @4 --provider openai --instructions "keep every file position" >/dev/null
    s ai "provenance" @4 @5 --style extract >/dev/null
    local session
    session=$(s --json import "$root/testdata/sessions/claude-code-subagents-5c0375b4.jsonl" |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["summary"]["conversations"][0]["conversation_id"])')
    s fit "$session" --budget 1 --strategy mask --best-effort >/dev/null
    s fit "$session" --budget 1 --strategy extract --best-effort >/dev/null
}

story() {
    "$kind" "$@"
}

[ "$kind" = provenance ] && serve_model

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
