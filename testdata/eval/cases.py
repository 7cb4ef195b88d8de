"""The evaluation's cases, written by hand: each selection with the key facts a squash must
keep (each fact: alternative spellings, any one counts) and what it must not say.

Run `python3 testdata/eval/cases.py` to rewrite cases.json (the file the evaluation reads).
Session cuts name a file under testdata/sessions and the 1-based positions of the imported
conversation's current thread; their facts were written by reading those messages.
"""
import json

def user(text): return {"role": "user", "content": [{"type": "user_message", "text": text}]}
def said(text): return {"role": "assistant", "content": [{"type": "assistant_message", "structured": {"full_text": text}}]}
def call(i, name, inp, text=None):
    items = []
    if text: items.append({"type": "assistant_message", "structured": {"full_text": text}})
    items.append({"type": "tool_call", "id": i, "name": name, "input": inp})
    return {"role": "assistant", "content": items}
def result(i, name, out, err=False):
    return {"role": "user", "content": [{"type": "tool_result", "tool_use_id": i, "tool_name": name, "is_error": err, "result": [{"type": "text", "text": out}]}]}
def think(text, i, name, inp):
    return {"role": "assistant", "content": [{"type": "thinking", "signature": "s", "thinking": text}, {"type": "tool_call", "id": i, "name": name, "input": inp}]}
def system(level, text): return {"role": "system", "content": [{"type": "system", "level": level, "content": text}]}

LISTING = "\n".join(f"src/{d}/{n}.ts" for d in ["api", "core", "ui"] for n in ["index", "types", "client", "store", "utils", "routes", "hooks", "config", "model", "view", "form", "table", "chart", "auth"])

cases = []

cases.append({"name": "ts-type-errors", "origin": "hand", "messages": [
    user("The TypeScript build is red. Find out why; don't change anything yet."),
    call("c1", "Grep", {"pattern": "import .* from './legacy'", "path": "src"}, "Searching for imports of the legacy module."),
    result("c1", "Grep", "Found 42 files\n" + LISTING),
    call("c2", "Read", {"file_path": "src/core/types.ts"}),
    result("c2", "Read", "\n".join(f"{i:4}  export type T{i} = string;" for i in range(1, 60)) + "\n  60  export type UserId = number;"),
    call("c3", "Bash", {"command": "npx tsc --noEmit"}),
    result("c3", "Bash", "src/api/client.ts(12,7): error TS2322: Type 'string' is not assignable to type 'UserId'.\nsrc/ui/form.ts(88,3): error TS2345: Argument of type 'number' is not assignable to parameter of type 'string'.\nsrc/ui/table.ts(5,1): error TS2304: Cannot find name 'LegacyRow'.\nFound 3 errors in 3 files.\nProcess exited with code 2", True),
    said("Three type errors: `UserId` became a number in src/core/types.ts, so src/api/client.ts and src/ui/form.ts disagree with it, and src/ui/table.ts still uses `LegacyRow` from the removed legacy module. Nothing changed yet, as you asked."),
 ], "select": None,
 "facts": [["TS2322"], ["TS2345"], ["TS2304", "LegacyRow"], ["src/core/types.ts", "types.ts"], ["UserId"], ["src/api/client.ts", "client.ts"], ["src/ui/form.ts", "form.ts"], ["src/ui/table.ts", "table.ts"], ["tsc"], ["42"]],
 "forbidden": ["fixed the", "were fixed"]})

