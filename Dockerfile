# One image for every process of the crawl data service. Pick the process with the command:
#
#   docker build -t crawl-data-service .
#   docker run --rm crawl-data-service packages/db/dist/migrate-main.js      # one-shot migration
#   docker run -p 8080:8080 crawl-data-service                                # gateway (the default CMD)
#   docker run -e METRICS_PORT=9464 crawl-data-service services/worker/dist/main.js
#   docker run -e METRICS_PORT=9464 crawl-data-service services/webhooks/dist/main.js
#   docker run --no-healthcheck crawl-data-service services/scheduler/dist/main.js   # no HTTP: see HEALTHCHECK
#   docker run --rm crawl-data-service packages/cli/dist/main.js create-project --name N --json
#   docker run -p 9100:9100 crawl-data-service packages/simulator/dist/main.js --port 9100 --host 0.0.0.0
#
# Configuration is the environment of README.md "Configuration". Needs BuildKit (the default
# builder since Docker 23) for the cache mounts.

ARG NODE_IMAGE=node:20-bookworm-slim

# ---------------------------------------------------------------------------------------------
# build: full install, compile, then re-install production dependencies only
# ---------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS build
# pnpm comes from npm, never from corepack: corepack downloads pnpm from its own host at first
# use, which some networks refuse. Keep this in step with .ci/run and README.md.
ARG PNPM_VERSION=10.34.8
RUN npm install -g "pnpm@${PNPM_VERSION}" && pnpm --version
# CI=true: pnpm never prompts (e.g. before re-creating node_modules).
ENV CI=true
WORKDIR /app

# Fetch every package of the lockfile into the store, from the lockfile alone: this layer is
# rebuilt only when the lockfile changes, not on every source edit.
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
RUN --mount=type=cache,id=crawl-pnpm-store,target=/pnpm/store,sharing=locked \
    pnpm fetch --frozen-lockfile --store-dir /pnpm/store

COPY . .
# --package-import-method=copy: the store is a cache mount, absent from the image, so
# node_modules must hold real files, not hard links into it.
RUN --mount=type=cache,id=crawl-pnpm-store,target=/pnpm/store,sharing=locked \
    pnpm install --frozen-lockfile --offline --store-dir /pnpm/store --package-import-method=copy
RUN pnpm build

# Production dependencies only, of what the image runs: the four services (and services/all,
# all four in one process), the migration (packages/db), the admin CLI and the simulator. Dev
# tools (typescript, jest, eslint, swc), bench and e2e are left out.
RUN --mount=type=cache,id=crawl-pnpm-store,target=/pnpm/store,sharing=locked \
    find . -name node_modules -type d -prune -exec rm -rf {} + \
 && pnpm install --frozen-lockfile --offline --prod --store-dir /pnpm/store --package-import-method=copy \
      --filter "@crawl/gateway..." --filter "@crawl/worker..." --filter "@crawl/webhooks..." \
      --filter "@crawl/scheduler..." --filter "@crawl/all..." --filter "@crawl/cli..." \
      --filter "@crawl/simulator..."

# Assemble /out: the root package.json, the virtual store, and per workspace package its
# package.json, dist/ and node_modules/ (symlinks into /app/node_modules/.pnpm, so /out is
# copied to /app unchanged). No sources, tests or tsbuildinfo. packages/testing (test helpers,
# selected only through dev dependencies) is dropped with the links to it. The `test -f` lines
# list every entry point the deployments run (e2e/src/infra.repo.test.ts checks they are here).
RUN set -eu; \
    mkdir -p /out; \
    cp -a package.json node_modules /out/; \
    for dir in packages/* services/* console; do \
      [ -d "$dir/dist" ] || continue; \
      mkdir -p "/out/$dir"; \
      cp -a "$dir/package.json" "$dir/dist" "/out/$dir/"; \
      if [ -d "$dir/node_modules" ]; then cp -a "$dir/node_modules" "/out/$dir/"; fi; \
    done; \
    find /out -name '*.tsbuildinfo' -delete; \
    rm -rf /out/packages/testing; \
    find /out -xtype l -delete; \
    test -f /out/services/gateway/dist/main.js; \
    test -f /out/services/worker/dist/main.js; \
    test -f /out/services/webhooks/dist/main.js; \
    test -f /out/services/scheduler/dist/main.js; \
    test -f /out/services/all/dist/main.js; \
    test -f /out/packages/db/dist/migrate-main.js; \
    test -f /out/packages/cli/dist/main.js; \
    test -f /out/packages/simulator/dist/main.js; \
    test -f /out/console/dist/index.html

# ---------------------------------------------------------------------------------------------
# runtime
# ---------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
# Owned by root and not writable by the service user: the process cannot modify its own code.
COPY --from=build /out /app
# `node` (uid 1000) ships with the official image. Numeric, so that Kubernetes' runAsNonRoot
# can verify it.
USER 1000:1000

# The gateway's port (PORT); every service serves /metrics and /healthz on METRICS_PORT
# (9464 in docker-compose.yml and infra/), never on the API port.
EXPOSE 8080

# Liveness of the HTTP side of the process: /healthz on METRICS_PORT when it is set, otherwise
# on PORT (gateway, default 8080). It fits the gateway, and the worker and webhooks when
# METRICS_PORT is set. The scheduler and the one-shot commands (migration, CLI)
# serve no HTTP: disable it for them (`docker run --no-healthcheck`, compose
# `healthcheck: {disable: true}`). Kubernetes ignores HEALTHCHECK and uses the probes in infra/.
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "const p=process.env.METRICS_PORT||process.env.PORT||8080;fetch('http://127.0.0.1:'+p+'/healthz',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

# Node handles SIGTERM itself (ordered shutdown, force exit after 25 s): run it as PID 1
# directly, no shell in between, so the signal reaches it.
ENTRYPOINT ["node"]
CMD ["services/gateway/dist/main.js"]
