#!/usr/bin/env bash
# Backups of a PostgreSQL deployment use Debian's pg_dump (custom format) and pg_restore; the backup
# tests run them. Install the client when it is missing.
set -euo pipefail
if command -v pg_dump >/dev/null 2>&1 && command -v pg_restore >/dev/null 2>&1; then exit 0; fi
echo "inbound: installing Debian postgresql-client for backups"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get -o DPkg::Lock::Timeout=300 update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=300 install -y -qq postgresql-client >/dev/null