cases.append({"name": "failing-test-then-fix", "origin": "hand", "messages": [
    user("npm test fails on the date formatter, please fix it."),
    call("c1", "Bash", {"command": "npm test -- formatDate"}, "Running the failing test."),
    result("c1", "Bash", "FAIL src/format.test.js\n  ● formatDate › pads single-digit months\n    Expected: \"2024-03-07\"\n    Received: \"2024-3-7\"\nTests: 1 failed, 11 passed, 12 total", True),
    call("c2", "Read", {"file_path": "src/format.js"}),
    result("c2", "Read", "1  export function formatDate(d) {\n2    return `${d.getFullYear()}-${d.getMonth() + 1}-${d.getDate()}`;\n3  }"),
    call("c3", "Edit", {"file_path": "src/format.js", "old_string": "${d.getMonth() + 1}-${d.getDate()}", "new_string": "${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}"}, "Months and days need zero padding."),
    result("c3", "Edit", "The file src/format.js has been updated."),
    call("c4", "Bash", {"command": "npm test -- formatDate"}),
    result("c4", "Bash", "PASS src/format.test.js\nTests: 12 passed, 12 total"),
    said("Fixed: formatDate now pads month and day with padStart(2, '0'); all 12 tests pass."),
 ], "select": None,
 "facts": [["src/format.js", "format.js"], ["formatDate"], ["padStart", "zero pad", "zero-pad", "pads"], ["npm test"], ["12"], ["2024-03-07", "pads single-digit months"]],
 "forbidden": ["still fail", "python"]})

cases.append({"name": "thinking-and-decision", "origin": "hand", "messages": [
    user("Should we cache the exchange rates in Redis or in memory? We run 4 replicas."),
    think("With 4 replicas an in-memory cache would be fetched 4 times and could disagree between replicas for up to the TTL.", "c1", "Read", {"file_path": "config/cache.yaml"}),
    result("c1", "Read", "ttl_seconds: 300\nbackend: memory\nredis_url: redis://cache.internal:6379/2"),
    said("The config already has redis_url (redis://cache.internal:6379/2) but uses backend: memory with ttl_seconds: 300. Decided: switch to Redis instead of memory, so the 4 replicas share one copy; keep the 300 s TTL."),
    user("Agreed. Do it later, after the release on Friday."),
 ], "select": None,
 "facts": [["redis"], ["4 replicas", "four replicas", "4"], ["300"], ["config/cache.yaml", "cache.yaml"], ["redis://cache.internal:6379/2", "cache.internal"], ["friday"]],
 "forbidden": ["memcached"]})

cases.append({"name": "system-warnings", "origin": "hand", "messages": [
    user("Deploy the staging build."),
    call("c1", "Bash", {"command": "./deploy.sh staging"}),
    result("c1", "Bash", "Uploading build 1.8.2 to staging...\nWARNING: disk usage on staging-2 at 91%\nDeployed 1.8.2 to 3 of 3 hosts in 48s"),
    system("warning", "Context window 85% full: older messages may be summarized."),
    system("error", "Hook post-deploy failed: smoke test GET /health returned HTTP 503"),
    said("Build 1.8.2 is on all 3 staging hosts, but the post-deploy smoke test got HTTP 503 from /health, and staging-2's disk is at 91%."),
 ], "select": None,
 "facts": [["1.8.2"], ["503"], ["/health"], ["staging-2"], ["91%", "91 %", "91"], ["deploy.sh"]],
 "forbidden": ["succeeded without", "all checks passed"]})

cases.append({"name": "non-contiguous-chat", "origin": "hand", "messages": [
    user("Our p95 latency went from 120 ms to 480 ms after release 2.4.0."),
    said("The release added N+1 queries in OrderRepository.find_recent; each order loads its items separately."),
    user("Unrelated: what's the office wifi password?"),
    said("I don't have access to that; ask IT."),
    user("Back to latency: will an index on order_items.order_id help?"),
    said("Partly. The index cuts each query from 9 ms to 1 ms, but the real fix is one JOIN in find_recent instead of N queries. Next step: rewrite find_recent with a JOIN and measure p95 again."),
 ], "select": [1, 2, 5, 6],
 "facts": [["120"], ["480"], ["2.4.0"], ["find_recent"], ["order_items.order_id", "order_id"], ["join"], ["n+1", "n + 1"]],
 "forbidden": ["wifi", "password"]})

