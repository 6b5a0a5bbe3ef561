#!/usr/bin/env bash
# Compares finbot's retriever with bleve v2 (scorch, its default index, and
# the in-memory upsidedown index) and prints one markdown table: recall@5 on
# the evaluation corpus, build time and query latency over synthetic chunks.
#
#   ./run.sh -short   # 10,000 chunks: about 2 minutes on 2 CPUs (bench.sh's default)
#   ./run.sh          # 100,000 chunks: about 15 minutes, peaks at about 8 GB of RAM
#                     # (the upsidedown index), hence the -timeout (bench.sh --full-bleve)
#
# Extra arguments go to go test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
go test -count=1 -timeout 60m -run Compare -v . "$@"
