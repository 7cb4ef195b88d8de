#!/usr/bin/env python3
"""Counts repeated blocks (the workplace's `duplicates` command) in production and test code
separately, as issue 27's goals count them, and says how many production pairs are only
declarations (struct fields or parameter lists on both sides, alike by shape).

Test code: `tests/` folders, `tests.rs`, `*_tests.rs`, benches, examples, the squash-testkit
crate, and every `#[cfg(test)]` item inside a production file (cut out to its closing brace;
the lines are blanked, so line numbers stay those of the file).

    python3 scripts/duplicates_by_kind.py [--keep DIR]
"""
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIELD = re.compile(r'^\s*(pub(\([a-z]+\))?\s+)?[a-z_][a-z0-9_]*\s*:\s*[^=]*,?\s*$')
THIN = {'{', '}', '},', ');', '(', ')', '],'}


def is_test_file(rel):
    parts = rel.split(os.sep)
    return ('tests' in parts or parts[-1] == 'tests.rs' or parts[-1].endswith('_tests.rs')
            or parts[1] == 'squash-testkit' or 'benches' in parts or 'examples' in parts)


def split(text):
    """(production, test) of one file, each as long as the file."""
    lines = text.split('\n')
    prod, test = [], []
    i = 0
    while i < len(lines):
        if lines[i].strip() == '#[cfg(test)]':
            j, depth, opened = i + 1, 0, False
            block = [lines[i]]
            while j < len(lines):
                line = lines[j]
                block.append(line)
                depth += line.count('{') - line.count('}')
                opened |= '{' in line
                j += 1
                if (opened and depth <= 0) or (not opened and line.rstrip().endswith(';')):
                    break
            test.extend(block)
            prod.extend([''] * len(block))
            i = j
            continue
        prod.append(lines[i])
        test.append('')
        i += 1
    return '\n'.join(prod), '\n'.join(test)


def write_trees(prod_dir, test_dir):
    for root, _, files in os.walk(os.path.join(ROOT, 'crates')):
        for name in files:
            path = os.path.join(root, name)
            rel = os.path.relpath(path, ROOT)
            parts = rel.split(os.sep)
            if len(parts) < 3 or parts[2] not in ('src', 'tests', 'benches', 'examples'):
                continue
            text = open(path, encoding='utf-8', errors='replace').read()
            if is_test_file(rel):
                outs = [(test_dir, text)]
            elif name.endswith('.rs'):
                prod, test = split(text)
                outs = [(prod_dir, prod)] + ([(test_dir, test)] if test.strip() else [])
            else:
                outs = [(prod_dir, text)]
            for base, body in outs:
                target = os.path.join(base, rel)
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with open(target, 'w') as f:
                    f.write(body)


def pairs(tree):
    out = subprocess.run(['duplicates', '--most', '200', '--seconds', '200'], cwd=tree,
                         capture_output=True, text=True, check=False).stdout
    return out


def declaration_only(tree, row):
    m = re.match(r'^D\d+ (\S+):(\d+)-(\d+) ~ (\S+):(\d+)-(\d+)', row)
    if not m:
        return False
    for f, a, b in ((m[1], m[2], m[3]), (m[4], m[5], m[6])):
        body = open(os.path.join(tree, f)).read().split('\n')[int(a) - 1:int(b)]
        lines = [l for l in body if l.strip() and not l.strip().startswith('//')
                 and l.strip() not in THIN]
        if not lines or sum(1 for l in lines if FIELD.match(l)) / len(lines) < 0.6:
            return False
    return True


def main():
    keep = sys.argv[sys.argv.index('--keep') + 1] if '--keep' in sys.argv else None
    base = keep or tempfile.mkdtemp(prefix='dup-kinds-')
    prod_dir, test_dir = os.path.join(base, 'production'), os.path.join(base, 'test')
    for d in (prod_dir, test_dir):
        shutil.rmtree(d, ignore_errors=True)
    write_trees(prod_dir, test_dir)
    counts = collections.Counter()
    for kind, tree in (('production', prod_dir), ('test', test_dir)):
        out = pairs(tree)
        print(f'{kind}: {out.splitlines()[0] if out else "(no answer)"}')
        if kind == 'production':
            rows = [l for l in out.splitlines() if l.startswith('D')]
            decl = [r for r in rows if declaration_only(tree, r)]
            counts['declarations'] = len(decl)
            print(f'  of which declarations only (fields or parameters, both sides): {len(decl)}')
            print(f'  the rest: {len(rows) - len(decl)}')
    if not keep:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == '__main__':
    main()
