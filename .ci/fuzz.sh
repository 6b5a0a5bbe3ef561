#!/usr/bin/env bash
# Runs every fuzz target of the module, one at a time, each for the given time:
#   ./.ci/fuzz.sh 10s            # seconds inside CI
#   ./.ci/fuzz.sh 5m             # minutes outside it
#   ./.ci/fuzz.sh 30s ./bot/...  # only the targets under these directories
# Targets are found by grepping `func FuzzXxx(` in *_test.go files; `go test -fuzz` takes one
# target of one package per run. Prints a table (package, target, result, time) and exits
# non-zero if any target fails. A failing input is written by Go to
# <package>/testdata/fuzz/<Target>/<hash>: commit it as a regression seed once fixed.
set -euo pipefail
cd "$(dirname "$0")/.."

fuzztime=${1:-10s}
shift || true
roots=("$@")
[ ${#roots[@]} -gt 0 ] || roots=(.)

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
echo "fuzz.sh: $total targets, $fuzztime each"

results=()
failed=0
n=0
start_all=$SECONDS
while IFS=$'\t' read -r dir name; do
  n=$((n + 1))
  pkg=$mod/${dir#./}
  log="$logs/$n.log"
  printf '[%2d/%d] %s %s … ' "$n" "$total" "${pkg#"$mod"/}" "$name"
  start=$SECONDS
  if go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" "$dir" >"$log" 2>&1; then
    result=ok
  else
    result=FAIL
    failed=$((failed + 1))
  fi
  secs=$((SECONDS - start))
  echo "$result (${secs}s)"
  if [ "$result" = FAIL ]; then
    echo "---- $pkg $name"
    tail -n 40 "$log"
    echo "----"
  fi
  results+=("$(printf '%-34s %-20s %-5s %5ss' "${pkg#"$mod"/}" "$name" "$result" "$secs")")
done <<<"$targets"

echo
printf '%-34s %-20s %-5s %6s\n' PACKAGE TARGET RESULT TIME
printf '%s\n' "${results[@]}"
echo
echo "fuzz.sh: $total targets, $failed failed, $((SECONDS - start_all))s in all ($fuzztime each)"
[ "$failed" = 0 ]
