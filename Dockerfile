# syntax=docker/dockerfile:1
# Inbound in one image: the server (run by tsx from its TypeScript sources, as `npm start` does), the
# built crew app and hospital console, Debian's ffmpeg (media conversion) and postgresql-client (backups).
# Multi-stage: compilers and the apps' build tools never reach the final image; it runs as a non-root
# user with its data in the /data volume. See docs/deploy.md.
#
#   podman build -t inbound .        (or docker build)
#
# NODE_IMAGE: any Debian 12 image with Node 20 in /usr/bin or /usr/local/bin (the default is the
# official slim one; docs/deploy.md shows how to build one from Debian packages where none can be pulled).
ARG NODE_IMAGE=docker.io/library/node:20-bookworm-slim

# ---- the web apps' build ------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# better-sqlite3 compiles from source when no prebuilt binary can be fetched; node-gyp then takes Node's
# C headers from the base image (nodedir) rather than downloading them, which a closed network refuses.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/* \
    && echo "nodedir=$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")" >> /root/.npmrc
COPY package.json package-lock.json .npmrc ./
COPY packages/contract/package.json packages/contract/
COPY packages/client/package.json packages/client/
COPY packages/gps/package.json packages/gps/
COPY apps/server/package.json apps/server/
COPY apps/crew/package.json apps/crew/
COPY apps/hospital/package.json apps/hospital/
COPY apps/desktop/package.json apps/desktop/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
COPY tests/no-loss/package.json tests/no-loss/
# Behind a TLS-inspecting proxy, pass its CA bundle as the build secret `ca`
# (`--secret id=ca,src=/etc/ssl/certs/ca-certificates.crt`); without it npm uses its own CAs.
RUN --mount=type=secret,id=ca,required=false \
    if [ -s /run/secrets/ca ]; then export npm_config_cafile=/run/secrets/ca; fi \
    && npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY packages/contract packages/contract
COPY packages/client packages/client
COPY apps/crew apps/crew
COPY apps/hospital apps/hospital
RUN npm run build

# ---- the server's production dependencies only --------------------------------------------------
# better-sqlite3's addon, compiled once in the build stage, is kept and put back: the same lock file
# gives the same version, and compiling SQLite again costs minutes of CPU. No other package the server
# needs at run time has an install script (esbuild, under tsx, finds its binary without its own).
FROM build AS server-deps
RUN --mount=type=secret,id=ca,required=false \
    if [ -s /run/secrets/ca ]; then export npm_config_cafile=/run/secrets/ca; fi \
    && mkdir -p /tmp/addon && cp node_modules/better-sqlite3/build/Release/better_sqlite3.node /tmp/addon/ \
    && rm -rf node_modules apps/*/node_modules packages/*/node_modules \
    && npm ci --no-audit --no-fund --omit=dev --workspace @inbound/server --ignore-scripts \
    && mkdir -p node_modules/better-sqlite3/build/Release \
    && mv /tmp/addon/better_sqlite3.node node_modules/better-sqlite3/build/Release/ \
    && node -e "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()"

# ---- what runs ----------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
RUN apt-get update \
    && apt-get install -y --no-install-recommends ffmpeg postgresql-client tini ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin inbound \
    && mkdir -p /data && chown inbound:inbound /data && chmod 700 /data
WORKDIR /app
COPY --from=server-deps /app/node_modules node_modules
COPY package.json tsconfig.base.json ./
COPY packages/contract packages/contract
COPY apps/server apps/server
COPY --from=build /app/apps/crew/dist apps/crew/dist
COPY --from=build /app/apps/hospital/dist apps/hospital/dist
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data
USER inbound
VOLUME ["/data"]
EXPOSE 8080
# Ready = database reachable, migrations applied, broker answering (docs/operations.md).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# tini forwards SIGTERM to the server (which drains and closes) and reaps ffmpeg's children.
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--import", "tsx", "apps/server/src/main.ts"]
