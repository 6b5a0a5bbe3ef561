#!/usr/bin/env bash
# Checks that .ci/fuzz.sh fails on real findings and only on them. It copies fuzz.sh into a
# throwaway module with targets that misbehave on purpose, and stands a fake `go` in front of the
# real one to play Go's coordinator race (golang/go#75804), which cannot be provoked on demand:
#   - a mutation the fuzzer finds            -> "finding", the run fails, the input is written
#   - a failing seed-corpus entry            -> "fail", the run fails
#   - a target that hangs past FUZZ_TIMEOUT  -> "fail", the run fails
#   - the race once, then a clean run        -> "ok (race, retried)", the run passes
#   - the race twice                         -> "race, twice", reported, the run passes
#   - the race with a panic in the same log  -> "fail", the run fails
#   - the stop file present (the tests done)  -> "skipped: tests done", the run passes
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
real_go=$(command -v go)

mkdir -p "$work/m/.ci" "$work/bin"
cp "$here/fuzz.sh" "$work/m/.ci/fuzz.sh"
: >"$work/m/.ci/fuzz-budgets.tsv"
cd "$work/m"
printf 'module selftest\n\ngo 1.26\n' >go.mod
mkdir finding seedfail hang clean
cat >finding/f_test.go <<'EOF'
package finding

import "testing"

func FuzzFinding(f *testing.F) {
	f.Add([]byte("a"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 3 {
			t.Fatalf("found %q", b)
		}
	})
}
EOF
cat >seedfail/f_test.go <<'EOF'
package seedfail

import "testing"

func FuzzSeed(f *testing.F) {
	f.Add("boom")
	f.Fuzz(func(t *testing.T, s string) {
		if s == "boom" {
			panic("seed")
		}
	})
}
EOF
cat >hang/f_test.go <<'EOF'
package hang

import (
	"testing"
	"time"
)

func FuzzHang(f *testing.F) {
	f.Add(1)
	f.Fuzz(func(t *testing.T, n int) { time.Sleep(time.Hour) })
}
EOF
cat >clean/f_test.go <<'EOF'
package clean

import "testing"

func FuzzClean(f *testing.F) {
	f.Add("x")
	f.Fuzz(func(t *testing.T, s string) {})
}
EOF

# A fake go: for `go test -fuzz` it replays what $FAKE_SCRIPT says, one word per call
# (race, racepanic or real); everything else goes to the real go.
cat >"$work/bin/go" <<EOF
#!/usr/bin/env bash
if [ "\${1:-}" = test ] && [[ " \$* " == *" -fuzz "* ]] && [ -n "\${FAKE_SCRIPT:-}" ]; then
  n=\$(cat "\$FAKE_SCRIPT.n" 2>/dev/null || echo 0); echo \$((n + 1)) >"\$FAKE_SCRIPT.n"
  step=\$(sed -n "\$((n + 1))p" "\$FAKE_SCRIPT")
  case "\$step" in
  race) printf 'fuzz: elapsed: 2s, execs: 4000 (2000/sec)\n--- FAIL: FuzzClean (2.01s)\n    context deadline exceeded\nFAIL\nexit status 1\n'; exit 1 ;;
  racepanic) printf 'panic: runtime error: index out of range\n--- FAIL: FuzzClean (2.01s)\n    context deadline exceeded\nFAIL\n'; exit 1 ;;
  esac
fi
exec "$real_go" "\$@"
EOF
chmod +x "$work/bin/go"

fails=0
# expect NAME WANT_EXIT WANT_RESULT [ENV...] -- ARGS...: runs fuzz.sh and checks its exit code and
# the result it printed for the one target.
expect() {
  local name=$1 want_rc=$2 want=$3 rc=0
  shift 3
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  env "${envs[@]}" PATH="$work/bin:$PATH" bash .ci/fuzz.sh "$@" >"$work/$name.log" 2>&1 || rc=$?
  if [ "$rc" != "$want_rc" ] || ! grep -q -- "… $want (" "$work/$name.log"; then
    echo "fuzz-selftest: $name: want exit $want_rc and \"$want\", got exit $rc:"
    sed 's/^/    /' "$work/$name.log" | tail -20
    fails=$((fails + 1))
  else
    echo "fuzz-selftest: $name: $want, exit $rc"
  fi
}

expect finding 1 finding -- 200000x ./finding
if ! ls finding/testdata/fuzz/FuzzFinding/* >/dev/null 2>&1; then
  echo "fuzz-selftest: finding: no failing input written"
  fails=$((fails + 1))
fi
expect seed 1 fail -- 100x ./seedfail
expect hang 1 fail FUZZ_TIMEOUT=3s -- 100x ./hang
printf 'race\nreal\n' >"$work/s1"
expect race-once 0 "ok (race, retried)" FAKE_SCRIPT="$work/s1" -- 100x ./clean
printf 'race\nrace\n' >"$work/s2"
expect race-twice 0 "race, twice" FAKE_SCRIPT="$work/s2" -- 100x ./clean
printf 'racepanic\n' >"$work/s3"
expect race-with-panic 1 fail FAKE_SCRIPT="$work/s3" -- 100x ./clean
expect clean 0 ok -- ./clean
touch "$work/stop"
expect stopped 0 "skipped: tests done" FUZZ_STOP_FILE="$work/stop" FUZZ_MIN_TARGETS=0 -- ./clean

[ "$fails" = 0 ] && echo "fuzz-selftest: ok"
exit "$fails"
