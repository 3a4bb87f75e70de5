#!/bin/sh
# slurm_tasks_test.sh ERRDEX: deploy/slurm's array task script and merge, run
# here without Slurm (SLURM_ARRAY_TASK_ID set by hand, as slurmd would): 20
# (repo, rev) tasks over two generated repositories, one task killed midway and
# run again (a requeue), the shards merged twice -- the catalog must equal a
# serial scan of the same 20 commits, and the second merge must write nothing.
# (The real-Slurm test -- slurmctld + slurmd + munge -- is not written yet.)
set -eu
errdex=$(realpath "${1:?errdex binary}")
here=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export SOURCE_DATE_EPOCH=1700000000 NO_COLOR=1 ERRDEX="$errdex"
git_() { git -C "$1" -c user.name=t -c user.email=t@example.com "$@"; }
: >"$t/tasks"
for r in alpha beta; do
  mkdir -p "$t/$r/pkg" && git -C "$t/$r" init -q
  for i in $(seq 1 10); do
    printf 'def f%s(x):\n    if x < %s:\n        raise ValueError("x below %s in %s")\n' "$i" "$i" "$i" "$r" >"$t/$r/pkg/m$i.py"
    printf 'def g(y):\n    raise KeyError("version %s of %s")\n' "$i" "$r" >"$t/$r/pkg/common.py"
    git -C "$t/$r" add -A && git -C "$t/$r" -c user.name=t -c user.email=t@example.com commit -qm "c$i"
    echo "$t/$r $(git -C "$t/$r" rev-parse HEAD) o/$r" >>"$t/tasks"
  done
done
[ "$(grep -c . "$t/tasks")" = 20 ] || { echo "FAIL: expected 20 tasks"; exit 1; }
# The array: task 7 is killed at once and requeued; every task then runs.
SLURM_ARRAY_TASK_ID=7 timeout -s KILL 0.02 "$here/deploy/slurm/scan_task.sh" "$t/tasks" "$t/shards" || true
[ ! -e "$t/shards/7.errdex" ] || [ -s "$t/shards/7.errdex" ] || { echo "FAIL: an empty shard 7 after a kill"; exit 1; }
for id in $(seq 1 20); do
  SLURM_ARRAY_TASK_ID=$id "$here/deploy/slurm/scan_task.sh" "$t/tasks" "$t/shards"
done
ls "$t/shards"/.task-* >/dev/null 2>&1 && { echo "FAIL: temporary shards left"; exit 1; }
"$errdex" merge "$t/shards"/*.errdex --db "$t/merged.db" >/dev/null
again=$("$errdex" merge "$t/shards"/*.errdex --db "$t/merged.db" --json)
case $again in *'"written":0,'*) ;; *) echo "FAIL: a second merge wrote: $again"; exit 1 ;; esac
# The serial reference: the same 20 scans, one after the other, into one catalog.
while read -r repo rev name; do
  "$errdex" scan "$repo" --rev "$rev" --repo "$name" -q --db "$t/serial.db"
done <"$t/tasks"
while read -r repo rev name; do
  "$errdex" export --db "$t/merged.db" --repo "$name" --sha "$rev" >"$t/a"
  "$errdex" export --db "$t/serial.db" --repo "$name" --sha "$rev" >"$t/b"
  [ -s "$t/a" ] || { echo "FAIL: $name@$rev missing from the merged catalog"; exit 1; }
  cmp -s "$t/a" "$t/b" || { echo "FAIL: $name@$rev differs from the serial scan"; exit 1; }
done <"$t/tasks"
echo "ok: 20 tasks (one killed and requeued), merged twice, equal to the serial scan"
