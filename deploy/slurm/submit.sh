#!/bin/sh
# submit.sh TASKS SHARDS DB: the array job (one task per line of TASKS) and the
# merge job that runs after all of it succeeded. Slurm schedules; errdex scans
# and merges.
#   TASKS: lines "REPO REV [OWNER/NAME]"   SHARDS: a directory all nodes see
#   DB:    catalog file or postgresql://... URL
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tasks=$(realpath "${1:?tasks file}")
shards=$(realpath -m "${2:?shard directory}")
db=${3:?catalog}
n=$(grep -c . "$tasks")
mkdir -p "$shards"
export ERRDEX_TASKS="$tasks" ERRDEX_SHARDS="$shards" ERRDEX_DB="$db" ERRDEX_SLURM_DIR="$here"
scan=$(sbatch --parsable --export=ALL --array="1-$n" "$here/scan_array.sbatch")
merge=$(sbatch --parsable --export=ALL --dependency="afterok:$scan" "$here/merge.sbatch")
echo "scan array $scan ($n tasks), merge $merge"
