#!/usr/bin/env bash
# Starts a three-master Redis Cluster on local ports for the tests (no replicas, no
# persistence), or reuses one that already answers with cluster_state:ok. Idempotent.
#   bash .ci/redis-cluster.sh          start (or reuse); prints the seed addresses
#   bash .ci/redis-cluster.sh stop     shut the three nodes down
# Ports: REDIS_CLUSTER_PORTS (default "7101 7102 7103"). The nodes' files go under
# .cache/redis-cluster/<port>. The test command exports
# REDIS_CLUSTER_ADDRS=127.0.0.1:7101,127.0.0.1:7102,127.0.0.1:7103 from the output.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
read -r -a ports <<<"${REDIS_CLUSTER_PORTS:-7101 7102 7103}"
dir="$root/.cache/redis-cluster"

cli() { redis-cli -h 127.0.0.1 -p "$1" "${@:2}"; }
state_ok() {
  local p
  for p in "${ports[@]}"; do cli "$p" cluster info 2>/dev/null | grep -q '^cluster_state:ok' || return 1; done
}
addrs() { local out=() p; for p in "${ports[@]}"; do out+=("127.0.0.1:$p"); done; (IFS=,; echo "${out[*]}"); }

if [ "${1:-}" = stop ]; then
  for p in "${ports[@]}"; do cli "$p" shutdown nosave >/dev/null 2>&1 || true; done
  exit 0
fi

if state_ok; then
  echo "redis cluster answers on $(addrs)" >&2
  addrs
  exit 0
fi

for p in "${ports[@]}"; do
  if cli "$p" ping >/dev/null 2>&1; then
    continue
  fi
  # A node that does not answer starts empty: its old cluster config would name peers
  # whose ids no longer match.
  rm -rf "${dir:?}/$p"
  mkdir -p "$dir/$p"
  redis-server --bind 127.0.0.1 --port "$p" --cluster-enabled yes --cluster-config-file "$dir/$p/nodes.conf" \
    --cluster-node-timeout 2000 --save "" --appendonly no --dir "$dir/$p" --logfile "$dir/$p/redis.log" --daemonize yes
done
for p in "${ports[@]}"; do
  for _ in $(seq 1 50); do cli "$p" ping >/dev/null 2>&1 && break; sleep 0.1; done
  cli "$p" ping >/dev/null 2>&1 || { echo "redis-server on port $p did not start" >&2; exit 1; }
done
# Nodes that answer but form no working cluster (one restarted, a half-finished earlier run)
# are emptied and reset first: the tests' keys are disposable.
for p in "${ports[@]}"; do cli "$p" flushall >/dev/null 2>&1 || true; cli "$p" cluster reset hard >/dev/null; done
seeds=()
for p in "${ports[@]}"; do seeds+=("127.0.0.1:$p"); done
redis-cli --cluster create "${seeds[@]}" --cluster-replicas 0 --cluster-yes >"$dir/create.log" 2>&1 ||
  { cat "$dir/create.log" >&2; exit 1; }
for _ in $(seq 1 100); do state_ok && break; sleep 0.1; done
state_ok || { echo "redis cluster did not reach cluster_state:ok" >&2; exit 1; }
echo "redis cluster started on $(addrs)" >&2
addrs
