#!/usr/bin/env bash
# Times `bash .ci/run` on fresh clones, as docs/ci.md reports it:
#   bash .ci/measure.sh                  # one run, unloaded, empty GOCACHE
#   bash .ci/measure.sh --runs 5 --burn  # five consecutive runs, a CPU burner pinned to core 1
#   bash .ci/measure.sh --runs 5 --burn --warm   # the same, runs after the first reuse its GOCACHE
# Each run clones HEAD of this repository into a new folder with ../shared beside it (a symlink
# to this checkout's ../shared) and runs .ci/run there. GOCACHE is a new empty folder per run
# (GOMODCACHE is kept: the module proxy is not what is measured); with --warm, every run after
# the first uses the first run's GOCACHE, as CI on a machine that has built before. Prints one
# line per run (wall time, exit code, CPU seconds, the load average, the stage times test.sh
# printed) and keeps the logs.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
runs=1 burn=0 warm=0
while [ $# -gt 0 ]; do
  case "$1" in
  --runs) runs=${2:?}; shift ;;
  --burn) burn=1 ;;
  --warm) warm=1 ;;
  *) echo "measure.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
shared=$(cd "$repo/../shared" && pwd)
out=$(mktemp -d "${TMPDIR:-/tmp}/finbot-ci-XXXX")
burner=""
if [ "$burn" = 1 ]; then
  taskset -c 1 bash -c 'while :; do :; done' &
  burner=$!
fi
cleanup() { [ -z "$burner" ] || kill "$burner" 2>/dev/null || true; }
trap cleanup EXIT
echo "measure.sh: $runs run(s), burner: $([ "$burn" = 1 ] && echo "core 1" || echo none), commit $(git rev-parse --short HEAD), logs in $out"
echo "machine: $(nproc) CPUs, $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1), $(go version | cut -d' ' -f3)"
first_cache=""
for n in $(seq 1 "$runs"); do
  dir="$out/run$n"
  mkdir -p "$dir"
  ln -s "$shared" "$dir/shared"
  git clone -q "$repo" "$dir/main"
  cache="$dir/gocache"
  if [ "$warm" = 1 ] && [ -n "$first_cache" ]; then
    cache=$first_cache
  fi
  [ -n "$first_cache" ] || first_cache=$cache
  start=$(date +%s)
  rc=0
  load0=$(cut -d' ' -f1 /proc/loadavg)
  timer=()
  [ ! -x /usr/bin/time ] || timer=(/usr/bin/time -f '%U %S' -o "$dir/cpu")
  # The CPU time (user + system) of the run and everything it waited for: unlike the wall time,
  # it barely changes with what else the machine is doing.
  (cd "$dir/main" && GOCACHE="$cache" GOFLAGS="${GOFLAGS:-}" "${timer[@]}" bash .ci/run) >"$dir/log" 2>&1 || rc=$?
  secs=$(($(date +%s) - start))
  cpu=$([ -s "$dir/cpu" ] && awk 'END {printf "%d", $1 + $2}' "$dir/cpu" || echo "?") # its last line: a failed run's has a note before
  # || true: a run that fails before a stage prints nothing to grep, and set -e must not end
  # the measurement silently there.
  stages=$(grep -o '^== [^(]*([0-9]*s)' "$dir/log" | sed 's/^== //' | tr '\n' ';' | sed 's/;$//' || true)
  fuzz=$(grep -o 'fuzz.sh: [0-9]* targets, [0-9]* failed, [0-9]* hit[^,]*' "$dir/log" | tail -1 || true)
  printf 'run %d: %dm%02ds exit %d, CPU %ss, load %s at the start, %s at the end | %s | %s\n' "$n" $((secs / 60)) $((secs % 60)) \
    "$rc" "$cpu" "$load0" "$(cut -d' ' -f1-3 /proc/loadavg)" "$stages" "$fuzz"
  if [ "$rc" != 0 ]; then
    echo "---- run $n failed; last lines of $dir/log:"
    tail -n 40 "$dir/log"
  fi
done
