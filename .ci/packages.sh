#!/usr/bin/env bash
# Splits the module's packages between the two test runs of .ci/test.sh, by rules rather than a
# list, so that a new or renamed package is placed without editing this file:
#   race   go test -race: where goroutines meet. The root package (the end-to-end and fault
#          tests) and every package under bot/, internal/ and integrations/; and anywhere else,
#          a package whose Go files, tests included, start goroutines or run tests in parallel
#          (a go statement, .Go(, sync.WaitGroup, errgroup, time/context.AfterFunc,
#          testing/synctest, t.Parallel()).
#   plain  go test without the race detector: every other package. Their tests run in one
#          goroutine, where -race watches nothing and costs 5–15× the time (the agent package:
#          89 s against 20 s, one package at a time; docs/ci.md has the others). The agent's concurrent work is raced all the same: the
#          executor that runs plan steps at once is in the race run, and the race-built end-to-end,
#          load and bot tests drive the whole agent from many chats at once.
# One exception by test, not by package (plain_tests below): a test that does seconds of
# CPU-bound work in one goroutine inside a race package runs in the plain run, and the rest of
# its package under -race.
#
# Prints the go test invocations to make, one per line, tab-separated:
#   race|plain <TAB> filter <TAB> package...
# where filter is "-" (every test) or "-run=RE" / "-skip=RE". Three lines: the race run (every
# race package, and the split packages' race parts, under -skip=UNION of the split expressions),
# the plain run (every plain package, whole), and the split packages' plain parts (-run=UNION).
# One race invocation lets a part that waits long (internal/app's) start with the rest rather
# than alone at the end of a chain of small runs. Then checks that every package of
# `go list ./...` is tested exactly once — whole, or split by one expression across both runs —
# and that UNION matches no test of a race package but its own split part.
# `bash .ci/packages.sh -v` prints each package's run and why instead.
set -euo pipefail
cd "$(dirname "$0")/.."

mod=$(go list -m)

# package <TAB> regexp of its tests that run plain although the package runs under -race.
#   library/extract TestHostileShapes: extracts 33 hostile files (up to 100 MB of XML) one at a
#   time with a 10-minute timeout, so each parse finishes in the one worker goroutine: 186 s
#   under -race, 17 s plain. Extract's goroutine, cancellation and slots are raced by the
#   package's other tests (TestContext, the slots tests) and by the bot's upload tests.
#   integrations/onec/ledgergen TestRealistic…: generate the realistic demo base (135,000 register
#   records) and check every recipe on it with plain loops, in one goroutine: 67 s under -race.
#   The generator starts no goroutine; the demo's concurrent use is raced in integrations/onec.
#   integrations/onec TestDocumentsBy…: every counterparty's and contract's documents over every
#   period, each run through the demo's query evaluator (a union of 15 document kinds) in one
#   goroutine: 32 s under -race, 4 s plain. The demo's and the proxy client's concurrency are
#   raced by the package's other tests.
#   internal/app TestOverdueAlertFollowsAging: one subscription's hourly checks over two days on a
#   fake clock, each the demo's aging template run by its query evaluator, one at a time: 33 s
#   under -race, 1.5 s plain. The scheduler's goroutines are raced in agent/digest, through the
#   bot in bot, and with the same agent in the package's other digest tests.
#   library TestClauseRankSets, TestIndexSizeEstimate: rank every question of the five document
#   sets' clauses, and index the evaluation corpus ten times over, each in one goroutine: 20 s
#   under -race, 2.4 s plain. The library's goroutines (the index build, the quota) are raced
#   by the package's other tests.
#   internal/testscans TestFixtures: renders the nine test pictures (noise, blur, skew) in one
#   goroutine and compares them with the committed ones: 86 s under -race in a loaded run.
plain_tests=$(printf '%s\t%s\n' \
  "$mod/library/extract" '^TestHostileShapes$' \
  "$mod/integrations/onec/ledgergen" '^TestRealistic' \
  "$mod/integrations/onec" '^TestDocumentsBy(Counterparty|Contract)$' \
  "$mod/internal/app" '^TestOverdueAlertFollowsAging$' \
  "$mod/library" '^(TestClauseRankSets|TestIndexSizeEstimate)$' \
  "$mod/internal/testscans" '^TestFixtures$')

goroutines='^[[:space:]]*go (func|[A-Za-z_][A-Za-z0-9_.]*\()|\.Go\(|sync\.WaitGroup|errgroup\.|(time|context)\.AfterFunc|testing/synctest|\.Parallel\(\)'

verbose=0
[ "${1:-}" = -v ] && verbose=1

