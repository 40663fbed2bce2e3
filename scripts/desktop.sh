#!/usr/bin/env bash
# `npm run desktop`: the desktop host on this machine — builds the crew app's desktop variant when it is
# missing, then serves it and opens the app window. The API is INBOUND_SERVER_URL (default: the server
# `npm start` runs on http://localhost:8080).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
if [ ! -f apps/crew/dist-desktop/index.html ]; then npm run --silent build:desktop -w @inbound/crew; fi
export INBOUND_SERVER_URL="${INBOUND_SERVER_URL:-http://localhost:8080}"
exec npx tsx apps/desktop/src/main.ts
