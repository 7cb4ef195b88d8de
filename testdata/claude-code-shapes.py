# Writes the Claude Code shape fixtures of issue 12: python3 testdata/claude-code-shapes.py testdata/sessions
# Field names and values follow Claude Code 2.1.197 (its bundled source, read with `strings`).
import json, sys
OUT = sys.argv[1]
SID = "7d3f9a12-4c1e-4b8a-9f2d-3e5b6c7a8d90"
CWD = "/home/dev/projects/weather-cli"
def base(uuid, parent, typ, ts, **kw):
    d = {"parentUuid": parent, "isSidechain": False, "userType": "external", "cwd": CWD,
         "sessionId": SID, "version": "2.1.197", "gitBranch": "main", "type": typ}
    d.update(kw); d["uuid"] = uuid; d["timestamp"] = ts
    return d
def user(uuid, parent, ts, content, **kw):
    return base(uuid, parent, "user", ts, message={"role": "user", "content": content}, **kw)
def asst(uuid, parent, ts, mid, blocks, **kw):
    return base(uuid, parent, "assistant", ts, requestId="req_011C" + mid[-8:],
        message={"model": "claude-sonnet-4-5-20250929", "id": mid, "type": "message", "role": "assistant",
                 "content": blocks, "stop_reason": None, "stop_sequence": None,
                 "usage": {"input_tokens": 4, "cache_creation_input_tokens": 1520, "cache_read_input_tokens": 14210, "output_tokens": 88, "service_tier": "standard"}}, **kw)
def text(t): return {"type": "text", "text": t}
def tool_use(i, name, inp): return {"type": "tool_use", "id": i, "name": name, "input": inp}
def result(i, c, err=False): return [{"tool_use_id": i, "type": "tool_result", "content": c, "is_error": err}]
import uuid as _u
KEYS = {"uuid", "parentUuid", "logicalParentUuid", "leafUuid", "headUuid", "anchorUuid", "tailUuid", "messageId", "sourceToolAssistantUUID"}
def ids(v):
    if isinstance(v, dict):
        return {k: (str(_u.uuid5(_u.NAMESPACE_URL, "squash-fixture:" + x)) if k in KEYS and isinstance(x, str) and "-" not in x else ids(x)) for k, x in v.items()}
    if isinstance(v, list): return [ids(x) for x in v]
    return v
