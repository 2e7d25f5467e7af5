#!/usr/bin/env bash
# A Slurm cluster for the tests of `cumulus run` inside an allocation and of `srun cumulus node`: Debian's slurmctld
# and munge on this machine, and one slurmd in each of N test hosts (network namespaces with their own address, /tmp
# and /dev/shm, made by scripts/test-hosts.sh).
#
#   scripts/test-slurm.sh up DIR N     start munge, slurmctld and N slurmds (nodes of partition "cumulus");
#                                      writes DIR/env (SLURM_CONF=...) to source before salloc, srun, sinfo
#   scripts/test-slurm.sh down DIR     stop them all and delete the test hosts (idempotent)
#   scripts/test-slurm.sh install      install slurmctld, slurmd, slurm-client and munge, waiting for apt's lock
#
# Everything (configuration, keys, state, logs) lives under DIR, which must lie outside /tmp and /dev/shm. Needs
# root. Exit code 77: this machine cannot host the cluster (not root, packages missing); the reason is on stderr.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
skip() { echo "test-slurm: $*" >&2; exit 77; }

wait_for_apt() {
  local waited=0
  while command -v fuser >/dev/null 2>&1 && fuser /var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock >/dev/null 2>&1; do
    [ $waited -eq 0 ] && echo "test-slurm: waiting for another apt/dpkg to release its lock (up to 10 minutes)…" >&2
    waited=$((waited + 5))
    [ $waited -le 600 ] || { echo "test-slurm: apt's lock is still held after 10 minutes; try again later" >&2; return 2; }
    sleep 5
  done
}

