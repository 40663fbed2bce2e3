#!/usr/bin/env bash
# The voice-call relay test runs a real TURN server: Debian's coturn (`turnserver`), started by the test
# on a free port with a TURN REST shared secret. Install it when it is missing. The package's own
# service is not enabled (Debian ships it off); the test starts its own process and ends it.
set -euo pipefail
if command -v turnserver >/dev/null 2>&1; then exit 0; fi
echo "inbound: installing Debian coturn for the TURN relay test"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get -o DPkg::Lock::Timeout=300 update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends coturn >/dev/null
