#!/usr/bin/env python3
"""Writes a large, realistic Claude Code session (JSONL) for the import benchmark.

Usage: gen-claude-session.py OUT.jsonl [MEGABYTES]

Deterministic (fixed seed). Each turn: a user prompt; one API response written as several
assistant lines sharing message.id (thinking with signature, text, tool calls); the tool results
with a tool-specific toolUseResult, some of them errors; now and then a file-history snapshot, a
system line, and a Task sub-agent run (isSidechain lines).
"""
import json
import random
import sys
import uuid

out_path = sys.argv[1]
target = int(float(sys.argv[2]) if len(sys.argv) > 2 else 64) * 1_000_000
rng = random.Random(6)
session = "5e55a0b1-0000-4000-8000-000000000001"
cwd = "/home/dev/bench-project"
words = ("fn let mut impl struct enum match Some None Ok Err return self async await "
         "crate use pub mod trait where loop while for in if else String Vec HashMap "
         "result error thread message squash import export parse line json value").split()


def text(n_words):
    return " ".join(rng.choice(words) for _ in range(n_words))


def code(n_lines):
    return "\n".join(f"{i + 1:>5}\t    {text(rng.randint(3, 12))};" for i in range(n_lines))


def new_id():
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


clock = [1_756_860_000.0]


def ts():
    clock[0] += rng.uniform(0.05, 3.0)
    whole = int(clock[0])
    ms = int((clock[0] - whole) * 1000)
    import time
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole)) + f".{ms:03d}Z"


def base(kind, parent, sidechain=False):
    return {"parentUuid": parent, "isSidechain": sidechain, "userType": "external", "cwd": cwd,
            "sessionId": session, "version": "1.0.108", "gitBranch": "main", "type": kind,
            "uuid": new_id(), "timestamp": ts()}


def write(f, line):
    s = json.dumps(line, separators=(",", ":"), ensure_ascii=False)
    f.write(s)
    f.write("\n")
    return len(s) + 1


def response(f, parent, sidechain=False, tools=None):
    """One API response: thinking, text, tool calls — one line each. Returns (last uuid, calls)."""
    msg_id = "msg_01" + new_id().replace("-", "")[:22]
    req = "req_011" + new_id().replace("-", "")[:20]
    blocks = [{"type": "thinking", "thinking": text(rng.randint(40, 160)),
               "signature": "Er" + new_id().replace("-", "") * 6},
              {"type": "text", "text": text(rng.randint(20, 120))}]
    calls = []
    for _ in range(tools if tools is not None else rng.randint(0, 4)):
        name = rng.choice(["Read", "Bash", "Grep", "Edit", "Glob"])
        call_id = "toolu_01" + new_id().replace("-", "")[:24]
        calls.append((call_id, name))
        blocks.append({"type": "tool_use", "id": call_id, "name": name,
                       "input": {"file_path": f"{cwd}/src/{rng.choice(words)}.rs",
                                 "command": text(6)}})
    size = 0
    for b in blocks:
        line = base("assistant", parent, sidechain)
        line["message"] = {"id": msg_id, "type": "message", "role": "assistant",
                           "model": "claude-sonnet-4-20250514", "content": [b],
                           "stop_reason": None, "stop_sequence": None,
                           "usage": {"input_tokens": rng.randint(1, 9),
                                     "cache_creation_input_tokens": rng.randint(0, 9000),
                                     "cache_read_input_tokens": rng.randint(0, 90000),
                                     "output_tokens": rng.randint(10, 900),
                                     "service_tier": "standard"}}
        line["requestId"] = req
        size += write(f, line)
        parent = line["uuid"]
    return parent, calls, size


def results(f, parent, calls, sidechain=False):
    size = 0
    for call_id, name in calls:
        body = code(rng.randint(20, 160))
        error = rng.random() < 0.05
        line = base("user", parent, sidechain)
        line["message"] = {"role": "user", "content": [
            {"tool_use_id": call_id, "type": "tool_result", "content": body, "is_error": error}
            if error else {"tool_use_id": call_id, "type": "tool_result", "content": body}]}
        line["toolUseResult"] = ("Error: " + body[:200]) if error else {
            "type": "text", "file": {"filePath": f"{cwd}/src/x.rs", "content": body[:2000],
                                     "numLines": 40, "startLine": 1, "totalLines": 400}}
        size += write(f, line)
        parent = line["uuid"]
    return parent, size


with open(out_path, "w", encoding="utf-8") as f:
    size = write(f, {"type": "summary", "summary": "Benchmark session", "leafUuid": new_id()})
    parent = None
    turn = 0
    while size < target:
        turn += 1
        prompt = base("user", parent)
        prompt["message"] = {"role": "user", "content": text(rng.randint(5, 60))}
        size += write(f, prompt)
        parent = prompt["uuid"]
        if turn % 40 == 0:
            snap = {"type": "file-history-snapshot", "messageId": prompt["uuid"],
                    "snapshot": {"messageId": prompt["uuid"], "trackedFileBackups": {},
                                 "timestamp": prompt["timestamp"]}, "isSnapshotUpdate": False}
            size += write(f, snap)
        for _ in range(rng.randint(1, 4)):
            parent, calls, n = response(f, parent)
            size += n
            if not calls:
                break
            if turn % 25 == 0 and calls:
                # A sub-agent run between the call and its result, as Claude Code writes it.
                side_parent = None
                first = base("user", None, True)
                first["message"] = {"role": "user", "content": text(30)}
                size += write(f, first)
                side_parent = first["uuid"]
                for _ in range(3):
                    side_parent, side_calls, n = response(f, side_parent, True, tools=1)
                    size += n
                    side_parent, n = results(f, side_parent, side_calls, True)
                    size += n
            parent, n = results(f, parent, calls)
            size += n
        if turn % 60 == 0:
            sys_line = base("system", parent)
            sys_line.update({"subtype": "informational", "content": "Auto-update available",
                             "level": "info", "isMeta": False})
            size += write(f, sys_line)
            parent = sys_line["uuid"]
print(f"{out_path}: {size / 1e6:.1f} MB, {turn} turns", file=sys.stderr)
