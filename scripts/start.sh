#!/usr/bin/env bash
# Quick start: install, build both web apps, then serve everything on one port. The server migrates
# its database and seeds the demo data itself (SEED_DEMO=true) before it listens.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
bash scripts/ensure-system-packages.sh ffmpeg
npm run build
SEED_DEMO="${SEED_DEMO:-true}" exec npm run start -w @inbound/server
