#!/usr/bin/env bash
# The TLS test (e2e/tests/tls-proxy.spec.ts) starts Debian's nginx with a self-signed certificate in
# front of the server, with the configuration docs/deploy.md gives (deploy/nginx/inbound.conf).
# Install it when it is missing; only the binary is used (the package's own service is not needed).
set -euo pipefail
if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then exit 0; fi
echo "inbound: installing Debian nginx for the TLS proxy test"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get -o DPkg::Lock::Timeout=300 update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends nginx-light >/dev/null 2>&1 \
  || DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends nginx >/dev/null
