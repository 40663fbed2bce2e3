#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (never a browser downloaded by Playwright: this machine
# reaches only the npm registry and Debian's packages). Install it when it is missing, with xvfb for the
# desktop host's window test (the app window under xvfb-run).
set -euo pipefail
if [ -x /usr/lib/chromium/chromium ] && command -v xvfb-run >/dev/null 2>&1; then exit 0; fi
echo "inbound: installing Debian chromium for the browser tests"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get -o DPkg::Lock::Timeout=300 update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=300 install -y -qq chromium xvfb xauth fonts-liberation >/dev/null
