#!/usr/bin/env python3
"""Check compaction_facts_heldout4.json: every spelling of every fact must occur verbatim in
the history before the session's first compaction, reading only the session file.

Codex rollout: the JSON string values of the lines before the first `compacted` line
(`--strict`: of the `response_item` lines only). opencode export: the string values of the
messages before the first one holding a `compaction` part."""
import json, sys, pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
STRICT = "--strict" in sys.argv

def strings(v, out):
    if isinstance(v, str):
        out.append(v)
    elif isinstance(v, dict):
        for x in v.values():
            strings(x, out)
    elif isinstance(v, list):
        for x in v:
            strings(x, out)

def history(entry):
    path = ROOT / "sessions" / entry["session"]
    out = []
    if entry.get("agent") == "opencode":
        doc = json.loads(path.read_text(encoding="utf-8"))
        msgs = doc["messages"]
        b = next(i for i, m in enumerate(msgs)
                 if any(p.get("type") == "compaction" for p in m.get("parts", [])))
        strings(msgs[:b], out)
        return out
    lines = [json.loads(l) for l in path.read_text(encoding="utf-8").splitlines() if l.strip()]
    if entry.get("agent") == "codex":
        b = next(i for i, o in enumerate(lines) if o.get("type") == "compacted")
        kept = [o for o in lines[:b] if not STRICT or o.get("type") == "response_item"]
        strings(kept, out)
        return out
    raise SystemExit(f"{entry['name']}: agent {entry.get('agent')!r} not handled here")

def main():
    facts = json.loads((ROOT / "eval" / "compaction_facts_heldout4.json").read_text(encoding="utf-8"))
    bad = 0
    for entry in facts:
        text = "\n".join(history(entry))
        missing = [s for fact in entry["facts"] for s in fact if s not in text]
        n = len(entry["facts"])
        print(f"{entry['name']}: {n} facts, {sum(len(f) for f in entry['facts'])} spellings, "
              f"{len(missing)} missing")
        for s in missing:
            print(f"  MISSING: {s!r}")
        bad += len(missing) + (not 15 <= n <= 30)
    print("OK" if bad == 0 else f"FAILED ({bad})")
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main())
