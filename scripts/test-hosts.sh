#!/usr/bin/env bash
# Test hosts for `cumulus run --hosts` and `cumulus bench --hosts`: network namespaces on this machine, each with its
# own address on a private bridge, its own sshd (Debian's openssh-server), and its own /tmp, /dev/shm and ~/.cache (a
# mount namespace with fresh tmpfs), so nothing passes between "hosts" through a shared local path by accident. They
# share the rest of this machine's files (the JDK, the Cumulus runtime) except DIR/program, which is empty on every
# host: a program put there exists only on the launching host, so its classes reach the hosts only if the launcher
# ships them.
#
#   e.g. scripts/test-hosts.sh up /work/hosts 2
#        ./cumulus bench rpc --nodes 2 --hosts /work/hosts/hosts --ssh "-F /work/hosts/ssh_config"
#
#   scripts/test-hosts.sh up DIR N     start N hosts host1..hostN; writes DIR/ssh_config (ssh -F DIR/ssh_config hostI
#                                      logs in as root with a key made here) and DIR/hosts (one alias a line)
#   scripts/test-hosts.sh down DIR     stop the sshds, delete the namespaces and the bridge (idempotent)
#   scripts/test-hosts.sh install      install what `up` needs (openssh-server, iproute2, nftables), waiting for apt's lock
#   scripts/test-hosts.sh cut DIR I    host I sends no UDP datagram any more (a one-way partition: the run's traffic
#                                      between hosts is UDP; ssh over TCP still reaches the host)
#   scripts/test-hosts.sh isolate DIR I  host I drops every packet in and out (as a dead host looks to the others)
#   scripts/test-hosts.sh heal DIR I   undo cut or isolate
#
# Addresses come from 198.18.0.0/15 (set aside for network tests) and exist only inside these namespaces and on the
# bridge. Needs root. Exit code 77: this machine cannot host them (not root, tools missing); the reason is on stderr.
set -euo pipefail

skip() { echo "test-hosts: $*" >&2; exit 77; }

