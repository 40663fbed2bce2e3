#!/usr/bin/env bash
# `npm run package -w @inbound/desktop`: the package a fleet admin installs on the ambulance laptops —
# apps/desktop/dist/inbound-desktop-<version>-<os>-<arch>.tar.gz with the host (one bundled file), the
# crew app's desktop build, serialport's native module for this OS, start scripts and service files.
# Needs Node ≥ 20.19 on the laptop; the npm registry (or its cache) only here, when packaging.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(cd ../.. && pwd)"
version="$(node -p "require('./package.json').version")"
name="inbound-desktop-${version}-$(node -p 'process.platform')-$(node -p 'process.arch')"
stage="$(mktemp -d)/${name}"
mkdir -p "$stage/host" dist

npm run --silent build:desktop -w @inbound/crew --prefix "$root"
cp -r "$root/apps/crew/dist-desktop" "$stage/crew"

# serialport loads a native module: it stays a real package beside the bundle, installed for this OS.
npx esbuild src/main.ts --bundle --platform=node --format=esm --target=node20 \
  --external:serialport --outfile="$stage/host/main.mjs" --log-level=warning \
  --banner:js="import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);"
serialport_version="$(node -p "require('./package.json').dependencies.serialport")"
cat >"$stage/package.json" <<JSON
{ "name": "inbound-desktop", "version": "${version}", "private": true, "type": "module",
  "engines": { "node": ">=20.19" }, "dependencies": { "serialport": "${serialport_version}" } }
JSON
(cd "$stage" && npm install --omit=dev --no-audit --no-fund --prefer-offline --ignore-scripts >/dev/null)

cat >"$stage/start.sh" <<'SH'
#!/bin/sh
# Starts the Inbound desktop host (see INSTALL.txt). INBOUND_SERVER_URL must name the Inbound server.
dir="$(cd "$(dirname "$0")" && pwd)"
if [ -z "${INBOUND_SERVER_URL:-}" ] && [ -f "$dir/inbound-desktop.env" ]; then set -a; . "$dir/inbound-desktop.env"; set +a; fi
INBOUND_CREW_DIR="$dir/crew" exec node "$dir/host/main.mjs"
SH
chmod +x "$stage/start.sh"
cat >"$stage/start.cmd" <<'CMD'
@echo off
rem Starts the Inbound desktop host (see INSTALL.txt). Set INBOUND_SERVER_URL in inbound-desktop.cmd.
if exist "%~dp0inbound-desktop.cmd" call "%~dp0inbound-desktop.cmd"
set INBOUND_CREW_DIR=%~dp0crew
node "%~dp0host\main.mjs"
CMD
cat >"$stage/inbound-desktop.env" <<'ENV'
# The Inbound server the crew app talks to (required).
INBOUND_SERVER_URL=https://inbound.example.org
ENV
cp scripts/inbound-desktop.service scripts/inbound-desktop.desktop scripts/INSTALL.txt "$stage/"
tar -czf "dist/${name}.tar.gz" -C "$(dirname "$stage")" "$name"
rm -rf "$(dirname "$stage")"
echo "inbound: apps/desktop/dist/${name}.tar.gz"
