#!/usr/bin/env bash
# Runs every fuzz target of the module, one at a time, each for a budget of executions:
#   ./.ci/fuzz.sh                # CI: each target's budget from .ci/fuzz-budgets.tsv
#   FUZZ_SCALE=20 ./.ci/fuzz.sh  # twenty times every budget (a longer look outside CI)
#   ./.ci/fuzz.sh 5m             # a duration for every target (exploration, never in CI)
#   ./.ci/fuzz.sh 200000x ./bot/...   # one count for every target under these directories
#   ./.ci/fuzz.sh --build        # only compiles the instrumented test binaries (test.sh runs this
#                                # in the background so the fuzz stage later only links and runs)
#   FUZZ_STOP_FILE=path          # when path exists, the targets not yet started are skipped
#                                # once FUZZ_MIN_TARGETS (3) have run — none when FUZZ_BUILT_FILE
#                                # is named but --build did not get to write it (test.sh: the fuzz stage
#                                # uses the CPU the tests leave and stops soon after them); the
#                                # order then starts at a different target each day, so every
#                                # target gets its turn
#
# Why counts, not seconds: with a duration -fuzztime, Go's coordinator can see its own deadline
# before it has cancelled the workers and report a clean stop as "context deadline exceeded"
# with no failing input (golang/go#75804, fixed in Go 1.27; every go1.26.x has it). It fires
# more often on a loaded machine, which CI is. A count budget sets no such deadline.
#
# A target fails the run only on a real finding:
#   - a failing input written under <package>/testdata/fuzz/<Target>/ (commit it as a regression
#     seed once the bug is fixed),
#   - a panic or a failing seed-corpus entry,
#   - the target hanging past FUZZ_TIMEOUT (go test's -timeout, default 10m).
# A bare "context deadline exceeded" with nothing written is the coordinator race: the target is
# run once more, and if the race fires again it is reported ("race, twice") but does not fail.
#
# Targets are found by grepping `func FuzzXxx(` in *_test.go files; `go test -fuzz` takes one
# target of one package per run. Prints a table (package, target, budget, execs, result, time).
set -euo pipefail
cd "$(dirname "$0")/.."

budgets_file=.ci/fuzz-budgets.tsv
default_execs=${FUZZ_DEFAULT_EXECS:-20000}
scale=${FUZZ_SCALE:-1}
timeout=${FUZZ_TIMEOUT:-10m}
override=""
build_only=0
if [ "${1:-}" = --build ]; then
  build_only=1
  shift