cases.append({"name": "codex-shell-exit-codes", "origin": "hand", "messages": [
    user("Why does `make release` fail on CI?"),
    call("c1", "shell", {"command": ["bash", "-lc", "make release"]}),
    result("c1", "shell", "cargo build --release\nerror: failed to select a version for `openssl-sys` (required by `reqwest`)\nProcess exited with code 2"),
    call("c2", "shell", {"command": ["bash", "-lc", "grep -n openssl Cargo.toml"]}),
    result("c2", "shell", "14:openssl = \"0.9\"\nProcess exited with code 0"),
    said("`make release` fails because Cargo.toml pins openssl = \"0.9\" while reqwest needs openssl-sys 0.10 or later; bump openssl to 0.10 or switch reqwest to rustls."),
 ], "select": None,
 "facts": [["make release"], ["openssl-sys"], ["reqwest"], ["0.9"], ["0.10"], ["cargo.toml"], ["rustls"]],
 "forbidden": ["python"]})

cases.append({"name": "python-traceback-fix", "origin": "hand", "messages": [
    user("The import script crashes on the March file."),
    call("c1", "Bash", {"command": "python scripts/import_csv.py data/2024-03.csv"}),
    result("c1", "Bash", "Traceback (most recent call last):\n  File \"scripts/import_csv.py\", line 31, in <module>\n    amount = float(row[\"amount\"])\nValueError: could not convert string to float: '1.234,50'\nexit status 1", True),
    call("c2", "Edit", {"file_path": "scripts/import_csv.py", "old_string": "float(row[\"amount\"])", "new_string": "parse_amount(row[\"amount\"])"}, "The March file uses a decimal comma; parse it with a helper."),
    result("c2", "Edit", "Updated scripts/import_csv.py"),
    call("c3", "Bash", {"command": "python scripts/import_csv.py data/2024-03.csv"}),
    result("c3", "Bash", "Imported 1,842 rows from data/2024-03.csv\nexit status 0"),
 ], "select": None,
 "facts": [["scripts/import_csv.py", "import_csv.py"], ["ValueError"], ["1.234,50", "decimal comma"], ["parse_amount"], ["1842", "1,842"], ["data/2024-03.csv", "2024-03.csv"]],
 "forbidden": ["still crash"]})

cases.append({"name": "git-branch-work", "origin": "hand", "messages": [
    user("Rebase feature/billing-v2 on main and push it."),
    call("c1", "Bash", {"command": "git rebase main"}),
    result("c1", "Bash", "CONFLICT (content): Merge conflict in src/billing/invoice.rs\nerror: could not apply 3f9c2ab... Add proration\nexit code 1", True),
    call("c2", "Edit", {"file_path": "src/billing/invoice.rs", "old_string": "<<<<<<< HEAD", "new_string": ""}, "Keeping both the proration and main's rounding change."),
    result("c2", "Edit", "ok"),
    call("c3", "Bash", {"command": "git rebase --continue && git push --force-with-lease origin feature/billing-v2"}),
    result("c3", "Bash", "Successfully rebased and updated refs/heads/feature/billing-v2.\nTo github.com:acme/shop.git\n + 71d0e4a...c2b8f19 feature/billing-v2 -> feature/billing-v2 (forced update)"),
 ], "select": None,
 "facts": [["feature/billing-v2"], ["src/billing/invoice.rs", "invoice.rs"], ["conflict"], ["3f9c2ab", "proration"], ["c2b8f19", "pushed", "push"], ["force-with-lease", "force"]],
 "forbidden": ["merge commit"]})

cases.append({"name": "migration-open-questions", "origin": "hand", "messages": [
    user("Plan the move of the sessions table to PostgreSQL 16. It has 38 million rows."),
    said("Plan: copy with pg_dump in 4 parallel jobs, then switch reads with the SESSIONS_DB flag. We chose logical replication rather than a dump-and-restore window, so the cutover is under 5 minutes."),
    user("What about the expires_at index?"),
    said("Build it CONCURRENTLY after the copy. Open question: do we keep sessions older than 90 days? TODO: confirm the retention with legal before the cutover."),
 ], "select": None,
 "facts": [["38 million", "38m", "38,000,000"], ["postgresql 16", "postgres 16", "pg 16"], ["logical replication"], ["sessions_db"], ["expires_at"], ["concurrently"], ["90 days", "90"], ["legal", "retention"]],
 "forbidden": ["mysql"]})

