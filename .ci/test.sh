#!/usr/bin/env bash
# The test command (README): sets up everything the tests need on a fresh machine, then runs
# them. Idempotent; safe to run again.
#   - installs the Bot API emulator telegram-test-api into .cache/tgemu (npm, local folder)
#   - uses the Redis at $REDIS_URL (default redis://127.0.0.1:6379/0), or starts one
#   - installs redis-server when missing (the fault tests stop and start one of their own), and
#     tesseract-ocr, tesseract-ocr-rus and poppler-utils (photos and scans) when missing
#   - starts a three-master Redis Cluster on 127.0.0.1:7101-7103 (.ci/redis-cluster.sh), or
#     reuses one that answers; the Redis suites run against it as well as the single server
#   - checks formatting and the import direction; runs go test over every package (which replays
#     every fuzz target's seeds and committed findings): with -race where goroutines meet, plain
#     elsewhere, split by .ci/packages.sh, each package exactly once; vets every package; builds
#     and vets every other module of the repository (library/retrieval/blevebench); then fuzzes
#     every target for its budget of executions (.ci/fuzz-budgets.tsv) — advisory: random
#     exploration can find something new on any run, so a new finding is reported loudly but
#     does not fail the gate
# Each stage prints the seconds since the start; docs/ci.md has the timings and how they were taken.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

say() { printf '\n== %s (%ds)\n' "$*" "$SECONDS"; }

say "toolchain"
go version
command -v node >/dev/null || { echo "node is required for the Telegram end-to-end tests"; exit 1; }
node --version
# -trimpath: compiled packages do not depend on the checkout's folder, so a new clone on a machine
# that has built before finds the module's packages in the build cache; without it each of them
# compiles again, in each of the three configurations (race, plain, fuzz). Added to GOFLAGS as
# go env has it (an exported GOFLAGS replaces go env's).
goflags=$(go env GOFLAGS)
[[ " $goflags " == *" -trimpath "* ]] || export GOFLAGS="${goflags:+$goflags }-trimpath"
echo "GOFLAGS=$GOFLAGS"

say "telegram-test-api (Bot API emulator)"
emu="$root/.cache/tgemu"
if [ ! -f "$emu/node_modules/telegram-test-api/package.json" ]; then
  mkdir -p "$emu"
  npm install --prefix "$emu" --no-audit --no-fund --loglevel=error telegram-test-api@4.2.1
fi
node -e "console.log('telegram-test-api', require('$emu/node_modules/telegram-test-api/package.json').version)"

