#!/bin/bash
# slurm_local.sh start|stop DIR -- a throw-away single-node Slurm cluster on this machine, to
# try `gpusim sweep --slurm` without a cluster (docs/sweeps.md "A Slurm on one machine") and
# for tests/test_sweep.c.
#
#   start  writes DIR/slurm.conf and a private munge key, starts munged, slurmctld and slurmd
#          with their state, spool, logs and pid files in DIR, and waits until the node is
#          idle; then prints the line to use it:  export SLURM_CONF=DIR/slurm.conf
#   stop   cancels the cluster's jobs and ends the three daemons DIR's pid files name.
#
# Nothing outside DIR is written but munged's socket, in a directory of its own under /tmp
# (munged refuses a socket below a directory others cannot search, as a home or a mkdtemp
# directory is), which stop removes: no /etc/slurm, no system munged, no cgroups (process
# tracking by process group, proctrack/pgid; no task plugin). The ports are the first free
# pair from 16817 up.
# Needs Debian's slurm-wlm and munge (make deps). Exit status: 0; 77 when Slurm cannot run
# here, with the reason (a daemon's own log line) as the last line; 2 on a usage error.
set -u

die77() { echo "slurm_local: $*" >&2; exit 77; }
usage() { echo "usage: tools/slurm_local.sh start|stop DIR" >&2; exit 2; }

[ $# -eq 2 ] || usage
cmd=$1
[ "$cmd" = start ] || [ "$cmd" = stop ] || usage
mkdir -p "$2" || exit 2
DIR=$(cd "$2" && pwd) || exit 2
export SLURM_CONF="$DIR/slurm.conf"

# The daemon named by DIR/NAME.pid, if it still runs as that program.
running_pid() {
    local pid
    pid=$(cat "$DIR/$1.pid" 2>/dev/null) || return 1
    [ -n "$pid" ] && [ "$(cat /proc/"$pid"/comm 2>/dev/null)" = "$1" ] && echo "$pid"
}

# The last error of a daemon's log (or its last line).
why() {
    local l
    l=$(grep -E 'error|fatal|Error' "$1" 2>/dev/null | grep -v -E 'mpi/pmix|MPI: Cannot' | tail -n 1)
    [ -n "$l" ] || l=$(tail -n 1 "$1" 2>/dev/null)
    echo "${l:-no log in $1}"
}

# Wait up to 15 s for DIR/NAME.pid to name a running NAME.
wait_daemon() {
    for _ in $(seq 75); do
        running_pid "$1" >/dev/null && return 0
        sleep 0.2
    done
    return 1
}

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

stop() {
    local pid sockdir
    if running_pid slurmctld >/dev/null; then
        scancel --user="$(id -un)" 2>/dev/null
        for _ in $(seq 50); do
            [ -z "$(squeue -h 2>/dev/null)" ] && break
            sleep 0.2
        done
    fi
    for d in slurmd slurmctld munged; do
        pid=$(running_pid $d) || continue
        kill "$pid"
        for _ in $(seq 50); do
            [ -d /proc/"$pid" ] || break
            sleep 0.2
        done
    done
    sockdir=$(cat "$DIR/munge/sockdir" 2>/dev/null) || return 0
    case $sockdir in /tmp/slurm_local-munge.*) rm -rf "$sockdir" ;; esac
    rm -f "$DIR/munge/sockdir"
}

write_conf() {
    local host=$1 port=$2 user
    user=$(id -un)
    cat > "$SLURM_CONF" <<EOF
# Written by tools/slurm_local.sh: a single-node cluster, everything in $DIR.
ClusterName=gpusimlocal
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SOCK
SlurmUser=$user
SlurmdUser=$user
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc)
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
}

start_munge() {
    local sockdir
    mkdir -p "$DIR/munge" || die77 "cannot write $DIR/munge"
    sockdir=$(mktemp -d /tmp/slurm_local-munge.XXXXXX) && chmod 755 "$sockdir" \
        || die77 "cannot make a directory for munged's socket under /tmp"
    echo "$sockdir" > "$DIR/munge/sockdir"
    SOCK=$sockdir/munge.sock
    if [ ! -s "$DIR/munge/munge.key" ]; then
        if command -v mungekey >/dev/null; then
            mungekey -c -k "$DIR/munge/munge.key" || die77 "mungekey could not make a key"
        else
            dd if=/dev/urandom of="$DIR/munge/munge.key" bs=1024 count=1 2>/dev/null
        fi
        chmod 600 "$DIR/munge/munge.key"
    fi
    munged --socket="$SOCK" --key-file="$DIR/munge/munge.key" \
        --pid-file="$DIR/munged.pid" --log-file="$DIR/munged.log" \
        --seed-file="$DIR/munge/munged.seed" 2>>"$DIR/munged.log"
    wait_daemon munged || { stop; die77 "munged did not start: $(why "$DIR/munged.log")"; }
}

start() {
    local host port
    for p in slurmctld slurmd munged sbatch sinfo squeue scancel; do
        command -v $p >/dev/null || die77 "$p is not installed (make deps installs slurm-wlm and munge)"
    done
    [ -z "$(running_pid slurmctld)" ] || die77 "a cluster of $DIR already runs (tools/slurm_local.sh stop $DIR)"
    host=$(hostname -s) || die77 "no host name"
    port=16817
    while ! port_free $port || ! port_free $((port + 1)); do
        port=$((port + 2))
        [ $port -lt 16999 ] || die77 "no free pair of ports in 16817..16999"
    done
    mkdir -p "$DIR/state" "$DIR/spool" || die77 "cannot write $DIR"
    start_munge
    write_conf "$host" "$port"
    slurmctld 2>>"$DIR/slurmctld.log"
    wait_daemon slurmctld || { stop; die77 "slurmctld did not start: $(why "$DIR/slurmctld.log")"; }
    slurmd -N "$host" 2>>"$DIR/slurmd.log"
    wait_daemon slurmd || { stop; die77 "slurmd did not start: $(why "$DIR/slurmd.log")"; }
    for _ in $(seq 150); do
        [ "$(sinfo -h -N -o %t 2>/dev/null)" = idle ] && { echo "export SLURM_CONF=$SLURM_CONF"; return 0; }
        sleep 0.2
    done
    stop
    die77 "node $host did not become idle in 30 s: $(why "$DIR/slurmd.log") / $(why "$DIR/slurmctld.log")"
}

$cmd