race=() plain=() lines=()
while IFS='|' read -r pkg dir files; do
  rel=${pkg#"$mod"}
  rel=${rel#/}
  why=""
  if [ -z "$rel" ]; then
    why="the root package: end-to-end and fault tests"
  elif [[ "$rel" =~ ^(bot|internal|integrations)(/|$) ]]; then
    why="under ${BASH_REMATCH[1]}/"
  elif [ -n "${files// /}" ]; then
    # (grep -q ends the pipe early: without pipefail, so that a hit counts)
    hit=$(set +o pipefail; cd "$dir" && for f in $files; do grep -v '^[[:space:]]*//' "$f" | grep -qE "$goroutines" && printf '%s ' "$f"; done || true)
    [ -z "$hit" ] || why="starts goroutines: ${hit% }"
  fi
  if [ -n "$why" ]; then
    race+=("$pkg")
    lines+=("race	$pkg	$why")
  else
    plain+=("$pkg")
    lines+=("plain	$pkg	one goroutine")
  fi
done < <(go list -f '{{.ImportPath}}|{{.Dir}}|{{join .GoFiles " "}} {{join .TestGoFiles " "}} {{join .XTestGoFiles " "}}' ./...)

# Split packages leave the whole-package lists and get a filtered invocation in each run.
split=()
while IFS=$'\t' read -r pkg re; do
  [ -n "$pkg" ] || continue
  if ! printf '%s\n' "${race[@]}" | grep -qxF "$pkg"; then
    echo "packages.sh: $pkg in plain_tests is not a race package (moved? renamed?)" >&2
    exit 1
  fi
  race=($(printf '%s\n' "${race[@]}" | grep -vxF "$pkg"))
  split+=("$pkg	$re")
done <<<"$plain_tests"

if [ "$verbose" = 1 ]; then
  printf '%s\n' "${lines[@]}" | column -t -s $'\t'
  for s in "${split[@]}"; do printf 'split  %s: %s runs plain, the rest under -race\n' "${s%%	*}" "${s#*	}"; done
  exit 0
fi

# The split packages' parts join the two runs as two filters: their race parts go into the one
# race invocation under -skip=UNION (so that a long-waiting part such as internal/app's starts
# with the other race packages rather than alone at the end), their plain parts into one plain
# invocation under -run=UNION. UNION is every split expression, each anchored as given; the
# check below the lines makes sure that no test of another package matches it.
union=$(for s in "${split[@]}"; do printf '%s\n' "${s#*	}"; done | paste -sd'|')
union="(${union})"
splitpkgs=$(for s in "${split[@]}"; do printf '%s ' "${s%%	*}"; done)
splitpkgs=${splitpkgs% }

# No whole package's test, benchmark, fuzz target or example may match UNION: the race run's
# -skip would drop it. Nor may a split package's test match another package's expression
# unless it matches its own: the plain run's -run would run it twice.
names_of() { # package dir → its test function names
  (cd "$1" && grep -ho '^func \(Test\|Benchmark\|Fuzz\|Example\)[A-Za-z0-9_]*' ./*_test.go 2>/dev/null | sed 's/^func //') || true
}
bad=0
while IFS='|' read -r pkg dir; do
  [[ " ${race[*]} $splitpkgs " == *" $pkg "* ]] || continue # the plain run has no filter
  own=""
  for s in "${split[@]}"; do [ "${s%%	*}" = "$pkg" ] && own=${s#*	}; done
  while read -r name; do
    [ -n "$name" ] || continue
    if printf '%s\n' "$name" | grep -qE "$union"; then
      if [ -z "$own" ] || ! printf '%s\n' "$name" | grep -qE "$own"; then
        echo "packages.sh: $pkg's $name matches the split expressions $union but is not its package's split part" >&2
        bad=1
      fi
    fi
  done < <(names_of "$dir")
done < <(go list -f '{{.ImportPath}}|{{.Dir}}' ./...)
[ "$bad" = 0 ] || exit 1

out=$(
  printf 'race\t-skip=%s\t%s\n' "$union" "${race[*]} $splitpkgs"
  printf 'plain\t-\t%s\n' "${plain[*]}"
  printf 'plain\t-run=%s\t%s\n' "$union" "$splitpkgs"
)

# The check: every package once, whole (in the plain run, or in the race run and not split) or
# split across the race run's -skip and the split plain run's -run.
awk -F'\t' -v all="$(go list ./... | tr '\n' ' ')" -v splitpkgs=" $splitpkgs " '
  { n = split($3, p, " "); for (i = 1; i <= n; i++) {
      if ($2 == "-" || index(splitpkgs, " " p[i] " ") == 0) whole[p[i]]++
      else { re = $2; sub(/^-(run|skip)=/, "", re); kind = substr($2, 2, index($2, "=") - 2)
             part[p[i] SUBSEP kind] = re; parts[p[i]]++ }
  } }
  END {
    bad = 0; split(all, pk, " ")
    for (i in pk) {
      q = pk[i]; w = whole[q] + 0; s = parts[q] + 0
      ok = (w == 1 && s == 0) || (w == 0 && s == 2 && part[q SUBSEP "run"] != "" && part[q SUBSEP "run"] == part[q SUBSEP "skip"])
      if (!ok) { printf "packages.sh: %s is tested %d time(s) whole and %d in part\n", q, w, s > "/dev/stderr"; bad = 1 }
      seen[q] = 1
    }
    for (q in whole) if (!(q in seen)) { printf "packages.sh: %s is not a package of the module\n", q > "/dev/stderr"; bad = 1 }
    exit bad
  }' <<<"$out"
printf '%s\n' "$out"