install_tools() {
  local need=()
  [ -x /usr/sbin/sshd ] || need+=(openssh-server)
  command -v ip >/dev/null 2>&1 || need+=(iproute2)
  command -v unshare >/dev/null 2>&1 || need+=(util-linux)
  command -v nft >/dev/null 2>&1 || need+=(nftables)
  if [ ${#need[@]} -eq 0 ]; then
    echo "test-hosts: openssh-server, iproute2, util-linux and nftables are installed"
    return 0
  fi
  [ "$(id -u)" -eq 0 ] || { echo "test-hosts: need root to install ${need[*]}" >&2; return 2; }
  local waited=0
  while command -v fuser >/dev/null 2>&1 && fuser /var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock >/dev/null 2>&1; do
    [ $waited -eq 0 ] && echo "test-hosts: waiting for another apt/dpkg to release its lock (up to 10 minutes)…" >&2
    waited=$((waited + 5))
    [ $waited -le 600 ] || { echo "test-hosts: apt's lock is still held after 10 minutes; try again later" >&2; return 2; }
    sleep 5
  done
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "${need[@]}"
  echo "test-hosts: installed ${need[*]}"
}

# A short tag for this set of hosts (interface names have at most 15 characters), from DIR.
tag_of() { printf 'cu%s' "$(printf '%s' "$1" | md5sum | cut -c1-6)"; }

up() {
  local dir="$1" n="$2"
  [ "$(id -u)" -eq 0 ] || skip "not root: network namespaces and sshd need root"
  [ -x /usr/sbin/sshd ] || skip "no /usr/sbin/sshd: run 'scripts/test-hosts.sh install' (Debian's openssh-server)"
  for t in ip unshare ssh ssh-keygen md5sum; do
    command -v "$t" >/dev/null 2>&1 || skip "no '$t': run 'scripts/test-hosts.sh install'"
  done
  mkdir -p "$dir" /run/sshd
  dir="$(cd "$dir" && pwd)"
  case "$dir" in
    /tmp|/tmp/*|/dev/shm|/dev/shm/*)
      echo "test-hosts: DIR $dir must not be under /tmp or /dev/shm: each host has its own, so its sshd would not see it" >&2
      exit 2 ;;
  esac
  down "$dir" # what a killed earlier run left
  rm -f "$dir"/id_ed25519* "$dir"/host_key* "$dir"/refused_key* "$dir"/known_hosts
  local tag net
  tag="$(tag_of "$dir")"
  net="198.18.$(( 0x$(printf '%s' "$dir" | md5sum | cut -c1-2) )).0"
  net="${net%.0}"
  echo "$tag" > "$dir/tag"
  ssh-keygen -q -t ed25519 -N '' -f "$dir/id_ed25519" -C cumulus-test-client
  ssh-keygen -q -t ed25519 -N '' -f "$dir/host_key" -C cumulus-test-host
  cp "$dir/id_ed25519.pub" "$dir/authorized_keys"
  local cache="$HOME/.cache"
  mkdir -p "$cache" "$dir/program"
  ip link add "${tag}br" type bridge
  ip addr add "$net.1/24" dev "${tag}br"
  ip link set "${tag}br" up
  : > "$dir/ssh_config"
  : > "$dir/hosts"
  for i in $(seq 1 "$n"); do
    local ns="${tag}h$i" addr="$net.$((i + 1))"
    ip netns add "$ns"
    ip link add "${tag}v$i" type veth peer name "${tag}p$i"
    ip link set "${tag}v$i" master "${tag}br" up
    ip link set "${tag}p$i" netns "$ns"
    ip -n "$ns" addr add "$addr/24" dev "${tag}p$i"
    ip -n "$ns" link set "${tag}p$i" up
    ip -n "$ns" link set lo up
    cat > "$dir/sshd_$i.config" <<CONF
ListenAddress $addr
HostKey $dir/host_key
AuthorizedKeysFile $dir/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PidFile $dir/sshd_$i.pid
PrintMotd no
ClientAliveInterval 2
ClientAliveCountMax 3
CONF
    # Own /tmp, /dev/shm and ~/.cache (so its own class cache), and an empty DIR/program: a private mount namespace
    # with fresh tmpfs mounts, then sshd in the foreground.
    setsid ip netns exec "$ns" unshare --mount --propagation private sh -c \
      "mount -t tmpfs -o mode=1777 tmpfs /tmp && mount -t tmpfs -o mode=1777 tmpfs /dev/shm && mount -t tmpfs -o mode=0700 tmpfs '$cache' && mount -t tmpfs -o mode=0755 tmpfs '$dir/program' && exec /usr/sbin/sshd -D -e -f '$dir/sshd_$i.config'" \
      > "$dir/sshd_$i.log" 2>&1 < /dev/null &
    cat >> "$dir/ssh_config" <<CONF
Host host$i
  HostName $addr
  User root
  IdentityFile $dir/id_ed25519
  IdentitiesOnly yes
  UserKnownHostsFile $dir/known_hosts
  StrictHostKeyChecking accept-new
  LogLevel ERROR
CONF
    echo "host$i" >> "$dir/hosts"
  done
  for i in $(seq 1 "$n"); do
    local tries=0
    until ssh -F "$dir/ssh_config" -o BatchMode=yes -o ConnectTimeout=2 "host$i" true 2>/dev/null; do
      tries=$((tries + 1))
      if [ $tries -gt 100 ]; then
        echo "test-hosts: sshd of host$i did not answer; its log:" >&2
        cat "$dir/sshd_$i.log" >&2 || true
        down "$dir"
        exit 1
      fi
      sleep 0.2
    done
  done
  echo "test-hosts: $n hosts up ($net.2..$net.$((n + 1))); ssh -F $dir/ssh_config host1"
}

down() {
  local dir="$1"
  [ -f "$dir/tag" ] || return 0
  local tag
  tag="$(cat "$dir/tag")"
  for pidfile in "$dir"/sshd_*.pid; do
    [ -f "$pidfile" ] || continue
    kill "$(cat "$pidfile")" 2>/dev/null || true
    rm -f "$pidfile"
  done
  for ns in $(ip netns list | awk '{print $1}' | grep "^${tag}h" || true); do
    ip netns delete "$ns" || true
  done
  # a namespace lives on while the kernel still holds sockets of it (a cut-off host's connections retransmitting
  # their goodbyes): delete its links from this side, so the next 'up' can make them again
  for link in $(ip -o link show | awk -F': ' '{print $2}' | cut -d@ -f1 | grep "^${tag}v" || true); do
    ip link delete "$link" 2>/dev/null || true
  done
  ip link delete "${tag}br" 2>/dev/null || true
  rm -f "$dir/tag"
}

# host I of DIR's hosts drops every UDP datagram it would send (nftables in its own network namespace)
cut_host() {
  local dir="$1" i="$2"
  command -v nft >/dev/null 2>&1 || { echo "test-hosts: no 'nft': run 'scripts/test-hosts.sh install'" >&2; exit 2; }
  local ns
  ns="$(cat "$dir/tag")h$i"
  ip netns exec "$ns" nft add table inet cumulus_cut
  ip netns exec "$ns" nft add chain inet cumulus_cut out '{ type filter hook output priority 0; policy accept; }'
  ip netns exec "$ns" nft add rule inet cumulus_cut out meta l4proto udp drop
}

# host I of DIR's hosts drops every packet in and out but its own loopback: as a host that died looks to the others
isolate_host() {
  local dir="$1" i="$2"
  command -v nft >/dev/null 2>&1 || { echo "test-hosts: no 'nft': run 'scripts/test-hosts.sh install'" >&2; exit 2; }
  local ns
  ns="$(cat "$dir/tag")h$i"
  ip netns exec "$ns" nft add table inet cumulus_cut
  ip netns exec "$ns" nft add chain inet cumulus_cut in '{ type filter hook input priority 0; policy accept; }'
  ip netns exec "$ns" nft add chain inet cumulus_cut out '{ type filter hook output priority 0; policy accept; }'
  ip netns exec "$ns" nft add rule inet cumulus_cut in iifname != lo drop
  ip netns exec "$ns" nft add rule inet cumulus_cut out oifname != lo drop
}

heal_host() {
  local dir="$1" i="$2"
  ip netns exec "$(cat "$dir/tag")h$i" nft delete table inet cumulus_cut 2>/dev/null || true
}

case "${1:-}" in
  up) [ $# -eq 3 ] || { echo "usage: $0 up DIR N" >&2; exit 2; }; up "$2" "$3" ;;
  down) [ $# -eq 2 ] || { echo "usage: $0 down DIR" >&2; exit 2; }; down "$2" ;;
  install) install_tools ;;
  cut) [ $# -eq 3 ] || { echo "usage: $0 cut DIR I" >&2; exit 2; }; cut_host "$2" "$3" ;;
  isolate) [ $# -eq 3 ] || { echo "usage: $0 isolate DIR I" >&2; exit 2; }; isolate_host "$2" "$3" ;;
  heal) [ $# -eq 3 ] || { echo "usage: $0 heal DIR I" >&2; exit 2; }; heal_host "$2" "$3" ;;
  *) echo "usage: $0 up DIR N | down DIR | install" >&2; exit 2 ;;
esac
