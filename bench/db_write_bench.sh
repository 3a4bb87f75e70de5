#!/usr/bin/env bash
# db_write_bench.sh: what `scan --db` (a SQLite catalog) costs over `scan -o`
# (JSON Lines) on the same tree, for one or more binaries measured in the same
# run (issue 11's target: --db <= 1.3x -o).
#
#   bench/db_write_bench.sh TREE ERRDEX [ERRDEX...]
#
# TREE: a directory (e.g. the interpreter's library, or store_bench.sh's
# pytree), or GIT_DIR@REV to scan a commit of a repository. Every round runs
# each binary's -o and --db scan back to back (a cold catalog each time), the
# binaries alternating, so a loaded machine's noise falls on all of them; the
# table gives the minimum over ROUNDS (default 3) of wall and CPU (user+sys)
# seconds and the ratios. JOBS (default 2).
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 TREE ERRDEX [ERRDEX...]" >&2; exit 2; }
TREE="$1"; shift
ROUNDS="${ROUNDS:-3}"
JOBS="${JOBS:-2}"
WORK="$(mktemp -d /tmp/errdex-db-bench.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
export NO_COLOR=1
args=("$TREE" --repo o/bench)
if [[ "$TREE" == *@* ]]; then args=("${TREE%@*}" --rev "${TREE##*@}" --repo o/bench); fi

# one NAME CMD...: appends "NAME wall cpu" to $WORK/times.
one() {
  local name="$1"; shift
  /usr/bin/time -f "%e %U %S" -o "$WORK/t" "$@" >/dev/null 2>"$WORK/err" || {
    echo "db_write_bench: $name failed:" >&2; tail -5 "$WORK/err" >&2; exit 1; }
  read -r wall user sys <"$WORK/t"
  echo "$name $wall $(python3 -c "print(f'{$user+$sys:.2f}')")" >>"$WORK/times"
}
for r in $(seq "$ROUNDS"); do
  b=0
  for bin in "$@"; do
    b=$((b + 1))
    one "$b:o" "$bin" scan "${args[@]}" -j "$JOBS" -q -o "$WORK/out.jsonl"
    rm -f "$WORK"/out.db*
    one "$b:db" "$bin" scan "${args[@]}" -j "$JOBS" -q --db "$WORK/out.db"
  done
done
python3 - "$WORK/times" "$@" <<'EOF'
import sys
rows = [l.split() for l in open(sys.argv[1])]
bins = sys.argv[2:]
best = {}
for name, wall, cpu in rows:
    w, c = best.get(name, (1e9, 1e9))
    best[name] = (min(w, float(wall)), min(c, float(cpu)))
print(f"| binary | -o wall / cpu s | --db wall / cpu s | --db/-o wall | --db/-o cpu |")
print("|---|---|---|---|---|")
for i, b in enumerate(bins, 1):
    (ow, oc), (dw, dc) = best[f"{i}:o"], best[f"{i}:db"]
    print(f"| {b} | {ow:.2f} / {oc:.2f} | {dw:.2f} / {dc:.2f} | {dw/ow:.3f} | {dc/oc:.3f} |")
EOF
