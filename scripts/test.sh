#!/usr/bin/env bash
# `npm test`: every check, in the order that fails fastest — static checks, the unit/API/process tests (Vitest,
# which builds dist/ first when the sources changed), then the browser tests — and how long the whole run took.
set -euo pipefail
start=$SECONDS
step() {
  local began=$SECONDS
  echo "== $*"
  "$@"
  echo "== $* took $((SECONDS - began)) s"
}
step npm run lint
step npm run format:check
step npm run typecheck
step npx vitest run
step npm run test:e2e
took=$((SECONDS - start))
echo "npm test passed in $((took / 60)) min $((took % 60)) s"
