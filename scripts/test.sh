#!/usr/bin/env bash
# The whole test suite, as CI runs it: static checks, unit and API tests (SQLite, and PostgreSQL and
# Redis over real connections — required when CI=true), then the browser tests in Debian Chromium
# against the built apps and a real server.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
bash scripts/ensure-deps.sh
bash scripts/ensure-ffmpeg.sh
bash scripts/ensure-chromium.sh
bash scripts/ensure-socat.sh
bash scripts/ensure-coturn.sh
bash scripts/ensure-nginx.sh
bash scripts/ensure-postgresql-client.sh

echo "== static checks: typecheck, lint, format"
npm run --silent typecheck
npm run --silent lint
npm run --silent format:check

# Built before Vitest so the PWA build checks (manifest, service worker) run on this build.
echo "== build the web apps"
npm run --silent build

echo "== unit and API tests (Vitest)"
vitest_log=$(mktemp)
if ! npx vitest run 2>&1 | tee "$vitest_log"; then
  # CI shows only the end of the output: repeat what failed, so the cause is in that part.
  echo "== Vitest failed; the failures and errors again:"
  grep -E -A25 "FAIL |Unhandled|Error:|originated in" "$vitest_log" | tail -150
  exit 1
fi

echo "== browser tests (Playwright + Debian Chromium)"
npx playwright test -c e2e/playwright.config.ts

echo "inbound: all tests passed in $(( $(date +%s) - started )) s"
