# syntax=docker/dockerfile:1
# Sess: one Node process serving MCP, OAuth, the answer pages and /v1.

# 1. Build: full install from the lockfile, then bundle the server into dist/sess.mjs.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund && node scripts/build.mjs

# 2. Production dependencies only (PGlite and pino stay outside the bundle).
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY packages/ packages/
RUN find packages -type f ! -name package.json -delete \
 && npm ci --omit=dev --no-audit --no-fund

# 3. Runtime: the bundle, migrations and production node_modules; non-root, health-checked.
# The open-file limit is the container's (docker run --ulimit nofile=65536:65536, or Compose's
# ulimits): Sess keeps its connections below it and prints what it allows at start.
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8787 SESS_DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY migrations migrations
COPY package.json ./
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8787
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8787)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "dist/sess.mjs"]
CMD ["serve"]
