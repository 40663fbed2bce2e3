#!/usr/bin/env bash
# The whole test suite, as CI runs it: static checks, unit and API tests (SQLite, and PostgreSQL and
# Redis over real connections — required when CI=true), then the browser tests in Debian Chromium
# against the built apps and a real server.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
stage() { echo "== $1 (at $(($(date +%s) - started)) s)"; }

# Runs npm scripts side by side (tsc, eslint and prettier are single-threaded; the machine has two cores)
# and prints each one's output as it ends; fails when any failed.
side_by_side() {
  local pids=() logs=() failed=0 i
  for script in "$@"; do
    logs+=("$(mktemp)")
    npm run --silent "$script" >"${logs[-1]}" 2>&1 &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    if ! wait "${pids[$i]}"; then
      failed=1
      echo "== npm run ${*:i+1:1} failed:"
    fi
    cat "${logs[$i]}"
  done
  return $failed
}

# Debian's packages (Chromium, ffmpeg, coturn, nginx, socat, postgresql-client) download and unpack while
# npm installs and the static checks run: nothing needs them before Vitest.
system_log=$(mktemp)
bash scripts/ensure-system-packages.sh all >"$system_log" 2>&1 &
system_pid=$!
bash scripts/ensure-deps.sh

stage "static checks: typecheck, lint, format"
side_by_side typecheck lint format:check

# Built before Vitest so the PWA build checks (manifest, service worker) run on this build.
stage "build the web apps"
npm run --silent build

if ! wait "$system_pid"; then
  echo "== installing Debian packages failed:"
  cat "$system_log"
  exit 1
fi
cat "$system_log"

stage "unit and API tests (Vitest)"
vitest_log=$(mktemp)
if ! npx vitest run 2>&1 | tee "$vitest_log"; then
  # CI shows only the end of the output: repeat what failed, so the cause is in that part.
  echo "== Vitest failed; the failures and errors again:"
  grep -E -A25 "FAIL |Unhandled|Error:|originated in" "$vitest_log" | tail -150
  exit 1
fi

stage "browser tests (Playwright + Debian Chromium)"
npx playwright test -c e2e/playwright.config.ts

echo "inbound: all tests passed in $(( $(date +%s) - started )) s"
