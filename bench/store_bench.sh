#!/usr/bin/env bash
# store_bench.sh: the catalog's numbers (issue 11), every ratio against a
# baseline measured in the same run, on a real repository's history.
#
#   bench/store_bench.sh [ERRDEX_BINARY] [GIT_REPO]
#
# GIT_REPO: a repository with 80+ commits of history (bare is fine), default
# flashinfer's mirror. Prints a table, no pass/fail. Environment:
#   JOBS (default 2), ERRDEX_BENCH_DIR (default /tmp/errdex-store-bench),
#   PG_DIR: a running PostgreSQL's socket directory (tests/pg/pg_server.sh
#   start DIR) to add the SQLite-vs-PostgreSQL rows; BIG_TREE: a directory for
#   the peak-RSS row (default: two copies of the interpreter's library, stdlib
#   and site-packages, made once).
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(dirname "$HERE")"
ERRDEX="${1:-$ROOT/build/errdex}"
REPO="${2:-/work/.mirror/flashinfer-ai+flashinfer/repo}"
WORK="${ERRDEX_BENCH_DIR:-/tmp/errdex-store-bench}"
JOBS="${JOBS:-2}"
export NO_COLOR=1
[ -x "$ERRDEX" ] || { echo "store_bench: no errdex binary at $ERRDEX" >&2; exit 2; }
mkdir -p "$WORK"
rm -f "$WORK"/*.db "$WORK"/*.db-*

# run NAME CMD...: wall seconds in $t, peak RSS (KB) in $rss.
run() {
  local name="$1"; shift
  local t0 t1
  t0=$(date +%s.%N)
  local rc=0
  /usr/bin/time -f %M -o "$WORK/$name.rss" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" || rc=$?
  # exit 1 is "nothing found" (explain); 2 and up are errors.
  if [ "$rc" -gt 1 ]; then echo "store_bench: $name failed:" >&2; tail -5 "$WORK/$name.err" >&2; exit 1; fi
  t1=$(date +%s.%N)
  t=$(python3 -c "print(f'{$t1-$t0:.3f}')")
  rss=$(tail -1 "$WORK/$name.rss")
}
bytes() { du -cb "$@" 2>/dev/null | tail -1 | cut -f1; }
ratio() { python3 -c "print(f'{$1/$2:.3f}')"; }
mb() { python3 -c "print(f'{$1/1e6:.1f} MB')"; }
rows=()
row() { rows+=("$(printf '| %s | %s | %s | %s |' "$1" "$2" "$3" "$4")"); }

GITDIR="$REPO"; [ -d "$REPO/.git" ] && GITDIR="$REPO/.git"
git_() { git --git-dir="$GITDIR" "$@"; }
HEAD=$(git_ rev-parse HEAD)
echo "repo: $REPO @ ${HEAD:0:12}; $(nproc) cores; -j $JOBS"

# 1. Catalog size of one commit vs its JSON Lines export.
run one "$ERRDEX" scan "$REPO" --rev "$HEAD" --repo o/bench -j "$JOBS" -q --db "$WORK/one.db"
cold_db=$t
run export "$ERRDEX" export --db "$WORK/one.db"
one_bytes=$(bytes "$WORK"/one.db*)
export_bytes=$(bytes "$WORK/export.out")
records=$(wc -l <"$WORK/export.out")
row "catalog bytes, 1 commit / its JSONL export ($records records)" "$(mb "$one_bytes") / $(mb "$export_bytes")" \
    "$(ratio "$one_bytes" "$export_bytes")" "<= 0.5"

# 2. Four commits 20 apart vs one.
run four "$ERRDEX" scan "$REPO" --rev "$HEAD~60" --rev "$HEAD~40" --rev "$HEAD~20" --rev "$HEAD" --repo o/bench \
    -j "$JOBS" -q --db "$WORK/four.db"
four_bytes=$(bytes "$WORK"/four.db*)
row "catalog bytes, 4 commits 20 apart / 1 commit" "$(mb "$four_bytes") / $(mb "$one_bytes")" \
    "$(ratio "$four_bytes" "$one_bytes")" "<= 1.3"

# 3. HEAD after HEAD~1 is in the catalog vs a cold scan of HEAD (into an empty catalog).
run prev "$ERRDEX" scan "$REPO" --rev "$HEAD~1" --repo o/bench -j "$JOBS" -q --db "$WORK/inc.db"
run inc "$ERRDEX" scan "$REPO" --rev "$HEAD" --repo o/bench -j "$JOBS" -q --db "$WORK/inc.db"
inc=$t
row "scan of HEAD after HEAD~1 / cold scan of HEAD" "${inc} s / ${cold_db} s" "$(ratio "$inc" "$cold_db")" "<= 0.05"

# 4. 20 consecutive commits in one run vs 20 separate cold scans (estimated from
#    one cold scan x 20: each would read the whole tree).
run twenty "$ERRDEX" scan "$REPO" --first-parent "$HEAD~20..$HEAD" --repo o/bench -j "$JOBS" -q --db "$WORK/twenty.db"
twenty=$t
twenty_bytes=$(bytes "$WORK"/twenty.db*)
row "20 consecutive commits in one run / 20 cold scans (20 x cold)" "${twenty} s / $(python3 -c "print(f'{20*$cold_db:.1f}')") s" \
    "$(python3 -c "print(f'{$twenty/(20*$cold_db):.3f}')")" "(shared parsing)"
row "catalog bytes per commit, 20 consecutive commits" "$(mb "$((twenty_bytes / 20))") (1 commit: $(mb "$one_bytes"))" \
    "$(ratio "$twenty_bytes" "$((20 * one_bytes))")" "(vs 20 x 1 commit)"

# 5. --db vs -o on the Python stdlib + dist-packages (a cold catalog each time).
STD="$WORK/pytree"
if [ ! -f "$WORK/pytree.done" ]; then
  rm -rf "$STD" && mkdir -p "$STD"
  cp -r "$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')" "$STD/stdlib"
  [ -d /usr/lib/python3/dist-packages ] && cp -r /usr/lib/python3/dist-packages "$STD/dist-packages"
  touch "$WORK/pytree.done"
fi
best_o=""; best_db=""
for i in 1 2; do
  run o "$ERRDEX" scan "$STD" --repo o/py -j "$JOBS" -q -o "$WORK/py.jsonl"
  if [ -z "$best_o" ] || python3 -c "import sys; sys.exit(0 if $t < $best_o else 1)"; then best_o=$t; o_rss=$rss; fi
  rm -f "$WORK"/py.db*
  run db "$ERRDEX" scan "$STD" --repo o/py -j "$JOBS" -q --db "$WORK/py.db"
  if [ -z "$best_db" ] || python3 -c "import sys; sys.exit(0 if $t < $best_db else 1)"; then best_db=$t; db_rss=$rss; fi
done
pyrec=$(wc -l <"$WORK/py.jsonl")
row "--db / -o, stdlib + dist-packages ($pyrec records, $(mb "$(bytes "$STD")"))" "${best_db} s / ${best_o} s" \
    "$(ratio "$best_db" "$best_o")" "<= 1.3"

# 6. SQLite vs PostgreSQL: write (the same cold scan) and read.
if [ -n "${PG_DIR:-}" ]; then
  URL="postgresql:///postgres?host=$PG_DIR&user=errdex"
  psql "$URL" -qc "DROP SCHEMA IF EXISTS bench CASCADE; CREATE SCHEMA bench" >/dev/null 2>&1
  PURL="$URL&options=-csearch_path%3Dbench"
  run pgdb "$ERRDEX" scan "$STD" --repo o/py -j "$JOBS" -q --db "$PURL"
  row "PostgreSQL / SQLite write, same scan" "${t} s / ${best_db} s" "$(ratio "$t" "$best_db")" "(no target)"
  row "peak RSS: scan --db PostgreSQL / --db SQLite / -o" "$((rss / 1024)) / $((db_rss / 1024)) / $((o_rss / 1024)) MB" "" ""
  printf '%s\n' "Traceback (most recent call last):" '  File "x.py", line 1, in <module>' \
    "ValueError: invalid literal for int() with base 10: 'abc'" >"$WORK/paste.txt"
  # explain: open the catalog (its compiled matcher cached by a first run) and match.
  "$ERRDEX" explain -q --db "$WORK/py.db" "$WORK/paste.txt" >/dev/null 2>&1 || true
  "$ERRDEX" explain -q --db "$PURL" "$WORK/paste.txt" >/dev/null 2>&1 || true
  run sqread "$ERRDEX" explain -q --db "$WORK/py.db" "$WORK/paste.txt"
  sq=$t
  run pgread "$ERRDEX" explain -q --db "$PURL" "$WORK/paste.txt"
  row "PostgreSQL / SQLite: explain (open + match, matcher cached)" "${t} s / ${sq} s" "$(ratio "$t" "$sq")" "(no target)"
fi

# 7. Peak RSS of scan -o (with prose) on the interpreter's whole library (the
#    stdlib with its site-packages: 716 MB here) and on two copies of it: it
#    must stay under 400 MB and grow little with the tree (BIG_TREE: another
#    tree to try instead of the two copies).
LIB="$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')"
BIG="${BIG_TREE:-$WORK/libx2}"
if [ -z "${BIG_TREE:-}" ] && [ ! -f "$WORK/libx2.done" ]; then
  rm -rf "$BIG" && mkdir -p "$BIG"
  for i in 1 2; do cp -r "$LIB" "$BIG/lib$i"; done
  touch "$WORK/libx2.done"
fi
run small "$ERRDEX" scan "$LIB" --repo o/big -j "$JOBS" -q -o /dev/null
small_rss=$rss
run big "$ERRDEX" scan "$BIG" --repo o/big -j "$JOBS" -q -o /dev/null
big_rss=$rss
row "peak RSS, scan -o, $(mb "$(bytes "$BIG")") tree / $(mb "$(bytes "$LIB")") tree" \
    "$((big_rss / 1024)) MB / $((small_rss / 1024)) MB" "$(ratio "$big_rss" "$small_rss")" "<= 400 MB"

echo
echo "| measure | values | ratio | target |"
echo "|---|---|---|---|"
printf '%s\n' "${rows[@]}"
