#!/usr/bin/env bash
# Runs one fuzz target until it has used CPU_SECONDS of CPU time (not wall time:
# the machine is shared), at the lowest priority, then prints one line of
# statistics (target, CPU seconds, executions, coverage, features, corpus, result).
#
# usage: fuzz/run_campaign.sh BUILD_DIR TARGET CPU_SECONDS WORK_DIR [EXTRA_CORPUS_DIR...]
#   BUILD_DIR  a build with -DERRDEX_FUZZ=ON (fuzz/fuzz_TARGET in it)
#   WORK_DIR   new inputs land in WORK_DIR/TARGET; the log in WORK_DIR/TARGET.log
# The repository's corpus (fuzz/corpus/TARGET) and EXTRA_CORPUS_DIRs are read, not
# written. A crash, leak or timeout ends the run; its input is WORK_DIR/crash-*.
# FUZZ_TIMEOUT (seconds, default 25) is libFuzzer's -timeout, which counts wall time:
# a nice-19 run beside a compiler can be starved for longer than that by one input
# that takes 0.5 s alone. Raise it on a busy machine and re-run the log's "slow
# unit" inputs alone before calling one a finding.
set -euo pipefail
build=$1 target=$2 budget=$3 work=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
bin="$build/fuzz/fuzz_$target"
mkdir -p "$work/$target" "$here/corpus/$target"
dict=()
[ -f "$here/dict/$target.dict" ] && dict=(-dict="$here/dict/$target.dict")
log="$work/$target.log"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  nice -n 19 "$bin" -timeout="${FUZZ_TIMEOUT:-25}" -rss_limit_mb=2560 -max_len=16384 -print_final_stats=1 \
  -artifact_prefix="$work/" "${dict[@]}" "$work/$target" "$here/corpus/$target" "$@" >"$log" 2>&1 &
pid=$!
ticks=$(getconf CLK_TCK)
cpu=0
while kill -0 "$pid" 2>/dev/null; do
  sleep 20
  if [ -r "/proc/$pid/stat" ]; then
    # utime + stime (fields 14, 15), after the command name in parentheses
    read -r ut st < <(sed 's/^.*) //' "/proc/$pid/stat" | awk '{print $12, $13}') || true
    cpu=$(( (${ut:-0} + ${st:-0}) / ticks ))
    if [ "$cpu" -ge "$budget" ]; then kill -INT "$pid" 2>/dev/null || true; fi
  fi
done
wait "$pid" && rc=0 || rc=$?
execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | awk '{print $2}')
last=$(grep -E '^#[0-9]+' "$log" | tail -1)
cov=$(echo "$last" | grep -o 'cov: [0-9]*' | awk '{print $2}')
ft=$(echo "$last" | grep -o 'ft: [0-9]*' | awk '{print $2}')
corp=$(echo "$last" | grep -o 'corp: [0-9]*/[0-9]*[a-zA-Z]*' | awk '{print $2}')
result=ok
grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|fuzz property broken|ALARM' "$log" && result="FINDING (see $log)"
echo "$target cpu_s=$cpu execs=${execs:-?} cov=${cov:-?} ft=${ft:-?} corpus=${corp:-?} rc=$rc $result"
