# glacier-etl worker image: runs `glacier-etl worker` against the Temporal cluster named by
# TEMPORAL_ADDRESS. The image holds no secrets; GLACIER_API_KEY comes from the environment.

# Build stage: all dependencies, `npm ci` compiles the CLI into dist/ (the `prepare` script), then
# the dev dependencies (TypeScript, vitest, ...) are pruned away.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY common ./common
COPY cli ./cli
COPY workflows ./workflows
COPY activities ./activities
COPY worker ./worker
COPY sql ./sql
# tools/ (the simulator) is left out: the image holds no simulator code, and `demo` / `simulator` say
# so in one line (test/worker/workerImage.test.ts replays this stage and checks it).
# The workflow bundle is built on the worker's first start, into the runtime user's cache.
RUN GLACIER_SKIP_BUNDLE=1 npm ci --no-audit --no-fund && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY bin ./bin
USER node
VOLUME ["/data"]
ENV GLACIER_DATA_DIR=/data
ENTRYPOINT ["node", "bin/glacier-etl.js"]
CMD ["worker"]
