#!/usr/bin/env bash
# doc_speed.sh: what the document stage costs a scan -- `errdex scan` with prose
# against the same scan with --no-docs, measured in the same run, on the Python
# standard library and on any given repositories (bare mirrors are scanned at HEAD).
# Prints, per corpus, the best wall time of each of ROUNDS interleaved runs and the
# ratio; with CALLGRIND=1 also the instruction counts under valgrind --tool=callgrind
# (-j1; repeatable on a noisy machine) and their ratio. The issue's target is a
# ratio of at most 1.3. No pass/fail.
#
#   bench/doc_speed.sh [ERRDEX_BINARY] [CORPUS...]     (CORPUS: a directory, a bare git mirror, or "stdlib")
#
# ROUNDS (default 5), JOBS (default 2), CALLGRIND (default 0).
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(dirname "$HERE")"
ERRDEX="${1:-$ROOT/build/errdex}"
shift || true
WORK="${ERRDEX_BENCH_DIR:-/tmp/errdex-bench}"
ROUNDS="${ROUNDS:-5}"
JOBS="${JOBS:-2}"
CALLGRIND="${CALLGRIND:-0}"
[ -x "$ERRDEX" ] || { echo "doc_speed: no errdex binary at $ERRDEX" >&2; exit 2; }
mkdir -p "$WORK"

corpora=("$@")
[ ${#corpora[@]} -eq 0 ] && corpora=(stdlib)

stdlib_corpus() {
  local stdlib
  stdlib="${STDLIB:-$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')}"
  if [ ! -f "$WORK/stdlib.done" ]; then
    rm -rf "$WORK/stdlib" && mkdir -p "$WORK/stdlib"
    (cd "$stdlib" && find . -path ./site-packages -prune -o -type f -name '*.py' -print0 |
       tar --null -T - -cf -) | tar -xf - -C "$WORK/stdlib"
    touch "$WORK/stdlib.done"
  fi
  echo "$WORK/stdlib"
}

now() { date +%s.%N; }

echo "| corpus | sites | scan --no-docs (s) | scan (s) | ratio | Ir --no-docs | Ir | Ir ratio |"
echo "|---|---|---|---|---|---|---|---|"
for c in "${corpora[@]}"; do
  args=()
  if [ "$c" = stdlib ]; then
    path="$(stdlib_corpus)"; name=stdlib
  elif [ -f "$c/HEAD" ] && [ ! -d "$c/.git" ]; then
    path="$c"; name="$(basename "$(dirname "$c")")"; args=(--rev HEAD)
  else
    path="$c"; name="$(basename "$c")"
  fi
  best_n=""; best_d=""
  for _ in $(seq "$ROUNDS"); do
    # Interleaved, so a slow moment of the machine hits both.
    t0=$(now); "$ERRDEX" scan "$path" "${args[@]}" -o /dev/null -j "$JOBS" --quiet --no-docs >/dev/null 2>&1 || true; t1=$(now)
    "$ERRDEX" scan "$path" "${args[@]}" -o /dev/null -j "$JOBS" --quiet >/dev/null 2>&1 || true; t2=$(now)
    n=$(python3 -c "print(f'{$t1-$t0:.3f}')"); d=$(python3 -c "print(f'{$t2-$t1:.3f}')")
    if [ -z "$best_n" ] || python3 -c "import sys; sys.exit(0 if $n < $best_n else 1)"; then best_n=$n; fi
    if [ -z "$best_d" ] || python3 -c "import sys; sys.exit(0 if $d < $best_d else 1)"; then best_d=$d; fi
  done
  sites=$("$ERRDEX" scan "$path" "${args[@]}" -o - -j "$JOBS" --quiet --no-docs 2>/dev/null | wc -l)
  ratio=$(python3 -c "print(f'{$best_d/$best_n:.2f}')")
  ir_n="-"; ir_d="-"; ir_ratio="-"
  if [ "$CALLGRIND" = 1 ] && command -v valgrind >/dev/null; then
    ir() {
      valgrind --tool=callgrind --callgrind-out-file=/dev/null "$ERRDEX" scan "$path" "${args[@]}" -o /dev/null -j 1 --quiet "$@" 2>&1 |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p' | tail -1
    }
    ir_n=$(ir --no-docs); ir_d=$(ir)
    ir_ratio=$(python3 -c "print(f'{$ir_d/$ir_n:.2f}')")
  fi
  echo "| $name | $sites | $best_n | $best_d | $ratio | $ir_n | $ir_d | $ir_ratio |"
done
