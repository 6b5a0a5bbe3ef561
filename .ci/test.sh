#!/usr/bin/env bash
# The test command (README): sets up everything the tests need on a fresh machine, then runs
# them. Idempotent; safe to run again.
#   - installs the Bot API emulator telegram-test-api into .cache/tgemu (npm, local folder)
#   - uses the Redis at $REDIS_URL (default redis://127.0.0.1:6379/0), or starts one
#   - installs redis-server when missing (the fault tests stop and start one of their own)
#   - checks formatting, vet and the import direction, runs go test -race ./..., then fuzzes
#     every fuzz target for its budget of executions (.ci/fuzz-budgets.tsv)
# Each stage prints the seconds since the start; docs/ci.md has the timings and how they were taken.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

say() { printf '\n== %s (%ds)\n' "$*" "$SECONDS"; }

say "toolchain"
go version
command -v node >/dev/null || { echo "node is required for the Telegram end-to-end tests"; exit 1; }
node --version

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

say "gofmt, go vet, import direction"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './.cache/*'))
[ -z "$unformatted" ] || { echo "gofmt would change: $unformatted"; exit 1; }

# The fuzz binaries are built with coverage instrumentation, a second build of every dependency.
# It runs in the background while vet and the race tests build and wait on I/O, so the fuzz stage
# below only links and runs. Its log is shown if it fails.
mkdir -p "$root/.cache/ci"
bash .ci/fuzz.sh --build >"$root/.cache/ci/fuzz-build.log" 2>&1 &
fuzz_build=$!
trap 'pkill -P $fuzz_build 2>/dev/null; kill $fuzz_build 2>/dev/null || true' EXIT

go vet ./...
bash .ci/imports.sh

say "go test -race ./..."
export TGEMU_DIR="$emu" FINBOT_E2E=1 FINBOT_REQUIRE_REDIS=1
go test -race -count=1 "$@" ./...

# Fuzzing: each target for its budget of executions (.ci/fuzz-budgets.tsv; counts, not seconds,
# so Go's coordinator race golang/go#75804 cannot fail the run). A failing input is written under
# the package's testdata/fuzz/ and fails the run. Longer: FUZZ_SCALE=50 bash .ci/fuzz.sh.
say "fuzz targets"
if ! wait $fuzz_build; then
  cat "$root/.cache/ci/fuzz-build.log"
  echo "building the fuzz targets failed"
  exit 1
fi
trap - EXIT
bash .ci/fuzz-selftest.sh
bash .ci/fuzz.sh

say "done"