cases.append({"name": "failed-edit-retry", "origin": "hand", "messages": [
    user("Rename the env var API_TOKEN to SERVICE_TOKEN in the server."),
    call("c1", "Edit", {"file_path": "server/env.go", "old_string": "os.Getenv(\"API_TOKEN\")", "new_string": "os.Getenv(\"SERVICE_TOKEN\")"}),
    result("c1", "Edit", "Error: String to replace not found in file server/env.go", True),
    call("c2", "Read", {"file_path": "server/env.go"}),
    result("c2", "Read", "7  token := os.LookupEnv(\"API_TOKEN\")"),
    call("c3", "Edit", {"file_path": "server/env.go", "old_string": "os.LookupEnv(\"API_TOKEN\")", "new_string": "os.LookupEnv(\"SERVICE_TOKEN\")"}),
    result("c3", "Edit", "The file server/env.go has been updated."),
    said("Renamed: server/env.go now reads SERVICE_TOKEN via os.LookupEnv. Deployments that set API_TOKEN must set SERVICE_TOKEN instead."),
 ], "select": None,
 "facts": [["server/env.go", "env.go"], ["service_token"], ["api_token"], ["lookupenv"]],
 "forbidden": ["getenv was"]})

# Cut from real sessions (testdata/sessions; positions of the imported current thread).
cases.append({"name": "demo-tool-run", "origin": "session", "session": "../../crates/squash-cli/demo/session.json", "select": [2, 11],
 "facts": [["crates/config/src/lib.rs", "config/src/lib.rs"], ["E0425"], ["default_timeout_secs"], ["parses_minimal_file"], ["cargo test"], ["4 passed", "all 4", "4 tests"], ["move_fn.py", "move_fn"]],
 "forbidden": ["the user called", "the user ran", "src/settings"]})
cases.append({"name": "demo-whole", "origin": "session", "session": "../../crates/squash-cli/demo/session.json", "select": [1, 13],
 "facts": [["timeout_secs"], ["30"], ["crates/config/src/lib.rs", "config/src/lib.rs"], ["E0425"], ["default_timeout_secs"], ["retry_limit"], ["4 passed", "all 4", "4 tests"]],
 "forbidden": ["the user called", "the user ran"]})
cases.append({"name": "swe-agent-timedelta", "origin": "session", "session": "swe-agent-marshmallow-1867.traj", "select": [3, 22],
 "facts": [["reproduce.py"], ["344"], ["345"], ["src/marshmallow/fields.py", "fields.py"], ["round"], ["timedelta"], ["syntax error", "indentation"]],
 "forbidden": ["the user edited"]})
cases.append({"name": "swe-agent-explore", "origin": "session", "session": "swe-agent-marshmallow-1867.traj", "select": [3, 12],
 "facts": [["reproduce.py"], ["344"], ["fields.py"], ["src/marshmallow", "src"]],
 "forbidden": ["345"]})
cases.append({"name": "swe-agent-fix", "origin": "session", "session": "swe-agent-marshmallow-1867.traj", "select": [13, 22],
 "facts": [["src/marshmallow/fields.py", "fields.py"], ["round"], ["345"], ["syntax error", "indentation"]],
 "forbidden": []})
cases.append({"name": "claude-init-empty-repo", "origin": "session", "session": "claude-code-linear-1af7fc5e.jsonl", "select": [2, 21],
 "facts": [["claude.md"], ["empty"], ["/path/to/Demo/CLAUDE.md", "permission"]],
 "forbidden": ["package.json was"]})

# Conversations without tools (issue 28); the held-out ones were not looked at while tuning.
from chats import chats
cases.extend(chats)
# A second held-out set (issue 28): five real oasst chats and three hand-written ones.
from chats_heldout2 import chats_heldout2
cases.extend(chats_heldout2)
# A third held-out set (issue 28): four real oasst chats and four hand-written ones.
from chats_heldout3 import chats_heldout3
cases.extend(chats_heldout3)
# A fourth held-out set (issue 28): five real chats (hh-rlhf, databricks-dolly-15k) and three hand-written ones.
from chats_heldout4 import chats_heldout4
cases.extend(chats_heldout4)

json.dump(cases, open("testdata/eval/cases.json", "w"), indent=1)
print(f"{len(cases)} cases")
