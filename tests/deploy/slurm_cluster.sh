#!/bin/sh
# slurm_cluster.sh start|stop DIR: a private single-node Slurm for the tests --
# munged, slurmctld and slurmd of Debian's slurm-wlm, all state, sockets, logs
# and keys in DIR, ports on 127.0.0.1 only, nothing in /etc touched. Clients
# find it with SLURM_CONF=DIR/slurm.conf. Needs root (slurmd starts jobs as
# their users); `start` exits 77 (the tests' "skipped") where Slurm or root is
# missing, 1 if the daemons do not come up (their logs are printed).
set -eu
cmd=${1:?start or stop}
dir=$(realpath -m "${2:?directory}")

stop() {
  for d in slurmd slurmctld munged; do
    [ -f "$dir/$d.pid" ] && kill "$(cat "$dir/$d.pid")" 2>/dev/null || true
  done
  sleep 1
  for d in slurmd slurmctld munged; do
    [ -f "$dir/$d.pid" ] && kill -9 "$(cat "$dir/$d.pid")" 2>/dev/null || true
    rm -f "$dir/$d.pid"
  done
}

if [ "$cmd" = stop ]; then stop; exit 0; fi
[ "$cmd" = start ] || { echo "slurm_cluster: start or stop, not $cmd" >&2; exit 2; }
for b in munged mungekey slurmctld slurmd sbatch; do
  command -v "$b" >/dev/null 2>&1 || [ -x "/usr/sbin/$b" ] || { echo "slurm_cluster: $b not installed (apt-get install slurm-wlm munge)" >&2; exit 77; }
done
[ "$(id -u)" = 0 ] || { echo "slurm_cluster: slurmd needs root" >&2; exit 77; }
PATH=/usr/sbin:$PATH
mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
chmod 700 "$dir/munge"

# Two free ports on loopback (the kernel picks; a race with another process
# taking one before slurmctld binds is possible but shows as a start failure).
ports=$(python3 -c 'import socket
s=[socket.socket() for _ in range(2)]
[x.bind(("127.0.0.1",0)) for x in s]
print(" ".join(str(x.getsockname()[1]) for x in s))')
set -- $ports
ctl_port=$1 d_port=$2

mungekey --create --keyfile="$dir/munge/munge.key" --force >/dev/null 2>&1 ||
  { dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 2>/dev/null; }
chmod 400 "$dir/munge/munge.key"
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.sock" \
  --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/munge.seed"

cat >"$dir/slurm.conf" <<EOF
ClusterName=errdex-test
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctl_port
SlurmdPort=$d_port
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
NodeName=errdexnode NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=2 RealMemory=4096 State=UNKNOWN
PartitionName=test Nodes=errdexnode Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$dir/slurm.conf"
started=yes
slurmctld -i -f "$dir/slurm.conf" || started=no
slurmd -N errdexnode -f "$dir/slurm.conf" || started=no

# Up when the node is idle.
i=0
[ $started = yes ] || i=60
while [ $i -lt 60 ]; do
  state=$(sinfo -h -n errdexnode -o %t 2>/dev/null || true)
  case $state in idle*|mix*|alloc*) exit 0 ;; esac
  i=$((i + 1)); sleep 1
done
echo "slurm_cluster: the node did not come up (state '${state:-?}'):" >&2
tail -n 20 "$dir/munged.log" "$dir/slurmctld.log" "$dir/slurmd.log" >&2 2>/dev/null || true
stop
exit 1
