#!/usr/bin/env python3
"""lang_oracle.py: errdex's Rust, Go, Java and JavaScript/TypeScript front ends
against an oracle built on each language's own compiler front end.

The oracles (tests/diff/rust_oracle: the syn crate; go_oracle: go/parser + go/ast;
JavaOracle.java: javac's com.sun.source tree; ts_oracle.js: the TypeScript compiler
API) apply the site and message rules of src/extract/<lang>/ a second time, written
independently, on that language's own syntax tree. Each prints one JSON line per
site: {"file", "line", "kind", "class", "segs"} (segs: the message as
[[is_hole, text], ...], null when unknown; or "alts", a list of such messages), or {"file", "error"} for a file it
cannot parse.

This script copies a deterministic sample of CORPUS's files (by the hash of their
path) into a temporary tree, runs `errdex scan --facts` and the oracle on it, and
compares (file, line, class) as multisets: recall and precision. On the sites both
found it compares messagePattern with the pattern the oracle's message renders to
(the one form of src/model/pattern.h), where the oracle knows the message.

  lang_oracle.py CORPUS --lang rust|go|java|ts --errdex build/errdex --oracle 'CMD ...'
                 [--max-files N] [--min-recall R] [--min-precision P] [--min-pattern M]
                 [--examples K] [--exclude REGEX]

The oracle is run as CMD ... ROOT - with the file list on stdin. Exit 0 when every
threshold holds, 1 when one does not, 2 on a usage or tool error.
"""
import argparse
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections import Counter

EXTS = {
    'rust': ('.rs',),
    'go': ('.go',),
    'java': ('.java',),
    'ts': ('.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx'),
}
SKIP = {'ts': ('.min.js', '.d.ts')}
SKIP_DIRS = {'__pycache__', 'node_modules'}


def escape(t):
    return ''.join('\\' + c if c in '.*+?^${}()|[]\\' else c for c in t)


def pattern_of(segs):
    """The messagePattern of one message (model/pattern.h); None without literal text."""
    if segs is None or not any(not h and t for h, t in segs):
        return None
    p, prev = '', False
    for h, t in segs:
        if h:
            if not prev:
                p += '(.*?)'
            prev = True
        elif t:
            p += escape(t)
            prev = False
    return p


