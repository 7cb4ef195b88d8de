"""How small can a note of the hand-written chats (chats.py) get by picking words that are
already there? A throwaway estimate for issue 28, not part of the product or its tests.

Greedy cover: split each message into clauses (at sentence ends, commas, semicolons,
colons and before "but/and/so/because/which"), give each clause its salient terms (numbers,
paths, ids, names written with a capital inside a sentence, hyphenated words, words of 7+
letters), and take clauses by new salient terms per token until every term is covered.
Tokens are chars/4; a fact is kept when one of its spellings is in the text (the eval's rule).

Run: python3 testdata/eval/extractive_bound.py [--sentences] [--strong]
(--strong: only numbers, paths, ids, names and hyphenated words are salient, not long words.)
"""
import re
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from chats import chats  # noqa: E402

STOP = set("""a an the and or but if then so of to in on at for with by from as is are was
were be been it its this that these those i you we they he she my your our their me us them
not no yes do does did have has had will would can could should may might just also very
really only than more most less much many some any all each every one two what which who whom
how why when where there here about into over after before up down out off again once same
other such own too don now let let's okay ok sure thanks hi fine great""".split())


def text(message):
    item = message["content"][0]
    return item.get("text") or item["structured"]["full_text"]


def units(body, clauses):
    out = []
    for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z\"'(])", body.strip()):
        if not clauses:
            out.append(sentence)
            continue
        parts = re.split(r"(?<=[,;:])\s+|\s+(?=\(|but |and |so |because |which )", sentence)
        out += [p for p in parts if p.strip()]
    return out


def salient(unit):
    out = set()
    for i, word in enumerate(re.findall(r"[\w'’.%/#:-]*\w%?|'\w+", unit)):
        low = word.lower().strip(".")
        if low in STOP or (len(low) < 3 and not re.search(r"\d", low)):
            continue
        if (re.search(r"[\d_/#]", word) or (word[0].isupper() and i > 0)
                or (len(low) >= 7 and "--strong" not in sys.argv) or "-" in word):
            out.add(low)
    return out


def tokens(s):
    return max(1, round(len(s) / 4))


def note(messages, clauses):
    pool = [(m["role"], u, salient(u)) for m in messages for u in units(text(m), clauses)]
    covered, chosen = set(), []
    while True:
        best, best_score = None, 0.0
        for k, (_, unit, terms) in enumerate(pool):
            new = len(terms - covered)
            if k in chosen or new == 0:
                continue
            if new / tokens(unit) > best_score:
                best, best_score = k, new / tokens(unit)
        if best is None:
            break
        chosen.append(best)
        covered |= pool[best][2]
    return "\n".join(("User: " if pool[k][0] == "user" else "") + pool[k][1] for k in sorted(chosen))


def main():
    clauses = "--sentences" not in sys.argv
    totals = {}
    for case in chats:
        source = "\n".join(text(m) for m in case["messages"])
        body = note(case["messages"], clauses).lower()
        kept = sum(any(s in body for s in fact) for fact in case["facts"])
        ratio = tokens(body) / tokens(source)
        t = totals.setdefault(case["origin"], [0, 0, []])
        t[0] += kept
        t[1] += len(case["facts"])
        if tokens(source) >= 200:
            t[2].append(ratio)
        print(f"{case['name']:34} facts {kept}/{len(case['facts'])}  {tokens(source)}->{tokens(body)} tokens  {ratio:.0%}")
    for origin, (kept, total, ratios) in totals.items():
        ratios.sort()
        median = ratios[len(ratios) // 2] if ratios else float("nan")
        print(f"{origin}: facts {kept}/{total}  >=200 tokens: median {median:.0%}, worst {max(ratios, default=0):.0%}")


if __name__ == "__main__":
    main()
