#!/bin/sh
# slurm_tasks_test.sh ERRDEX: deploy/slurm's array task script and merge, run
# here without Slurm (SLURM_ARRAY_TASK_ID set by hand, as slurmd would): 20
# (repo, rev) tasks over two generated repositories, one task killed midway and
# run again (a requeue), the shards merged twice -- the catalog must equal a
# serial scan of the same 20 commits, and the second merge must write nothing.
# The same under a real Slurm: slurm_real_test.sh.
set -eu
errdex=$(realpath "${1:?errdex binary}")
here=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export SOURCE_DATE_EPOCH=1700000000 NO_COLOR=1 ERRDEX="$errdex"
sh "$here/tests/deploy/make_tasks.sh" "$t"
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
sh "$here/tests/deploy/same_as_serial.sh" "$errdex" "$t" "$t/merged.db"
echo "ok: 20 tasks (one killed and requeued), merged twice, equal to the serial scan"