fi
if [ $# -gt 0 ] && [[ "$1" != ./* && "$1" != . ]]; then
  override=$1
  shift
fi
roots=("$@")
[ ${#roots[@]} -gt 0 ] || roots=(.)
if [ -n "$override" ] && ! [[ "$override" =~ ^[0-9]+x$ || "$override" =~ ^[0-9.]+(ms|s|m|h)$ ]]; then
  echo "fuzz.sh: budget must be a count (10000x) or a duration (30s, 5m): $override" >&2
  exit 2
fi
[[ "$scale" =~ ^[0-9]+$ ]] || { echo "fuzz.sh: FUZZ_SCALE must be a whole number" >&2; exit 2; }

mod=$(go list -m)
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# package directory <TAB> target, sorted, one line per target.
targets=$(
  for root in "${roots[@]}"; do
    root=${root%/...}
    find "$root" -name '*_test.go' -not -path '*/testdata/*' -not -path './.cache/*' -not -path '*/node_modules/*'
  done | sort -u | while read -r file; do
    dir=$(dirname "$file")
    dir=./${dir#./}
    sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)([A-Za-z0-9_]* \*testing\.F).*/\1/p' "$file" | while read -r name; do
      printf '%s\t%s\n' "$dir" "$name"
    done
  done | sort -u
)
if [ -z "$targets" ]; then
  echo "fuzz.sh: no fuzz targets found under ${roots[*]}" >&2
  exit 1
fi
total=$(printf '%s\n' "$targets" | wc -l)

if [ "$build_only" = 1 ]; then
  # One instrumented build per package; the go command caches what it compiles, so the later
  # `go test -fuzz` of each target finds every package compiled.
  for dir in $(printf '%s\n' "$targets" | cut -f1 | sort -u); do
    if [ -n "${FUZZ_STOP_FILE:-}" ] && [ -e "$FUZZ_STOP_FILE" ]; then
      echo "fuzz.sh --build: stopped, the tests are done (a cold cache: no target will be required)"
      exit 0
    fi
    start=$SECONDS
    # A build still compiling when the tests are done is interrupted, not waited for: on a cold
    # cache the instrumented dependencies take minutes, and no target will be owed.
    go test -c -fuzz . -o /dev/null "$dir" &
    gopid=$!
    while kill -0 "$gopid" 2>/dev/null; do
      if [ -n "${FUZZ_STOP_FILE:-}" ] && [ -e "$FUZZ_STOP_FILE" ]; then
        kill -TERM "$gopid" 2>/dev/null || true
        wait "$gopid" 2>/dev/null || true
        echo "fuzz.sh --build: $dir interrupted after $((SECONDS - start))s, the tests are done (a cold cache: no target will be required)"
        exit 0
      fi
      sleep 1
    done
    wait "$gopid" || exit $?
    echo "fuzz.sh --build: $dir ($((SECONDS - start))s)"
  done
  [ -z "${FUZZ_BUILT_FILE:-}" ] || touch "$FUZZ_BUILT_FILE"
  exit 0
fi

# budget DIR NAME: the -fuzztime of one target.
budget() {
  if [ -n "$override" ]; then
    echo "$override"
    return
  fi
  local n
  n=$(awk -F'\t' -v d="$1" -v t="$2" '$1 == d && $2 == t { print $3 }' "$budgets_file" 2>/dev/null)
  [ -n "$n" ] || echo "fuzz.sh: $1 $2 has no budget in $budgets_file; using $default_execs" >&2
  echo "$(( ${n:-$default_execs} * scale ))x"
}

# corpus_files DIR NAME: the inputs under the target's testdata/fuzz folder, one per line.
corpus_files() {
  local d="$1/testdata/fuzz/$2"
  [ -d "$d" ] && find "$d" -type f | sort || true
}

# run_target DIR NAME FUZZTIME LOG: runs one target; prints ok, finding, fail or race.
run_target() {
  local dir=$1 name=$2 ft=$3 log=$4 before after
  before=$(corpus_files "$dir" "$name")
  if go test -run '^$' -fuzz "^${name}\$" -fuzztime "$ft" -timeout "$timeout" "$dir" >"$log" 2>&1; then
    echo ok
    return
  fi
  after=$(corpus_files "$dir" "$name")
  if [ "$before" != "$after" ] || grep -q 'Failing input written to' "$log"; then
    echo finding
  elif grep -q 'context deadline exceeded' "$log" &&
    ! grep -qE '^panic:|panic: test timed out|--- FAIL: .*#|fuzz: minimizing' "$log"; then
    echo race
  else
    echo fail
  fi
}

# execs LOG: the last execution count the fuzzer reported.
execs() { sed -n 's/.*execs: \([0-9]*\).*/\1/p' "$1" | tail -1; }

stop_file=${FUZZ_STOP_FILE:-}
min_targets=${FUZZ_MIN_TARGETS:-3}
# A stage whose instrumented build did not finish before the tests (a cold cache) owes no target:
# the first one would compile the instrumented dependencies after the tests, for minutes.
if [ -n "$stop_file" ] && [ -n "${FUZZ_BUILT_FILE:-}" ] && [ ! -e "$FUZZ_BUILT_FILE" ]; then
  min_targets=0
fi
if [ -n "$stop_file" ]; then
  # Days since the epoch pick the first target: runs that stop early cover every target in turn.
  first=$(($(date +%s) / 86400 % total))
  # sed reads all its input: `head -n 0` exits unread and printf dies of SIGPIPE (pipefail: 141).
  targets=$(sed -n "$((first + 1)),\$p" <<<"$targets"; [ "$first" = 0 ] || sed -n "1,${first}p" <<<"$targets")
  targets=$(sed '/^$/d' <<<"$targets")
fi

echo "fuzz.sh: $total targets; budgets: ${override:-$budgets_file (x$scale)}; timeout $timeout each"
results=()
failed=0
races=0
skipped=0
n=0
start_all=$SECONDS
while IFS=$'\t' read -r dir name; do
  n=$((n + 1))
  if [ -n "$stop_file" ] && [ -e "$stop_file" ] && [ $((n - 1 - skipped)) -ge "$min_targets" ]; then
    skipped=$((skipped + 1))
    printf '[%2d/%d] %s %s … skipped: tests done (0s)\n' "$n" "$total" "${dir#./}" "$name"
    results+=("$(printf '%-28s %-18s %10s %10s %-20s %5ss' "${dir#./}" "$name" - - "skipped: tests done" 0)")
    continue
  fi
  pkg=${mod}/${dir#./}
  pkg=${pkg%/.}
  ft=$(budget "$dir" "$name")
  log="$logs/$n.log"
  printf '[%2d/%d] %s %s %s … ' "$n" "$total" "${pkg#"$mod"/}" "$name" "$ft"
  start=$SECONDS
  result=$(run_target "$dir" "$name" "$ft" "$log")
  if [ "$result" = race ]; then
    # golang/go#75804: a clean stop reported as a deadline; nothing was found. Once more.
    cp "$log" "$log.first"
    result=$(run_target "$dir" "$name" "$ft" "$log")
    case "$result" in
    ok) result="ok (race, retried)" ;;
    race) result="race, twice" ;;
    esac
  fi
  secs=$((SECONDS - start))
  echo "$result (${secs}s)"
  case "$result" in
  finding | fail)
    failed=$((failed + 1))
    echo "---- $pkg $name"
    tail -n 60 "$log"
    echo "----"
    ;;
  "race, twice")
    races=$((races + 1))
    echo "---- $pkg $name: golang/go#75804 fired twice; nothing written, not a finding"
    tail -n 8 "$log"
    echo "----"
    ;;
  esac
  results+=("$(printf '%-28s %-18s %10s %10s %-20s %5ss' "${pkg#"$mod"/}" "$name" "$ft" "$(execs "$log")" "$result" "$secs")")
done <<<"$targets"

echo
printf '%-28s %-18s %10s %10s %-20s %6s\n' PACKAGE TARGET BUDGET EXECS RESULT TIME
printf '%s\n' "${results[@]}"
echo
echo "fuzz.sh: $total targets, $failed failed, $races hit the coordinator race twice (reported, not failed), $skipped skipped (the tests were done first), $((SECONDS - start_all))s in all"
[ "$failed" = 0 ]
