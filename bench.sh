#!/usr/bin/env bash
# bench.sh reproduces every benchmark in docs/benchmarks.md with one command:
#
#   bash bench.sh                 # everything, light: about 8 minutes on 2 CPUs
#   bash bench.sh --full          # the full bleve comparison (≈ 15–19 min, ≈ 8 GB RAM) and the
#                                 # full load run (1,000 users × 10 messages, ≈ 9 min)
#   bash bench.sh --full-load     # only the load run full
#   bash bench.sh --full-bleve    # only the bleve comparison full
#   bash bench.sh --only 1c,load  # some sections (names below)
#   bash bench.sh --out DIR       # where the outputs go (default: a new folder under /tmp)
#
# Sections: bot, components, rates, 1c, docs, hostile, retrieval, pipeline, bleve, load.
# It prints the machine and the date first, then each section's output, and keeps each in
# DIR/<section>.txt (the load report in DIR/load.md). Redis is used where a benchmark has a
# Redis variant: REDIS_URL, default redis://127.0.0.1:6379/0; without one those variants skip.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

full_load=0
full_bleve=0
only=""
out="${TMPDIR:-/tmp}/finbot-bench-$(date -u +%Y%m%dT%H%M%SZ)"
while [ $# -gt 0 ]; do
	case "$1" in
	--full) full_load=1; full_bleve=1 ;;
	--full-load) full_load=1 ;;
	--full-bleve) full_bleve=1 ;;
	--only) only="${2:?--only needs a list of sections}"; shift ;;
	--out) out="${2:?--out needs a folder}"; shift ;;
	-h | --help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "bench.sh: unknown argument $1 (try --help)" >&2; exit 2 ;;
	esac
	shift
done
mkdir -p "$out"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379/0}"

wanted() { [ -z "$only" ] || [[ ",$only," == *",$1,"* ]]; }

failed=()
# section NAME CMD...: runs CMD, shows its output and keeps it in $out/NAME.txt.
section() {
	local name="$1"
	shift
	wanted "$name" || return 0
	printf '\n== %s: %s\n' "$name" "$*" | tee -a "$out/$name.txt"
	local start=$SECONDS
	if ! "$@" 2>&1 | tee -a "$out/$name.txt"; then
		failed+=("$name")
	fi
	printf '== %s took %ds\n' "$name" $((SECONDS - start)) | tee -a "$out/$name.txt"
}

bench() { go test -count=1 -run '^$' -benchmem "$@"; }

{
	echo "# finbot benchmarks"
	echo "date:    $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "machine: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1), $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GiB RAM", $2/1048576}' /proc/meminfo 2>/dev/null), $(uname -sm)"
	echo "go:      $(go version)"
	if command -v redis-cli >/dev/null && redis-cli -u "$REDIS_URL" ping >/dev/null 2>&1; then
		echo "redis:   $(redis-cli -u "$REDIS_URL" info server | sed -n 's/^redis_version:\(.*\)\r*$/\1/p') at $REDIS_URL"
	else
		echo "redis:   not reachable at $REDIS_URL (Redis variants skip)"
	fi
	if rev=$(git rev-parse --short HEAD 2>/dev/null); then
		[ -n "$(git status --porcelain 2>/dev/null)" ] && rev="$rev with uncommitted changes"
		echo "commit:  $rev"
	fi
	echo "load:    $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) (1, 5, 15 min)"
	echo "outputs: $out"
} | tee "$out/machine.txt"

# Issue #2: one update through the bot's whole pipeline; issue #3: /rate with a warm cache.
section bot bench -bench 'BenchmarkUpdate|BenchmarkRateCached' -benchtime 3s -cpu 1,2 ./bot/
# Issue #18: another user's reply alone and during one user's 150-press button flood.
section bot bench -bench 'BenchmarkCallbackFlood' -benchtime 3x ./bot/
section components bench -bench . ./bot/tgmd/ ./integrations/history/
# Issue #3: Bank of Russia SOAP parsing and caches, Tavily's cache, the chart.
section rates bench -bench . -benchtime 2s ./integrations/cbr/ ./integrations/tavily/ ./agent/chart/
# Issue #4: the 1C address lane at scale 1 and 50 (generated in process), the engine alone.
section 1c bench -bench . -benchtime 3s ./agent/ledger/runner/ ./integrations/onec/ ./integrations/onec/ledgergen/
# Issue #5: the document library, extraction, storage.
section docs bench -bench '^Benchmark([^H]|H[^o])' ./library/ ./library/extract/ ./integrations/docstore/
# Issue #19: peak memory of extracting each hostile file shape, once each (≈ 1 min).
section hostile bench -bench BenchmarkHostile -benchtime 1x ./library/extract/
section retrieval bench -bench . ./library/retrieval/
# Issue #6: one answer per scenario through the agent, LLM behind an instant stand-in.
section pipeline bench -bench BenchmarkPipeline -benchtime 100x ./agent/
# Issue #5: finbot's retrieval against bleve v2 (a separate module): scorch, bleve's default
# index, and the in-memory upsidedown one. By default the short form: recall@5 on the evaluation
# corpus, build and query p50/p99 over 10,000 synthetic chunks (≈ 1–2 min); --full-bleve: the same
# over 100,000 chunks (≈ 15–19 min, most of it the upsidedown index).
if [ "$full_bleve" = 1 ]; then
	section bleve library/retrieval/blevebench/run.sh
else
	section bleve library/retrieval/blevebench/run.sh -short
fi
# Issue #7: the load run (report in load.md).
if [ "$full_load" = 1 ]; then
	section load go run ./cmd/finbot-load -users 1000 -messages 10 -out "$out/load.md"
else
	section load go run ./cmd/finbot-load -users 200 -messages 10 -groups 4 -think-min 10s -think-max 20s -out "$out/load.md"
fi

echo
if [ ${#failed[@]} -gt 0 ]; then
	echo "bench.sh: failed: ${failed[*]} (outputs in $out)" >&2
	exit 1
fi
echo "bench.sh: done; outputs in $out"