def pattern_of_alts(alts):
    pats = []
    has = False
    for segs in alts:
        pt = pattern_of(segs)
        if pt is not None:
            has = True
        else:
            pt = '(.*?)'
        if pt not in pats:
            pats.append(pt)
    if not has:
        return None
    return pats[0] if len(pats) == 1 else '(?:' + '|'.join(pats) + ')'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('corpus')
    ap.add_argument('--lang', required=True, choices=sorted(EXTS))
    ap.add_argument('--errdex', required=True)
    ap.add_argument('--oracle', required=True, help='the oracle command (ROOT and - are appended)')
    ap.add_argument('--max-files', type=int, default=0)
    ap.add_argument('--max-bytes', type=int, default=1 << 20, help='files larger than this are left out')
    ap.add_argument('--min-recall', type=float, default=0.0)
    ap.add_argument('--min-precision', type=float, default=0.0)
    ap.add_argument('--min-pattern', type=float, default=0.0)
    ap.add_argument('--examples', type=int, default=5)
    ap.add_argument('--exclude', help='a regex of paths to leave out')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--dump', help='write both sides as JSON Lines to this file')
    a = ap.parse_args()

    root = os.path.abspath(a.corpus)
    if not os.path.isdir(root):
        print(f'lang_oracle: {root} is not a directory', file=sys.stderr)
        return 2
    exclude = re.compile(a.exclude) if a.exclude else None
    files = []
    for d, dirs, names in os.walk(root):
        # the directories errdex does not read (extract/common/file_source.cc)
        dirs[:] = sorted(x for x in dirs if not x.startswith('.') and x not in SKIP_DIRS)
        for nm in names:
            if not nm.endswith(EXTS[a.lang]) or nm.endswith(SKIP.get(a.lang, ('\0',))):
                continue
            full = os.path.join(d, nm)
            rel = os.path.relpath(full, root).replace(os.sep, '/')
            if exclude and exclude.search(rel):
                continue
            try:
                if os.path.islink(full) or os.path.getsize(full) > a.max_bytes:
                    continue
            except OSError:
                continue
            files.append(rel)
    files.sort()
    if not files:
        print(f'lang_oracle: no {a.lang} files under {root}', file=sys.stderr)
        return 2
    sample = files
    if a.max_files and len(files) > a.max_files:
        sample = sorted(files, key=lambda p: hashlib.sha1(p.encode()).hexdigest())[:a.max_files]
        sample.sort()

    with tempfile.TemporaryDirectory() as tmp:
        tree = os.path.join(tmp, 'corpus')
        for f in sample:
            dst = os.path.join(tree, f)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(os.path.join(root, f), dst)
        out = os.path.join(tmp, 'errdex.jsonl')
        p = subprocess.run([a.errdex, 'scan', tree, '--repo', 'oracle/corpus', '--facts', '--no-docs', '-j',
                            str(a.jobs), '--quiet', '-o', out], capture_output=True)
        if p.returncode not in (0, 1):
            print('lang_oracle: errdex scan failed: ' + p.stderr.decode('utf-8', 'replace'), file=sys.stderr)
            return 2
        mine = {}
        with open(out, encoding='utf-8', errors='replace') as fh:
            for line in fh:
                fa = json.loads(line)['facts']
                mine.setdefault(fa['filePath'], []).append(fa)
        cmd = shlex.split(a.oracle) + [tree, '-']
        p = subprocess.run(cmd, input='\n'.join(sample).encode(), capture_output=True)
        if p.returncode != 0:
            print('lang_oracle: the oracle failed (%d): %s' % (p.returncode, p.stderr.decode('utf-8', 'replace')[-4000:]),
                  file=sys.stderr)
            return 2
        theirs, failed = {}, []
        for line in p.stdout.decode('utf-8', 'replace').splitlines():
            if not line.strip():
                continue
            o = json.loads(line)
            if 'error' in o:
                failed.append((o['file'], o['error']))
                continue
            theirs.setdefault(o['file'], []).append(o)

    failed_files = {f for f, _ in failed}
    both = only_o = only_e = 0
    pat_ok = pat_n = 0
    ex_o, ex_e, ex_p = [], [], []
    kinds_o, kinds_e = Counter(), Counter()
    dump = open(a.dump, 'w') if a.dump else None
    for f in sample:
        if f in failed_files:
            continue
        okeys, ekeys = {}, {}
        for s in theirs.get(f, []):
            s['pattern'] = pattern_of_alts(s['alts']) if s.get('alts') else pattern_of(s.get('segs'))
            okeys.setdefault((s['line'], s.get('class')), []).append(s)
            if dump:
                dump.write(json.dumps({'side': 'oracle', 'file': f, 'line': s['line'], 'class': s.get('class'),
                                       'pattern': s['pattern']}) + '\n')
        for s in mine.get(f, []):
            ekeys.setdefault((s['lineNumber'], s.get('errorClass')), []).append(s)
            if dump:
                dump.write(json.dumps({'side': 'errdex', 'file': f, 'line': s['lineNumber'],
                                       'class': s.get('errorClass'), 'pattern': s.get('messagePattern')}) + '\n')
        for k in set(okeys) | set(ekeys):
            o, e = okeys.get(k, []), ekeys.get(k, [])
            m = min(len(o), len(e))
            both += m
            for x in o[m:]:
                only_o += 1
                kinds_o[x['kind']] += 1
                ex_o.append((f, k, x.get('pattern')))
            for x in e[m:]:
                only_e += 1
                kinds_e[x['kind']] += 1
                ex_e.append((f, k, x.get('messagePattern')))
            if m:
                rem = [x.get('messagePattern') for x in e]
                for x in o:
                    pt = x['pattern']
                    if pt is None:
                        continue
                    pat_n += 1
                    if pt in rem:
                        rem.remove(pt)
                        pat_ok += 1
                    else:
                        ex_p.append((f, k, pt, [y.get('messagePattern') for y in e]))
    if dump:
        dump.close()
    n_o, n_e = both + only_o, both + only_e
    recall = both / n_o if n_o else 1.0
    precision = both / n_e if n_e else 1.0
    pat = pat_ok / pat_n if pat_n else 1.0
    print(f'lang_oracle[{a.lang}]: {len(sample)} files ({len(files)} in the corpus), {len(failed)} the oracle '
          f'could not parse; oracle {n_o} sites, errdex {n_e}, common {both}')
    print(f'lang_oracle[{a.lang}]: recall {recall:.4f}  precision {precision:.4f}  '
          f'pattern exact {pat:.4f} ({pat_ok}/{pat_n})')
    if kinds_o or kinds_e:
        print(f'  only in the oracle by kind: {dict(kinds_o)}; only in errdex by kind: {dict(kinds_e)}')
    for f, err in failed[:a.examples]:
        print(f'  oracle parse error: {f}: {err[:200]}')
    for title, exs in (('only in the oracle', ex_o), ('only in errdex', ex_e)):
        for x in exs[:a.examples]:
            print(f'  {title}: {x[0]}:{x[1][0]} class={x[1][1]} pattern={x[2]!r}')
    for x in ex_p[:a.examples]:
        print(f'  pattern differs: {x[0]}:{x[1][0]} class={x[1][1]}\n    oracle {x[2]!r}\n    errdex {x[3]!r}')
    ok = recall >= a.min_recall and precision >= a.min_precision and pat >= a.min_pattern
    if not ok:
        print(f'lang_oracle[{a.lang}]: FAILED: below --min-recall/--min-precision/--min-pattern')
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
