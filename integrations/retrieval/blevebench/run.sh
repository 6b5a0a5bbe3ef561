#!/usr/bin/env bash
# Compares finbot's retriever with bleve v2 on the evaluation corpus and on
# 100,000 synthetic chunks and prints one markdown table. The full run takes
# about 15 minutes on 2 CPUs and peaks at about 8 GB of RAM (bleve's
# NewMemOnly index), hence the -timeout; pass -short for recall only, e.g.
# ./run.sh -short. Extra arguments go to go test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
go test -count=1 -timeout 60m -run Compare -v . "$@"