install_tools() {
  "$here/test-hosts.sh" install
  local need=()
  [ -x /usr/sbin/slurmctld ] || need+=(slurmctld)
  [ -x /usr/sbin/slurmd ] || need+=(slurmd)
  command -v srun >/dev/null 2>&1 || need+=(slurm-client)
  [ -x /usr/sbin/munged ] || need+=(munge)
  if [ ${#need[@]} -eq 0 ]; then
    echo "test-slurm: slurmctld, slurmd, slurm-client and munge are installed"
    return 0
  fi
  [ "$(id -u)" -eq 0 ] || { echo "test-slurm: need root to install ${need[*]}" >&2; return 2; }
  wait_for_apt
  # no daemon is started by the packages' scripts: the tests start their own, with their own configuration
  local policy=/usr/sbin/policy-rc.d made_policy=0
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' > "$policy"
    chmod 755 "$policy"
    made_policy=1
  fi
  local rc=0
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq || rc=$?
  [ $rc -ne 0 ] || DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "${need[@]}" || rc=$?
  [ $made_policy -eq 0 ] || rm -f "$policy"
  [ $rc -eq 0 ] || { echo "test-slurm: installing ${need[*]} failed (exit $rc)" >&2; return 2; }
  echo "test-slurm: installed ${need[*]}"
}

# The test hosts' addresses, from scripts/test-hosts.sh's ssh_config: "ALIAS ADDRESS" a line.
host_addresses() {
  awk '/^Host /{h=$2} /^  HostName /{print h, $2}' "$1/ssh_config"
}

up() {
  local dir="$1" n="$2"
  [ "$(id -u)" -eq 0 ] || skip "not root: the Slurm daemons and network namespaces need root"
  for t in /usr/sbin/slurmctld /usr/sbin/slurmd /usr/sbin/munged; do
    [ -x "$t" ] || skip "no $t: run 'scripts/test-slurm.sh install' (Debian's slurmctld, slurmd and munge)"
  done
  for t in srun salloc sinfo scontrol scancel squeue nsenter; do
    command -v "$t" >/dev/null 2>&1 || skip "no '$t': run 'scripts/test-slurm.sh install'"
  done
  mkdir -p "$dir"
  dir="$(cd "$dir" && pwd)"
  down "$dir" # what a killed earlier run left
  local rc=0
  "$here/test-hosts.sh" up "$dir" "$n" || rc=$?
  [ $rc -eq 0 ] || exit $rc
  local tag net ctlport
  tag="$(cat "$dir/tag")"
  net="$(host_addresses "$dir" | head -1 | awk '{print $2}')"
  net="${net%.*}"
  # ports of this cluster's controller, from DIR, so two clusters on one machine do not meet
  ctlport=$(( 17000 + 2 * 0x$(printf '%s' "$dir" | md5sum | cut -c1-2) ))
  echo "$tag" > "$dir/slurm-tag"
  rm -f "$dir"/*.log
  mkdir -p "$dir/state"
  chmod 700 "$dir"

  # munge: a key of this cluster and a socket under DIR (the system's munged, if any, is left alone)
  dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 status=none
  chmod 600 "$dir/munge.key"
  /usr/sbin/munged --force --key-file="$dir/munge.key" --socket="$dir/munge.socket" \
    --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munged.seed" \
    || { echo "test-slurm: munged did not start; its log:" >&2; cat "$dir/munged.log" >&2 || true; down "$dir"; exit 1; }

  local nodes=() i=0
  {
    cat <<CONF
ClusterName=cumulustest
SlurmctldHost=$(hostname -s)($net.1)
SlurmctldPort=$ctlport
SlurmdPort=6818
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge.socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool-%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd-%n.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd-%n.log
SlurmdParameters=config_overrides
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
KillWait=5
CONF
    while read -r alias addr; do
      i=$((i + 1))
      echo "NodeName=${tag}n$i NodeAddr=$addr CPUs=4 RealMemory=1000 State=UNKNOWN"
    done < <(host_addresses "$dir")
    echo "PartitionName=cumulus Nodes=ALL Default=YES MaxTime=INFINITE State=UP"
  } > "$dir/slurm.conf"
  # slurmd insists on a cgroup plugin; the steps are followed by proctrack/linuxproc, not by cgroups
  echo "CgroupPlugin=cgroup/v1" > "$dir/cgroup.conf"
  {
    echo "set -e"
    echo "mount -t tmpfs -o mode=755 cgroup_root /sys/fs/cgroup"
    mount -t cgroup | awk '{ n = split($3, p, "/"); o = $6; gsub(/[()]/, "", o);
      printf "mkdir -p /sys/fs/cgroup/%s\nmount -t cgroup -o %s cgroup /sys/fs/cgroup/%s\n", p[n], o, p[n] }'
  } > "$dir/cgroup-mounts.sh"
  echo "export SLURM_CONF=$dir/slurm.conf" > "$dir/env"

  SLURM_CONF="$dir/slurm.conf" /usr/sbin/slurmctld -i \
    || { echo "test-slurm: slurmctld did not start; its log:" >&2; cat "$dir/slurmctld.log" >&2 || true; down "$dir"; exit 1; }
  i=0
  while read -r alias addr; do
    i=$((i + 1))
    # in the test host's namespaces (network, and the mounts of its own /tmp and /dev/shm): those of its sshd
    local sshd
    sshd="$(cat "$dir/sshd_$i.pid")"
    mkdir -p "$dir/spool-${tag}n$i"
    # the host's /sys is its network namespace's own, without the cgroup mounts slurmd looks for: mount this
    # machine's cgroup (v1) hierarchies there again, in the host's own mount namespace
    nsenter --target "$sshd" --net --mount sh "$dir/cgroup-mounts.sh" \
      || { echo "test-slurm: cannot mount the cgroup hierarchies in test host $i" >&2; down "$dir"; exit 1; }
    SLURM_CONF="$dir/slurm.conf" nsenter --target "$sshd" --net --mount /usr/sbin/slurmd -N "${tag}n$i" \
      || { echo "test-slurm: slurmd ${tag}n$i did not start; its log:" >&2; cat "$dir/slurmd-${tag}n$i.log" >&2 || true; down "$dir"; exit 1; }
    nodes+=("${tag}n$i")
  done < <(host_addresses "$dir")

  local tries=0
  until [ "$(SLURM_CONF="$dir/slurm.conf" sinfo -h -N -t idle -o %N 2>/dev/null | sort -u | wc -l)" -eq "$n" ]; do
    tries=$((tries + 1))
    if [ $tries -gt 150 ]; then
      echo "test-slurm: the $n nodes did not become idle within 30 s; sinfo says:" >&2
      SLURM_CONF="$dir/slurm.conf" sinfo -N >&2 || true
      tail -n 20 "$dir/slurmctld.log" >&2 || true
      down "$dir"
      exit 1
    fi
    sleep 0.2
  done
  echo "test-slurm: $n nodes up (${nodes[*]}); . $dir/env, then salloc -N$n ..."
}

# Ends the pid in FILE if it is still running; SIGKILL after 5 s.
stop_pidfile() {
  local f="$1" pid
  [ -f "$f" ] || return 0
  pid="$(cat "$f" 2>/dev/null || true)"
  rm -f "$f"
  [ -n "$pid" ] || return 0
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -9 "$pid" 2>/dev/null || true
}

down() {
  local dir="$1"
  [ -d "$dir" ] || return 0
  if [ -f "$dir/slurm-tag" ]; then
    local tag
    tag="$(cat "$dir/slurm-tag")"
    # the jobs and steps of this cluster: their processes live in the test hosts' namespaces
    for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^${tag}h" || true); do
      for pid in $(ip netns pids "$ns" 2>/dev/null || true); do
        kill -9 "$pid" 2>/dev/null || true
      done
    done
    for f in "$dir"/slurmd-*.pid; do stop_pidfile "$f"; done
    stop_pidfile "$dir/slurmctld.pid"
    stop_pidfile "$dir/munged.pid"
    rm -f "$dir/slurm-tag"
  fi
  "$here/test-hosts.sh" down "$dir"
  rm -rf "$dir/state" "$dir"/spool-* "$dir/munge.socket" "$dir/munge.socket.lock"
}

case "${1:-}" in
  up) [ $# -eq 3 ] || { echo "usage: $0 up DIR N" >&2; exit 2; }; up "$2" "$3" ;;
  down) [ $# -eq 2 ] || { echo "usage: $0 down DIR" >&2; exit 2; }; down "$2" ;;
  install) install_tools ;;
  *) echo "usage: $0 up DIR N | down DIR | install" >&2; exit 2 ;;
esac
