#!/usr/bin/env bash
# `npm test`: every check, in the order that fails fastest — static checks, Vitest (its server and portal projects
# run in process; its process project starts the built server and commands), then the browser tests — and how long
# the whole run took. `npm run test:quick` (--quick): the static checks and the in-process tests,
# the inner loop.
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
if [ "${1:-}" = "--quick" ]; then
  name="npm run test:quick"
  step npx vitest run --project server --project portal
else
  name="npm test"
  step npx vitest run
  step npm run test:e2e
fi
took=$((SECONDS - start))
echo "$name passed in $((took / 60)) min $((took % 60)) s"
