#!/usr/bin/env bash
# Imports flow one way: main → bot → agent → {prompts, integrations/*}. Integrations, prompts,
# config and ru import nothing of the project (anyone may import ru); the documents' algorithms
# (library/{extract,retrieval,ocr}) import nothing of it but ru; agent never imports bot;
# bot never imports integrations.
set -euo pipefail
cd "$(dirname "$0")/.."
mod=$(go list -m)
fail=0
check() { # package pattern, forbidden import regexp, explanation
  local bad
  bad=$(go list -f '{{.ImportPath}}: {{join .Imports " "}}' $1 | grep -E " $mod/($2)( |/|$)" || true)
  if [ -n "$bad" ]; then echo "forbidden import ($3):"; echo "$bad"; fail=1; fi
}
check "./integrations/..." "agent|bot|config|prompts" "integrations are leaves"
# …and no integration imports another one (its own test-helper subpackage may import it).
bad=$(go list -f '{{.ImportPath}}: {{join .Imports " "}}' ./integrations/... | awk -v mod="$mod" '{
  pkg = $1; sub(/:$/, "", pkg); split(pkg, p, "/integrations/"); split(p[2], own, "/"); root = mod "/integrations/" own[1]
  for (i = 2; i <= NF; i++) if (index($i, mod "/integrations/") == 1 && $i != root && index($i, root "/") != 1) print $0
}' | sort -u || true)
if [ -n "$bad" ]; then echo "forbidden import (an integration imports another):"; echo "$bad"; fail=1; fi
check "./prompts/... ./config/... ./ru/..." "[a-z]" "prompts, config and ru import nothing of the project"
check "./agent/..." "bot|config" "agent must not import bot or config"
check "./library/extract/... ./library/retrieval/... ./library/ocr/..." \
  "agent|bot|config|prompts|integrations|internal" \
  "text extraction and retrieval import nothing of the project but ru"
check "./bot/..." "integrations|config|prompts" "bot talks to integrations only through the agent"
[ $fail = 0 ] && echo "import direction ok"
exit $fail
