#!/usr/bin/env bash
# Installs the system tools some tests use and skip without (idempotent; safe to run in CI before ./build test):
#   spin  — the Promela model checker behind CoherenceModelCheckTest (docs/design/coherence.pml); needs gcc too.
#   sshd, ip, unshare, nft — the test hosts of HostsLaunchSystemTest (scripts/test-hosts.sh; root only: they need root).
#   slurmctld, slurmd, slurm-client, munge — the test cluster of SlurmLaunchSystemTest (scripts/test-slurm.sh; root
#   only); it installs the test hosts' tools too.
set -euo pipefail
if [ "$(id -u)" -eq 0 ]; then
  "$(dirname "${BASH_SOURCE[0]}")/test-slurm.sh" install
fi
need=()
command -v spin >/dev/null 2>&1 || need+=(spin)
command -v gcc >/dev/null 2>&1 || need+=(gcc)
if [ ${#need[@]} -eq 0 ]; then
  echo "setup-tools: spin and gcc are installed"
  exit 0
fi
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "setup-tools: need root or sudo to install: ${need[*]}" >&2; exit 2; }
  sudo_cmd=(sudo)
fi
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${need[@]}"
echo "setup-tools: installed ${need[*]}"
