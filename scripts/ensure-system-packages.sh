#!/usr/bin/env bash
# Installs the Debian packages Inbound runs or is tested with, when missing, in ONE apt-get call
# (one package-list update instead of one per tool: a fresh CI machine spent minutes on six updates).
# This machine reaches only the npm registry and Debian's packages, so every binary comes from here.
#
#   scripts/ensure-system-packages.sh ffmpeg            # what `npm start` needs
#   scripts/ensure-system-packages.sh all               # what `npm test` needs
#
# Needs: ffmpeg (media conversion), chromium (browser tests; xvfb for the desktop host's window test),
# socat (serial GPS test), coturn (TURN relay test), nginx (TLS proxy test), postgresql-client (backups).
set -euo pipefail

have() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ]; }

# "need: packages" when the need is missing, nothing when it is there.
missing_packages() {
  case "$1" in
    ffmpeg) have ffmpeg && have ffprobe || echo "ffmpeg" ;;
    chromium) [ -x /usr/lib/chromium/chromium ] && have xvfb-run || echo "chromium xvfb xauth fonts-liberation" ;;
    socat) have socat || echo "socat" ;;
    coturn) have turnserver || echo "coturn" ;;
    nginx) have nginx || echo "nginx-light" ;;
    postgresql-client) have pg_dump && have pg_restore || echo "postgresql-client" ;;
    *)
      echo "ensure-system-packages: unknown need '$1'" >&2
      exit 2
      ;;
  esac
}

needs=("$@")
if [ "${needs[*]:-}" = "all" ]; then needs=(ffmpeg chromium socat coturn nginx postgresql-client); fi

packages=()
for need in "${needs[@]}"; do
  list=$(missing_packages "$need") # an unknown need stops the script here (set -e)
  read -r -a more <<<"$list"
  packages+=("${more[@]}")
done
[ ${#packages[@]} -eq 0 ] && exit 0

echo "inbound: installing Debian packages: ${packages[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
# Wait for Debian's package lock rather than fail when another apt-get is running.
apt=($SUDO apt-get -o DPkg::Lock::Timeout=300)
"${apt[@]}" update -qq
DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
