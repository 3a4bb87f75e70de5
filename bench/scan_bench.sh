#!/usr/bin/env bash
# scan_bench.sh: times `errdex scan` on the Python standard library beside
# ripgrep (finding the raise lines) and the CPython-ast oracle
# (../shared/tools/oracle_py.py). Prints numbers, no pass/fail.
#
#   bench/scan_bench.sh [ERRDEX_BINARY] [CORPUS_DIR]
#
# ERRDEX_BINARY defaults to build/errdex. CORPUS_DIR defaults to a copy of the
# stdlib's .py files (minus site-packages) made once in $ERRDEX_BENCH_DIR
# (default /tmp/errdex-bench). Each command runs 3 times; the best wall-clock
# time is kept; peak RSS is from /usr/bin/time -f %M. Before timing, errdex's
# sites are compared with the oracle's on (file, line, class, pattern) for the
# kinds both know (raise, http, assert): the speed of a wrong answer is no news.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(dirname "$HERE")"
ERRDEX="${1:-$ROOT/build/errdex}"
STDLIB="${STDLIB:-$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')}"
WORK="${ERRDEX_BENCH_DIR:-/tmp/errdex-bench}"
ORACLE="${ORACLE:-$ROOT/../shared/tools/oracle_py.py}"
JOBS="${JOBS:-2}"

[ -x "$ERRDEX" ] || { echo "scan_bench: no errdex binary at $ERRDEX (build it, or pass its path)" >&2; exit 2; }
mkdir -p "$WORK"
CORPUS="${2:-$WORK/stdlib}"
if [ -z "${2:-}" ] && [ ! -f "$WORK/stdlib.done" ]; then
  echo "scan_bench: copying the .py files of $STDLIB to $CORPUS (once)" >&2
  rm -rf "$CORPUS" && mkdir -p "$CORPUS"
  (cd "$STDLIB" && find . -path ./site-packages -prune -o -type f -name '*.py' -print0 |
     tar --null -T - -cf -) | tar -xf - -C "$CORPUS"
  touch "$WORK/stdlib.done"
fi

files=$(find "$CORPUS" -type f -name '*.py' | wc -l)
bytes=$(find "$CORPUS" -type f -name '*.py' -print0 | du -cb --files0-from=- | tail -1 | cut -f1)
mb=$(python3 -c "print(f'{$bytes/1e6:.1f}')")
echo "corpus: $CORPUS: $files .py files, $mb MB; $(nproc) cores; -j $JOBS"

# best_of3 NAME CMD...: runs CMD 3 times (stdout to $WORK/NAME.out), keeps the best
# wall time in $best and the peak RSS (KB) of that run in $rss.
best_of3() {
  local name="$1"; shift
  best=""; rss=""
  for _ in 1 2 3; do
    local t0 t1 t
    t0=$(date +%s.%N)
    /usr/bin/time -f %M -o "$WORK/$name.rss" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" || true
    t1=$(date +%s.%N)
    t=$(python3 -c "print(f'{$t1-$t0:.3f}')")
    if [ -z "$best" ] || python3 -c "import sys; sys.exit(0 if $t < $best else 1)"; then
      best=$t; rss=$(tail -1 "$WORK/$name.rss")
    fi
  done
}

# Correctness first: errdex vs the oracle on the same tree.
"$ERRDEX" scan "$CORPUS" --facts --no-docs -j "$JOBS" --quiet -o "$WORK/errdex_facts.jsonl"
python3 "$ORACLE" "$CORPUS" -j "$JOBS" --no-source >"$WORK/oracle_sites.jsonl" 2>/dev/null
python3 - "$WORK/errdex_facts.jsonl" "$WORK/oracle_sites.jsonl" <<'EOF'
import json, sys
kinds = {"raise", "http", "assert"}
def key(path, line, cls, pat): return (path, line, cls, pat)
mine = set(); oracle = set(); oracle_files = set()
for l in open(sys.argv[2], encoding="utf-8", errors="replace"):
    r = json.loads(l)
    oracle_files.add(r["filePath"])
    if r["kind"] in kinds:
        oracle.add(key(r["filePath"], r["lineNumber"], r["errorClass"], r["messagePattern"]))
for l in open(sys.argv[1], encoding="utf-8", errors="replace"):
    o = json.loads(l); r = o["record"]; f = o["facts"]
    if f["kind"] in kinds and r["filePath"] in oracle_files:
        mine.add(key(r["filePath"], r["lineNumber"], r["errorClass"], r["messagePattern"]))
both = len(mine & oracle)
print(f"vs oracle (file, line, class, pattern; raise/http/assert, files the oracle parsed): "
      f"errdex {len(mine)}, oracle {len(oracle)}, recall {both/max(1,len(oracle)):.4f}, "
      f"precision {both/max(1,len(mine)):.4f}")
EOF

best_of3 rg rg -n '^\s*raise\b' "$CORPUS"
t_rg=$best; rss_rg=$rss
best_of3 errdex_nodocs "$ERRDEX" scan "$CORPUS" -o "$WORK/out_nodocs.jsonl" --no-docs -j "$JOBS" --quiet
t_nd=$best; rss_nd=$rss
best_of3 errdex_docs "$ERRDEX" scan "$CORPUS" -o "$WORK/out_docs.jsonl" -j "$JOBS" --quiet
t_d=$best; rss_d=$rss
best_of3 oracle python3 "$ORACLE" "$CORPUS" -j "$JOBS"
t_or=$best; rss_or=$rss

sites=$(wc -l <"$WORK/out_nodocs.jsonl")
python3 - "$bytes" "$sites" "$t_rg" "$rss_rg" "$t_nd" "$rss_nd" "$t_d" "$rss_d" "$t_or" "$rss_or" <<'EOF'
import sys
b = float(sys.argv[1]); sites = int(sys.argv[2])
rows = [("rg -n '^\\s*raise\\b'", sys.argv[3], sys.argv[4]),
        ("errdex scan --no-docs -j2", sys.argv[5], sys.argv[6]),
        ("errdex scan -j2 (docs)", sys.argv[7], sys.argv[8]),
        ("oracle_py.py -j 2 (CPython ast)", sys.argv[9], sys.argv[10])]
print(f"{'command':34} {'best s':>8} {'MB/s':>8} {'peak RSS MB':>12}")
for name, t, rss in rows:
    t = float(t)
    print(f"{name:34} {t:8.3f} {b/1e6/t:8.1f} {int(rss)/1024:12.1f}")
t_rg, t_nd, t_d, t_or = (float(sys.argv[i]) for i in (3, 5, 7, 9))
print(f"sites written: {sites}")
print(f"errdex(--no-docs)/rg = {t_nd/t_rg:.1f}x   errdex(docs)/rg = {t_d/t_rg:.1f}x   "
      f"oracle/errdex(--no-docs) = {t_or/t_nd:.1f}x   oracle/errdex(docs) = {t_or/t_d:.1f}x")
EOF
