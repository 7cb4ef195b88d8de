"""The smallest extractive note of each squash case: a lower bound on what any note made of
the selection's own sentences (or clauses) can weigh while keeping every hand-written fact.

For each case of `cases.json` whose selection is text only (chats, Q&A, design discussions: no
tool calls), the selection is cut into sentences (and, finer, into clauses at ", " and "; "),
and an integer program (PuLP with CBC) picks the set of pieces of least total weight that holds
one spelling of every key fact (case-insensitive, as `examples/eval/score.rs` counts a fact),
weighed by the scorer's own token rule. A fact no single piece holds is left out of the
program and counted. Prints per case and the median / worst ratio over the cases of at least
200 tokens, by origin (QUALITY.md, issue 28's size goal).

    pip install pulp
    python3 testdata/eval/cases.py && python3 testdata/eval/fact_cover_bound.py
"""

import json
import re
import statistics
import sys

import pulp

TOKEN = re.compile(r"[A-Za-z]{1,6}|\d{1,3}|[^\sA-Za-z\d]{1,2}")
SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+|\n+|(?<=[。！？])")
CLAUSE_END = re.compile(r"(?<=[,;、])\s*")


def tokens(text):
    return len(TOKEN.findall(text))


def item_text(item):
    """The text of a content item as the scorer reads it; None for a tool call or result."""
    kind = item.get("type")
    if kind in ("user_message", "text"):
        return item.get("text", "")
    if kind == "assistant_message":
        if "text" in item:
            return item["text"]
        return item.get("structured", {}).get("full_text", "")
    return None


def selection_texts(case):
    """The texts of the selected messages, or None when the selection holds a tool item."""
    messages = case.get("messages")
    if not messages:
        return None
    picked = case.get("select")
    if picked:
        messages = [m for i, m in enumerate(messages, 1) if i in picked]
    texts = []
    for m in messages:
        parts = [item_text(i) for i in m["content"]]
        if any(p is None for p in parts):
            return None
        texts.append("\n".join(parts))
    return texts


def pieces(texts, clauses):
    out = []
    for text in texts:
        for sentence in SENTENCE_END.split(text):
            if not sentence.strip():
                continue
            parts = CLAUSE_END.split(sentence) if clauses else [sentence]
            out.extend(p for p in parts if p.strip())
    return out


def smallest(pieces_, facts):
    """The least weight of pieces holding every fact some piece holds, and the facts none holds."""
    lowered = [p.lower() for p in pieces_]
    holds = [
        [i for i, p in enumerate(lowered) if any(s.lower() in p for s in spellings)]
        for spellings in facts
    ]
    unheld = sum(1 for h in holds if not h)
    problem = pulp.LpProblem("note", pulp.LpMinimize)
    take = [pulp.LpVariable(f"p{i}", cat="Binary") for i in range(len(pieces_))]
    problem += pulp.lpSum(tokens(p) * t for p, t in zip(pieces_, take))
    for h in holds:
        if h:
            problem += pulp.lpSum(take[i] for i in h) >= 1
    problem.solve(pulp.PULP_CBC_CMD(msg=False))
    weight = sum(tokens(p) for p, t in zip(pieces_, take) if (t.value() or 0) > 0.5)
    return weight, unheld


def main(path="testdata/eval/cases.json"):
    cases = json.load(open(path))
    rows = []
    for case in cases:
        texts = selection_texts(case)
        if texts is None:
            continue
        whole = tokens("\n\n".join(texts))
        sentences, unheld = smallest(pieces(texts, False), case["facts"])
        clauses, _ = smallest(pieces(texts, True), case["facts"])
        rows.append((case["origin"], case["name"], whole, sentences, clauses, unheld))
        print(
            f"{case['origin']:16} {case['name']:40} {whole:5} tokens  "
            f"sentences {sentences:4} ({sentences / whole:4.0%})  "
            f"clauses {clauses:4} ({clauses / whole:4.0%})  "
            f"facts in no one piece {unheld}"
        )
    print()
    big = [r for r in rows if r[2] >= 200]
    for origin in sorted({r[0] for r in big}) + ["all"]:
        of = [r for r in big if origin in ("all", r[0])]
        s = [r[3] / r[2] for r in of]
        c = [r[4] / r[2] for r in of]
        print(
            f"{origin:16} {len(of):2} cases of >= 200 tokens: sentences median "
            f"{statistics.median(s):.0%} worst {max(s):.0%}; clauses median "
            f"{statistics.median(c):.0%} worst {max(c):.0%}"
        )


if __name__ == "__main__":
    main(*sys.argv[1:])