say "redis"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379/0}"
hostport=${REDIS_URL#*://}; hostport=${hostport#*@}; hostport=${hostport%%/*}
rhost=${hostport%:*}; rport=${hostport##*:}
redis_up() { (exec 3<>"/dev/tcp/$rhost/$rport" && printf 'PING\r\n' >&3 && timeout 2 head -c 5 <&3 | grep -q PONG) 2>/dev/null; }
# The fault tests start and stop a redis-server of their own, so the binary is needed even
# when a Redis already answers.
if ! command -v redis-server >/dev/null; then
  echo "installing redis-server"
  if [ "$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq redis-server >/dev/null
  else sudo apt-get update -qq && sudo apt-get install -y -qq redis-server >/dev/null; fi
fi
# Photos and scans are recognised by tesseract (Russian) and scanned PDFs rendered by pdftoppm;
# FINBOT_REQUIRE_OCR=1 (below) makes the OCR tests fail rather than skip without them.
if ! command -v tesseract >/dev/null || ! command -v pdftoppm >/dev/null ||
  ! tesseract --list-langs 2>/dev/null | grep -qx rus; then
  echo "installing tesseract-ocr, tesseract-ocr-rus, poppler-utils"
  if [ "$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tesseract-ocr tesseract-ocr-rus poppler-utils >/dev/null
  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tesseract-ocr tesseract-ocr-rus poppler-utils >/dev/null; fi
fi
tesseract --version 2>&1 | head -n 1
if ! redis_up; then
  if ! command -v redis-server >/dev/null; then
    echo "no Redis answers on $rhost:$rport; installing redis-server"
    if [ "$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq redis-server >/dev/null
    else sudo apt-get update -qq && sudo apt-get install -y -qq redis-server >/dev/null; fi
  fi
  echo "starting redis-server on $rhost:$rport"
  mkdir -p "$root/.cache/redis"
  redis-server --daemonize yes --bind "$rhost" --port "$rport" --save "" --appendonly no \
    --dir "$root/.cache/redis" --logfile "$root/.cache/redis/redis.log"
  for _ in $(seq 1 50); do redis_up && break; sleep 0.1; done
  redis_up || { echo "redis-server did not start"; exit 1; }
fi
echo "redis answers on $rhost:$rport"

say "redis cluster"
# Three masters, no replicas, no persistence: ~2 s to create, nothing when one already answers.
# FINBOT_REQUIRE_REDIS=1 (below) makes the cluster suites fail rather than skip without it.
if [ -z "${REDIS_CLUSTER_ADDRS:-}" ]; then
  REDIS_CLUSTER_ADDRS=$(bash .ci/redis-cluster.sh)
fi
export REDIS_CLUSTER_ADDRS
echo "redis cluster: $REDIS_CLUSTER_ADDRS"

say "gofmt, import direction"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './.cache/*'))
[ -z "$unformatted" ] || { echo "gofmt would change: $unformatted"; exit 1; }

# Everything CPU-bound runs at once, so that it fills the time the race tests spend waiting
# (fault injection, the replicas, the load run): the go test runs below; beside them the fuzz
# script's self-test, and the fuzz targets — first their coverage-instrumented build,
# then each target for its budget of executions (.ci/fuzz-budgets.tsv; counts, not seconds, so
# Go's coordinator race golang/go#75804 cannot fail the run). Their logs are printed after the
# tests, in this order. The gate must be deterministic, and fuzzing is random: a new finding
# (stop 24 met one in the tokenizer) is printed with its input and how to reproduce it, then
# fixed and committed under the package's testdata/fuzz/, where go test replays it on every run.
# Longer fuzzing outside CI: FUZZ_SCALE=50 bash .ci/fuzz.sh.
logs="$root/.cache/ci"
mkdir -p "$logs"
bash .ci/fuzz-selftest.sh >"$logs/fuzz-selftest.log" 2>&1 &
selftest=$!
# The fuzz stage runs at the lowest priority and, once the tests, vet and the other modules are
# done (FUZZ_STOP_FILE), starts no more targets than the three it must run (FUZZ_MIN_TARGETS):
# it fills the CPU the tests leave idle while the race run waits on timeouts, and adds at most
# those three to the command. Each day starts at a different target, so every one gets its
# turn; FUZZ_FULL=1 runs them all. Exploration is advisory; go test replays every committed input.
# On a cold cache the instrumented build does not finish before the tests, and then no target is
# owed (the first would compile the instrumented dependencies for minutes after the tests).
fuzz_stop="$logs/fuzz.stop" fuzz_built="$logs/fuzz.built"
rm -f "$fuzz_stop" "$fuzz_built"
[ "${FUZZ_FULL:-0}" = 1 ] && fuzz_stop_env="" || fuzz_stop_env="$fuzz_stop"
# A cold Go build cache (a fresh machine: fewer than 3000 files in it) skips the stage: its
# instrumented build would not finish before the tests, so it would run no target, and on two
# cores its compiling slows the cold race build it shares them with (FUZZ_FULL=1 runs it anyway).
cached=$( (find "$(go env GOCACHE)" -maxdepth 2 -type f 2>/dev/null || true) | head -n 3000 | wc -l) # (find stops on SIGPIPE: pipefail)
if [ "$cached" -lt 3000 ] && [ "${FUZZ_FULL:-0}" != 1 ]; then
  echo "cold Go build cache ($cached files): the fuzz stage is skipped; go test replayed every committed input" >"$logs/fuzz.log"
  true &
else
  (FUZZ_STOP_FILE="$fuzz_stop_env" FUZZ_BUILT_FILE="$fuzz_built" nice -n 19 bash -c 'bash .ci/fuzz.sh --build && bash .ci/fuzz.sh') >"$logs/fuzz.log" 2>&1 &
fi
fuzz=$!
trap 'pkill -P $fuzz 2>/dev/null; kill $selftest $fuzz 2>/dev/null || true' EXIT
bash .ci/imports.sh
# Every other module of the repository (library/retrieval/blevebench: bleve against finbot's
# retrieval, kept out of finbot's go.mod): its test binary builds, so its go.mod and go.sum are
# complete, and it vets. bench.sh runs its benchmark. At the lowest priority from the start: it
# compiles a dependency graph of its own (bleve), in the CPU the tests leave.
(
  rc=0
  for gomod in $(git ls-files '*/go.mod' 2>/dev/null || find . -mindepth 2 -name go.mod -not -path './.cache/*'); do
    dir=$(dirname "$gomod")
    echo "module $dir"
    # no -race: no test runs here, and a race build of bleve's graph would cost the cold run a minute
    (cd "$dir" && nice -n 19 go test -vet=all -count=1 -run '^$' ./...) || rc=1
  done
  exit $rc
) >"$logs/modules.log" 2>&1 &
modules=$!

say "go test: -race where goroutines meet, plain elsewhere (.ci/packages.sh)"
export TGEMU_DIR="$emu" FINBOT_E2E=1 FINBOT_REQUIRE_REDIS=1 FINBOT_REQUIRE_OCR=1
# .ci/packages.sh splits the packages by rules (bash .ci/packages.sh -v shows each one's run and
# why) and fails unless every package is tested exactly once. Each line is one go test
# invocation. The first, the race run (every race package, the split ones' race parts among
# them), is the long one: it waits on fault timeouts, the replicas and the load run. The others
# (the plain run, then the split packages' plain parts) follow one another beside it, so that their CPU-bound tests and builds fill that
# waiting; started all at once they would compile the same standard library and dependencies
# twice (separate go commands do not share work in progress). Outputs are printed after, in order.
runs=$(bash .ci/packages.sh)
mod=$(go list -m)
# gotest N MODE FILTER PACKAGES: invocation N, its output in $logs/test-N.log.
gotest() {
  # -vet=all: the whole of go vet, in the build each run compiles anyway (a separate go vet
  # compiled the plain run's packages once more for the race configuration).
  # -ldflags=-w: test binaries without DWARF (stack traces and race reports need none) link in
  # half the time: some 50 CPU-seconds of a cold run, which links every package's binary twice.
  local n=$1 mode=$2 filter=$3 pkgs=$4 args=(-count=1 -timeout 10m -vet=all -ldflags=-w)
  [ "$mode" = race ] && args+=(-race -p 4)
  args+=("${extra[@]}") # test.sh's arguments (-v, -run …); the split filter after them wins
  [ "$filter" = - ] || args+=("$filter")
  # The slowest race packages first (they wait on timeouts and the load run), so that their
  # waiting overlaps the other packages' builds and runs.
  pkgs=$(for p in "$mod" "$mod/internal/app" "$mod/internal/load"; do
    [[ " $pkgs " == *" $p "* ]] && echo "$p"; done; tr ' ' '\n' <<<"$pkgs" |
    grep -vxF -e "$mod" -e "$mod/internal/app" -e "$mod/internal/load" || true)
  # shellcheck disable=SC2086 # one word per package
  go test "${args[@]}" $pkgs >"$logs/test-$n.log" 2>&1
}
extra=("$@")
names=()
while IFS=$'\t' read -r mode filter pkgs; do
  if [ "$filter" = - ]; then names+=("$mode"); else names+=("$mode $filter"); fi
  printf 'go test %d: %s, %s packages\n' ${#names[@]} "${names[-1]}" "$(wc -w <<<"$pkgs")"
done <<<"$runs"
rm -f "$logs"/test-*.rc
first=$(head -n 1 <<<"$runs")
(IFS=$'\t' read -r mode filter pkgs <<<"$first"; gotest 1 "$mode" "$filter" "$pkgs") &
pids=($!)
(
  rc=0 n=1
  while IFS=$'\t' read -r mode filter pkgs; do
    n=$((n + 1))
    gotest "$n" "$mode" "$filter" "$pkgs" || { echo $? >"$logs/test-$n.rc"; rc=1; }
  done < <(tail -n +2 <<<"$runs")
  exit $rc
) &
pids+=($!)
trap 'for p in $fuzz $modules "${pids[@]}"; do pkill -P $p; done 2>/dev/null; kill $selftest $fuzz $modules "${pids[@]}" 2>/dev/null || true' EXIT
failed=()
wait "${pids[0]}" || echo 1 >"$logs/test-1.rc"
wait "${pids[1]}" || true
for i in $(seq 1 ${#names[@]}); do
  say "go test ${names[$((i - 1))]}"
  cat "$logs/test-$i.log"
  [ ! -f "$logs/test-$i.rc" ] || failed+=("go test ${names[$((i - 1))]}")
done

# stage NAME PID LOG: waits for a background stage and prints its log.
stage() {
  say "$1"
  local rc=0
  wait "$2" || rc=$?
  cat "$3"
  [ "$rc" = 0 ] || failed+=("$1")
}
touch "$fuzz_stop" # the tests (and vet, -vet=all) are done: the fuzz stage starts no target it does not owe
stage "other modules: build and vet" $modules "$logs/modules.log"
stage "fuzz self-test" $selftest "$logs/fuzz-selftest.log"
say "fuzz targets (advisory)"
fuzzrc=0
wait $fuzz || fuzzrc=$?
cat "$logs/fuzz.log"
if [ "$fuzzrc" != 0 ]; then
  echo
  echo "!! FUZZ FINDING (advisory, not a landing gate): see the log above for the input and the"
  echo "!! go test -run line that reproduces it; fix the bug and commit the input under testdata/fuzz/."
fi
trap - EXIT

if [ ${#failed[@]} -gt 0 ]; then
  say "FAILED: ${failed[*]}"
  exit 1
fi
say "done"