def write(name, rows):
    rows = [ids(r) for r in rows]
    sid = str(_u.uuid5(_u.NAMESPACE_URL, "squash-fixture-session:" + name))
    for r in rows:
        if "sessionId" in r: r["sessionId"] = sid
    with open(f"{OUT}/claude-code-{name}.jsonl", "w") as f:
        for r in rows: f.write(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n")
T = lambda s: f"2025-11-20T10:{s}Z"

# 1. broken chain: a trimmed session; the first line and two later ones name parents that are gone.
write("broken-chain", [
    user("b1", "0f4a2c1e-6d1b-4e7a-9b3c-5a8e2f1d0001", T("00:01.100"), "Why does `weather today` print the temperature twice?"),
    asst("b2", "b1", T("00:04.200"), "msg_01Broken00000001", [{"type": "thinking", "thinking": "The render loop probably runs the formatter twice.", "signature": "EqkBCkYIBxgCKkB"}]),
    asst("b3", "0f4a2c1e-6d1b-4e7a-9b3c-5a8e2f1d0002", T("00:04.900"), "msg_01Broken00000001", [tool_use("toolu_01Grep00000001", "Grep", {"pattern": "format_temperature", "path": "src"})]),
    user("b4", "b3", T("00:05.300"), result("toolu_01Grep00000001", "src/render.rs:41: print(format_temperature(t))\nsrc/render.rs:44: print(format_temperature(t))"), toolUseResult={"mode": "content", "numFiles": 1}),
    asst("b5", "b4", T("00:09.800"), "msg_01Broken00000002", [text("`render.rs` prints it on lines 41 and 44; the second call is left over from the refactor. Remove line 44.")]),
    base("b6", "0f4a2c1e-6d1b-4e7a-9b3c-5a8e2f1d0003", "system", T("00:09.900"), subtype="turn_duration", durationMs=8800, isMeta=False),
    {"type": "ai-title", "aiTitle": "Duplicate temperature output in weather today", "sessionId": SID},
])

# 2. every parentUuid null (hand-assembled session): 11 messages.
rows = []
prompts = ["List the subcommands.", "Add a `--units` flag.", "Make metric the default.", "Update the README.", "Run the tests."]
for k, p in enumerate(prompts):
    rows.append(user(f"n{2*k+1}", None, T(f"1{k}:00.000"), p))
    rows.append(asst(f"n{2*k+2}", None, T(f"1{k}:05.000"), f"msg_01Null0000000{k}", [text(f"Done: {p.lower()}")]))
rows.append(user("n11", None, T("15:00.000"), "Thanks, that's all."))
write("null-parents", rows)

# 3. compaction with a preserved segment: u2..a3 are kept verbatim behind the summary.
write("compaction-preserved", [
    user("c1", None, T("20:00.000"), "Add caching to the forecast fetcher."),
    asst("c2", "c1", T("20:06.000"), "msg_01Comp000000001", [text("I'll add an on-disk cache keyed by city and hour.")]),
    user("c3", "c2", T("21:00.000"), "Use ~/.cache/weather-cli for it."),
    asst("c4", "c3", T("21:03.000"), "msg_01Comp000000002", [tool_use("toolu_01Edit00000001", "Edit", {"file_path": CWD + "/src/cache.rs", "old_string": "cache_dir()", "new_string": "dirs::cache_dir().join(\"weather-cli\")"})]),
    user("c5", "c4", T("21:04.000"), result("toolu_01Edit00000001", "The file src/cache.rs has been updated."), toolUseResult={"filePath": CWD + "/src/cache.rs"}),
    asst("c6", "c5", T("21:08.000"), "msg_01Comp000000003", [text("The cache now lives in ~/.cache/weather-cli.")]),
    base("c7", None, "system", T("22:00.000"), subtype="compact_boundary", content="Conversation compacted", isMeta=False, level="info",
         logicalParentUuid="c6", compactMetadata={"trigger": "manual", "preTokens": 48211, "postTokens": 9120,
             "preservedSegment": {"headUuid": "c3", "anchorUuid": "c8", "tailUuid": "c6"}}),
    user("c8", "c7", T("22:00.100"), "This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nThe user asked for a forecast cache; an on-disk cache keyed by city and hour was planned.", isCompactSummary=True, isVisibleInTranscriptOnly=True),
    user("c9", "c8", T("22:30.000"), "Now expire entries after an hour."),
    asst("c10", "c9", T("22:35.000"), "msg_01Comp000000004", [text("Entries older than an hour are now ignored and rewritten.")]),
    {"type": "last-prompt", "lastPrompt": "Now expire entries after an hour.", "leafUuid": "c10", "sessionId": SID},
])

# 4. rewind: the user went back to r2 and asked differently; the new branch makes parallel tool calls.
write("rewind", [
    user("r1", None, T("30:00.000"), "Which HTTP client does the fetcher use?"),
    asst("r2", "r1", T("30:04.000"), "msg_01Rew0000000001", [text("It uses `ureq` 2.9.")]),
    user("r3", "r2", T("31:00.000"), "Switch it to reqwest with tokio."),
    asst("r4", "r3", T("31:05.000"), "msg_01Rew0000000002", [text("That makes the whole CLI async; here is the plan...")]),
    {"type": "last-prompt", "lastPrompt": "Switch it to reqwest with tokio.", "leafUuid": "r2", "explicit": True, "rewound": True, "sessionId": SID},
    user("r5", "r2", T("32:00.000"), "Keep ureq, but add a timeout. Check both call sites."),
    asst("r6", "r5", T("32:03.000"), "msg_01Rew0000000003", [tool_use("toolu_01Read00000001", "Read", {"file_path": CWD + "/src/fetch.rs"})]),
    asst("r7", "r6", T("32:03.200"), "msg_01Rew0000000003", [tool_use("toolu_01Read00000002", "Read", {"file_path": CWD + "/src/geo.rs"})]),
    user("r8", "r6", T("32:03.500"), result("toolu_01Read00000001", "let agent = ureq::agent();"), sourceToolAssistantUUID="r6"),
    user("r9", "r7", T("32:03.600"), result("toolu_01Read00000002", "ureq::get(url).call()"), sourceToolAssistantUUID="r7"),
    asst("r10", "r9", T("32:09.000"), "msg_01Rew0000000004", [text("Both call sites now use an agent with a 10 s timeout.")]),
    {"type": "last-prompt", "lastPrompt": "Keep ureq, but add a timeout. Check both call sites.", "leafUuid": "r10", "sessionId": SID},
])

# 5. one sub-agent run written in two pieces (the second piece's first line names a parent that is gone).
def side(d, agent="a5e1c9d"):
    d["isSidechain"] = True; d["agentId"] = agent; return d
write("sidechain-pieces", [
    user("m1", None, T("40:00.000"), "Find every place that parses dates."),
    asst("m2", "m1", T("40:03.000"), "msg_01Main000000001", [tool_use("toolu_01Task00000001", "Task", {"description": "Find date parsing", "prompt": "List every function in src/ that parses a date string.", "subagent_type": "Explore"})]),
    side(user("s1", None, T("40:03.500"), "List every function in src/ that parses a date string.")),
    side(asst("s2", "s1", T("40:05.000"), "msg_01Side000000001", [tool_use("toolu_01Grep00000002", "Grep", {"pattern": "parse_from_str|NaiveDate::parse", "path": "src"})])),
    side(user("s3", "s2", T("40:05.400"), result("toolu_01Grep00000002", "src/forecast.rs:12\nsrc/history.rs:88"))),
    side(asst("s4", "9c2d7e10-3b4a-4f6e-8d2c-1a9b8c7d0004", T("40:07.000"), "msg_01Side000000002", [tool_use("toolu_01Read00000003", "Read", {"file_path": CWD + "/src/history.rs"})])),
    side(user("s5", "s4", T("40:07.300"), result("toolu_01Read00000003", "fn parse_day(s: &str) -> NaiveDate { NaiveDate::parse_from_str(s, \"%Y-%m-%d\").unwrap() }"))),
    side(asst("s6", "s5", T("40:09.000"), "msg_01Side000000003", [text("Two: `forecast::parse_time` and `history::parse_day`.")])),
    user("m3", "m2", T("40:09.500"), result("toolu_01Task00000001", [text("Two: `forecast::parse_time` and `history::parse_day`.")])),
    asst("m4", "m3", T("40:12.000"), "msg_01Main000000002", [text("Dates are parsed in `forecast::parse_time` and `history::parse_day`.")]),
])

# 6. current line types.
write("line-types", [
    {"type": "permission-mode", "permissionMode": "acceptEdits", "sessionId": SID},
    {"type": "file-history-snapshot", "messageId": "t1", "snapshot": {"messageId": "t1", "trackedFileBackups": {}, "timestamp": T("50:00.000")}, "isSnapshotUpdate": False},
    user("t1", None, T("50:00.000"), "Bump the version to 0.4.0 and tag it."),
    base("t2", "t1", "attachment", T("50:00.100"), attachment={"type": "hook_non_blocking_error", "hookName": "UserPromptSubmit", "stderr": "lint-prompt: command not found", "stdout": "", "exitCode": 127, "toolUseID": "hook-1", "hookEvent": "UserPromptSubmit"}),
    asst("t3", "t2", T("50:04.000"), "msg_01Types00000001", [text("Version bumped to 0.4.0 in Cargo.toml.")]),
    {"type": "queue-operation", "operation": "enqueue", "timestamp": T("50:05.000"), "sessionId": SID, "content": "also update CHANGELOG"},
    {"type": "queue-operation", "operation": "dequeue", "timestamp": T("50:06.000"), "sessionId": SID},
    base("t4", "t3", "attachment", T("50:06.100"), attachment={"type": "queued_command", "prompt": "also update CHANGELOG", "commandMode": "prompt"}),
    base("t5", "t4", "attachment", T("50:06.200"), attachment={"type": "todo_reminder", "content": [], "itemCount": 0}),
    asst("t6", "t5", T("50:09.000"), "msg_01Types00000002", [text("CHANGELOG has a 0.4.0 section now.")]),
    base("t7", "t6", "system", T("50:09.500"), subtype="stop_hook_summary", hookCount=1, hookInfos=[{"command": "cargo fmt --check", "durationMs": 412}], hookErrors=["Diff in src/main.rs at line 3:\n-use std::io;\n+use std::io::{self};"], preventedContinuation=False, stopReason="", hasOutput=True, level="suggestion", toolUseID="b0e7c1f2", totalDurationMs=412),
    base("t8", "t7", "system", T("50:09.600"), subtype="turn_duration", durationMs=9600, isMeta=False),
    {"type": "mode", "mode": "normal", "sessionId": SID},
    {"type": "ai-title", "aiTitle": "Release 0.4.0", "sessionId": SID},
    {"type": "custom-future-record", "payload": {"kept": True}, "sessionId": SID},
    {"type": "last-prompt", "lastPrompt": "also update CHANGELOG", "leafUuid": "t8", "sessionId": SID},
])
