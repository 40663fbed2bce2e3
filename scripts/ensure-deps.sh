#!/usr/bin/env bash
# Installs the workspace's npm dependencies when they are missing or older than the lockfile, so that
# `npm start` and `npm test` work on a fresh clone without a separate install step.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ]; then
  echo "inbound: installing dependencies (npm ci; better-sqlite3 compiles from source, ~90 s)"
  npm ci --no-audit --no-fund
elif [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "inbound: lockfile changed, updating dependencies"
  npm install --no-audit --no-fund
fi
