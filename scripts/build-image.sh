#!/usr/bin/env bash
# Builds the Inbound image with Debian's podman where no base image can be pulled, then proves it runs:
#   1. a `node:20-bookworm-slim` equivalent from Debian packages (debootstrap minbase) with this machine's
#      Node 20 (binary, npm and C headers — the headers let better-sqlite3 compile without downloading them);
#   2. `podman build` of the Dockerfile on that base;
#   3. `podman run` of the image on SQLite: /health, /ready, the crew app and the console answer, a demo
#      crew signs in and reads its profile, the process runs as `inbound`, SIGTERM stops it cleanly.
# Run as root: `bash scripts/build-image.sh` (IMAGE_WORK=/var/tmp/inbound-image holds podman's storage and
# keeps the base between runs; IMAGE_KEEP=1 keeps the storage afterwards, else it is removed at the end).
# Not part of scripts/test.sh: it downloads Debian's base system and takes many minutes of CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK="${IMAGE_WORK:-/var/tmp/inbound-image}"
BASE=localhost/node:20-bookworm-slim
IMAGE=localhost/inbound:test
PORT="${IMAGE_TEST_PORT:-18089}"
# podman's storage of its own under $WORK (never the machine's /var/lib/containers), with the overlay
# driver: layers share their lower layers' files. The kernel's overlayfs is used where it can be mounted,
# else Debian's fuse-overlayfs. (vfs — podman's fallback in sandboxes — copies the whole file system for
# every layer: 47 GB before the last stage here, which filled the disk.)
mkdir -p "$WORK/storage" "$WORK/run"
cat >"$WORK/storage.conf" <<CONF
[storage]
driver = "overlay"
graphroot = "$WORK/storage"
runroot = "$WORK/run"
CONF
if ! mount_test="$(mktemp -d "$WORK/ovl.XXXX")" || ! (
  mkdir -p "$mount_test"/{l,u,w,m} &&
    mount -t overlay overlay -o "lowerdir=$mount_test/l,upperdir=$mount_test/u,workdir=$mount_test/w" "$mount_test/m" &&
    umount "$mount_test/m"
) 2>/dev/null; then
  printf '[storage.options.overlay]\nmount_program = "/usr/bin/fuse-overlayfs"\n' >>"$WORK/storage.conf"
fi
rm -rf "${mount_test:?}"
export CONTAINERS_STORAGE_CONF="$WORK/storage.conf"
PODMAN=(podman --storage-driver=overlay --root "$WORK/storage" --runroot "$WORK/run")

need=()
command -v podman >/dev/null || need+=(podman)
command -v debootstrap >/dev/null || need+=(debootstrap)
command -v fuse-overlayfs >/dev/null || need+=(fuse-overlayfs)
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
# --format docker: the OCI format has no HEALTHCHECK (podman drops it with a warning).
"${PODMAN[@]}" build --format docker --network=host --isolation=chroot --build-arg NODE_IMAGE="$BASE" \
  --secret id=ca,src=/etc/ssl/certs/ca-certificates.crt -t "$IMAGE" . \
  >"$WORK/build.log" 2>&1 || { tail -40 "$WORK/build.log"; exit 1; }
echo "built $IMAGE in $(($(date +%s) - started)) s; $("${PODMAN[@]}" image inspect "$IMAGE" --format '{{.Size}}') bytes"

echo "== podman run"
# Process limits no higher than this shell's: podman's defaults raise the open-files limit to 1048576,
# which a root without CAP_SYS_RESOURCE (a sandboxed host, as here) may not ("setrlimit RLIMIT_NOFILE:
# Operation not permitted").
LIMITS=(--ulimit "nofile=$(ulimit -Hn):$(ulimit -Hn)" --ulimit nproc=4096:4096)
# crun, podman's default runtime, refuses a host whose cgroups are in hybrid mode (v1 and v2 mounted, as
# here: "cgroups in hybrid mode not supported"); Debian's runc with cgroupfs runs the container there.
RUNTIME=()
if ! "${PODMAN[@]}" run --rm --network=host "${LIMITS[@]}" "$BASE" true >/dev/null 2>&1; then
  command -v runc >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends runc >/dev/null
  RUNTIME=(--runtime runc --cgroup-manager cgroupfs)
  echo "crun cannot start a container here; using runc with cgroupfs"
fi
"${PODMAN[@]}" rm -f inbound-image-test >/dev/null 2>&1 || true
# After a check that passed, podman's storage is removed (IMAGE_KEEP=1 keeps it); after a failure it is
# kept, so a rerun takes the built layers from the cache — remove it by hand when done.
cleanup() {
  local status=$?
  "${PODMAN[@]}" "${RUNTIME[@]}" rm -f inbound-image-test >/dev/null 2>&1 || true
  if [ "$status" = 0 ] && [ "${IMAGE_KEEP:-0}" != 1 ]; then
    "${PODMAN[@]}" system reset --force >/dev/null 2>&1 || true
    rm -rf "$WORK/storage" "$WORK/run" "$WORK/storage.conf"
    echo "podman storage removed"
  else
    echo "podman storage kept in $WORK ($(du -sh "$WORK" | cut -f1)); remove it: podman --root $WORK/storage --runroot $WORK/run system reset --force && rm -rf $WORK"
  fi
}
trap cleanup EXIT
started=$(date +%s)
"${PODMAN[@]}" "${RUNTIME[@]}" run -d --name inbound-image-test --network=host "${LIMITS[@]}" \
  -e PORT="$PORT" -e HOST=127.0.0.1 -e SEED_DEMO=1 "$IMAGE" >/dev/null
for _ in $(seq 1 120); do
  curl -fsS "http://127.0.0.1:$PORT/ready" >/dev/null 2>&1 && break
  sleep 1
done
echo "ready $(($(date +%s) - started)) s after podman run"
curl -fsS "http://127.0.0.1:$PORT/health" && echo
curl -fsS "http://127.0.0.1:$PORT/ready" && echo
curl -fsS "http://127.0.0.1:$PORT/" | grep -q '<div id="root">' && echo "crew app served"
curl -fsS "http://127.0.0.1:$PORT/hospital/" | grep -q '<div id="root">' && echo "hospital console served"
token="$(curl -fsS "http://127.0.0.1:$PORT/v4/auth/signin" -H 'content-type: application/json' \
  -d '{"username":"medic1","password":"demo-medic1","twiageClient":"ems","platform":"image-test"}' |
  node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>process.stdout.write(JSON.parse(s).authorizationToken.token))')"
curl -fsS "http://127.0.0.1:$PORT/v4/users/me" -H "authorization: Bearer $token" |
  node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>console.log("signed in as medic1: /v4/users/me answers for", JSON.parse(s).username))'
curl -fsS "http://127.0.0.1:$PORT/metrics" | grep -q '^inbound_http_requests_total' && echo "/metrics answers on loopback"
echo "user in the container: $("${PODMAN[@]}" "${RUNTIME[@]}" exec inbound-image-test id -un)"
echo "data directory: $("${PODMAN[@]}" "${RUNTIME[@]}" exec inbound-image-test ls -A /data | tr '\n' ' ')"
"${PODMAN[@]}" "${RUNTIME[@]}" stop -t 30 inbound-image-test >/dev/null
echo "exit code after SIGTERM: $("${PODMAN[@]}" "${RUNTIME[@]}" inspect inbound-image-test --format '{{.State.ExitCode}}')"
echo "last log lines:"
"${PODMAN[@]}" "${RUNTIME[@]}" logs inbound-image-test 2>&1 | tail -3
