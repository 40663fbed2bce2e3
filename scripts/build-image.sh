#!/usr/bin/env bash
# Builds the Inbound image with Debian's podman where no base image can be pulled, then proves it runs:
#   1. a `node:20-bookworm-slim` equivalent from Debian packages (debootstrap minbase) with this machine's
#      Node 20 (binary, npm and C headers — the headers let better-sqlite3 compile without downloading them);
#   2. `podman build` of the Dockerfile on that base;
#   3. `podman run` of the image on SQLite: /health, /ready and the crew app answer, SIGTERM stops it cleanly.
# Run as root: `bash scripts/build-image.sh` (IMAGE_WORK=/var/tmp/inbound-image keeps the base between runs).
# Not part of scripts/test.sh: it downloads Debian's base system and takes many minutes of CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK="${IMAGE_WORK:-/var/tmp/inbound-image}"
BASE=localhost/node:20-bookworm-slim
IMAGE=localhost/inbound:test
PORT="${IMAGE_TEST_PORT:-18089}"
# vfs works inside containers and sandboxes where overlayfs cannot be mounted, but copies the whole file
# system for every layer: the build needs tens of GB free (47 GB were used here before the last stage).
PODMAN=(podman --storage-driver=vfs)
mkdir -p "$WORK"

need=()
command -v podman >/dev/null || need+=(podman)
command -v debootstrap >/dev/null || need+=(debootstrap)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

if ! "${PODMAN[@]}" image exists "$BASE"; then
  echo "== base image from Debian packages"
  rm -rf "$WORK/rootfs"
  debootstrap --variant=minbase bookworm "$WORK/rootfs" http://deb.debian.org/debian >"$WORK/debootstrap.log"
  node_prefix="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")"
  install -D -m 755 "$node_prefix/bin/node" "$WORK/rootfs/usr/bin/node"
  mkdir -p "$WORK/rootfs/usr/lib/node_modules" "$WORK/rootfs/usr/include"
  cp -a "$node_prefix/lib/node_modules/npm" "$WORK/rootfs/usr/lib/node_modules/"
  cp -a "$node_prefix/include/node" "$WORK/rootfs/usr/include/"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$WORK/rootfs/usr/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$WORK/rootfs/usr/bin/npx"
  rm -rf "$WORK/rootfs/var/cache/apt/archives/"*.deb "$WORK/rootfs/var/lib/apt/lists/"*
  tar -C "$WORK/rootfs" -c . | "${PODMAN[@]}" import --change 'CMD ["node"]' - "$BASE" >/dev/null
  rm -rf "$WORK/rootfs"
fi

echo "== podman build"
started=$(date +%s)
# The machine's CA bundle goes in as a build secret: npm reaches the registry through whatever TLS proxy
# this machine trusts, and the bundle never lands in a layer.
"${PODMAN[@]}" build --network=host --isolation=chroot --build-arg NODE_IMAGE="$BASE" \
  --secret id=ca,src=/etc/ssl/certs/ca-certificates.crt -t "$IMAGE" . \
  >"$WORK/build.log" 2>&1 || { tail -40 "$WORK/build.log"; exit 1; }
echo "built $IMAGE in $(($(date +%s) - started)) s; $("${PODMAN[@]}" image inspect "$IMAGE" --format '{{.Size}}') bytes"

echo "== podman run"
"${PODMAN[@]}" rm -f inbound-image-test >/dev/null 2>&1 || true
"${PODMAN[@]}" run -d --name inbound-image-test --network=host \
  -e PORT="$PORT" -e HOST=127.0.0.1 -e SEED_DEMO=1 "$IMAGE" >/dev/null
cleanup() { "${PODMAN[@]}" rm -f inbound-image-test >/dev/null 2>&1 || true; }
trap cleanup EXIT
for _ in $(seq 1 120); do
  curl -fsS "http://127.0.0.1:$PORT/ready" >/dev/null 2>&1 && break
  sleep 1
done
curl -fsS "http://127.0.0.1:$PORT/health" && echo
curl -fsS "http://127.0.0.1:$PORT/ready" && echo
curl -fsS "http://127.0.0.1:$PORT/" | grep -q '<div id="root">' && echo "crew app served"
echo "user in the container: $("${PODMAN[@]}" exec inbound-image-test id -un)"
"${PODMAN[@]}" stop -t 30 inbound-image-test >/dev/null
echo "exit code after SIGTERM: $("${PODMAN[@]}" inspect inbound-image-test --format '{{.State.ExitCode}}')"
