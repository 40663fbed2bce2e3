#!/usr/bin/env bash
# The desktop host's serial GPS test drives a pseudo-terminal pair made by Debian's socat (the "modem"
# writes NMEA on one end, the host reads the other). Install it when it is missing.
set -euo pipefail
if command -v socat >/dev/null 2>&1; then exit 0; fi
echo "inbound: installing Debian socat for the serial GPS test"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get -o DPkg::Lock::Timeout=300 update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=300 install -y -qq socat >/dev/null
