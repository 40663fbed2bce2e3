#!/usr/bin/env bash
# The whole test suite, as CI runs it: static checks, unit and API tests (SQLite, and PostgreSQL and
# Redis over real connections — required when CI=true), then the browser tests in Debian Chromium
# against the built apps and a real server.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
bash scripts/ensure-deps.sh
bash scripts/ensure-chromium.sh

echo "== static checks: typecheck, lint, format"
npm run --silent typecheck
npm run --silent lint
npm run --silent format:check

echo "== unit and API tests (Vitest)"
npx vitest run

echo "== build the web apps for the browser tests"
npm run --silent build

echo "== browser tests (Playwright + Debian Chromium)"
npx playwright test -c e2e/playwright.config.ts

echo "inbound: all tests passed in $(( $(date +%s) - started )) s"
