#!/bin/sh
# slurm_real_test.sh ERRDEX: deploy/slurm under a real single-node Slurm
# (slurm_cluster.sh: munged + slurmctld + slurmd on loopback, started here and
# stopped at the end). submit.sh queues the 20 (repo, rev) tasks of two
# generated repositories as an array job and the merge job after it; task 7 is
# requeued by `scontrol requeue` while it runs (its shard half-written); the
# merged catalog must equal a serial scan of the same 20 commits.
# Exit 77 (skipped) where Slurm or root is missing, unless
# ERRDEX_REQUIRE_SLURM=1 (CI), where that is a failure.
set -eu
errdex=$(realpath "${1:?errdex binary}")
here=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d)
cluster="$t/slurm"
cleanup() {
  sh "$here/tests/deploy/slurm_cluster.sh" stop "$cluster" || true
  rm -rf "$t"
}
trap cleanup EXIT
rc=0
sh "$here/tests/deploy/slurm_cluster.sh" start "$cluster" || rc=$?
if [ $rc = 77 ]; then
  [ "${ERRDEX_REQUIRE_SLURM:-0}" = 1 ] && { echo "FAIL: no Slurm here, and ERRDEX_REQUIRE_SLURM=1"; exit 1; }
  echo "skipped: no Slurm or not root"; exit 77
fi
[ $rc = 0 ] || { echo "FAIL: the Slurm cluster did not start"; exit 1; }
export SLURM_CONF="$cluster/slurm.conf" SOURCE_DATE_EPOCH=1700000000 NO_COLOR=1
sh "$here/tests/deploy/make_tasks.sh" "$t"

# errdex for the tasks: the first run of task 7 writes its shard, then hangs
# before scan_task.sh can rename it, to be requeued there.
cat >"$t/errdex-task" <<EOF
#!/bin/sh
"$errdex" "\$@" || exit \$?
if [ "\${SLURM_ARRAY_TASK_ID:-}" = 7 ] && mkdir "$t/task7-hung" 2>/dev/null; then
  touch "$t/task7-written"
  exec sleep 600
fi
EOF
chmod +x "$t/errdex-task"
cd "$t"
ERRDEX="$t/errdex-task" sh "$here/deploy/slurm/submit.sh" "$t/tasks" "$t/shards" "$t/merged.db" >"$t/submitted"
array=$(sed -n 's/^scan array \([0-9]*\) .*/\1/p' "$t/submitted")
merge=$(sed -n 's/.*, merge \([0-9]*\)$/\1/p' "$t/submitted")
[ -n "$array" ] && [ -n "$merge" ] || { echo "FAIL: submit.sh said: $(cat "$t/submitted")"; exit 1; }

# Wait until task 7 hangs with its shard written, then requeue it.
i=0
until [ -f "$t/task7-written" ]; do
  i=$((i + 1)); [ $i -lt 300 ] || { echo "FAIL: task 7 never ran"; squeue; exit 1; }
  sleep 1
done
ls "$t/shards"/.task-7.* >/dev/null 2>&1 || { echo "FAIL: task 7's half-written shard is not there"; exit 1; }
scontrol requeue "${array}_7"
# A requeued job waits two minutes before it may start again (slurmctld's
# rule); the test does not need the wait.
i=0
until squeue -h -j "${array}_7" -o %T 2>/dev/null | grep -q PENDING; do
  i=$((i + 1)); [ $i -lt 60 ] || break
  sleep 1
done
scontrol update JobId="${array}_7" StartTime=now || true

# Everything ends: the array (task 7 again), then the merge.
i=0
while [ -n "$(squeue -h -o %i 2>/dev/null)" ]; do
  i=$((i + 1)); [ $i -lt 600 ] || { echo "FAIL: jobs still queued after 10 minutes"; squeue; exit 1; }
  sleep 1
done
for id in $(seq 1 20); do
  [ -s "$t/shards/$id.errdex" ] || { echo "FAIL: no shard $id"; cat "$t"/errdex-scan-*_"$id".log 2>/dev/null; exit 1; }
done
ls "$t/shards"/.task-* >/dev/null 2>&1 && { echo "FAIL: temporary shards left"; exit 1; }
[ -f "$t/merged.db" ] || { echo "FAIL: the merge job wrote no catalog"; cat "$t"/errdex-merge-*.log; exit 1; }
grep -q . "$t/errdex-merge-$merge.log" && ! grep -qi error "$t/errdex-merge-$merge.log" ||
  { echo "FAIL: the merge job's log:"; cat "$t/errdex-merge-$merge.log"; exit 1; }
sh "$here/tests/deploy/same_as_serial.sh" "$errdex" "$t" "$t/merged.db"
echo "ok: a real Slurm ran 20 tasks (task 7 requeued mid-write) and the merge; equal to the serial scan"
