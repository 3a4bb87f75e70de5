#!/bin/sh
# scan_task.sh TASKS SHARDS: one Slurm array task -- line $SLURM_ARRAY_TASK_ID of
# TASKS ("REPO REV [OWNER/NAME]", a repository path or bare mirror, a revision)
# scanned into SHARDS/<task>.errdex. The shard appears under its name only when
# complete (written beside it, then renamed), so a task killed and requeued
# leaves nothing half-written for the merge to read.
set -eu
tasks=${1:?tasks file}
shards=${2:?shard directory}
id=${SLURM_ARRAY_TASK_ID:?run as a Slurm array task}
line=$(sed -n "${id}p" "$tasks")
[ -n "$line" ] || { echo "scan_task: no line $id in $tasks" >&2; exit 2; }
set -- $line
repo=$1 rev=$2 name=${3:-}
mkdir -p "$shards"
rm -f "$shards/.task-$id."*  # what a killed run of this task left (one run of a task at a time)
tmp="$shards/.task-$id.$$.errdex"
trap 'rm -f "$tmp" "$tmp-wal" "$tmp-shm" "$tmp-journal"' EXIT
${ERRDEX:-errdex} scan "$repo" --rev "$rev" ${name:+--repo "$name"} -j "${SLURM_CPUS_PER_TASK:-1}" -q -o "$tmp"
mv -f "$tmp" "$shards/$id.errdex"
