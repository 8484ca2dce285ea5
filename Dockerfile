# glacier-etl worker image: runs `glacier-etl worker` against the Temporal cluster named by
# TEMPORAL_ADDRESS. The image holds no secrets; GLACIER_API_KEY comes from the environment.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY bin ./bin
COPY cli ./cli
COPY workflows ./workflows
COPY activities ./activities
COPY worker ./worker
COPY simulator ./simulator
COPY sql ./sql
COPY scripts ./scripts
USER node
VOLUME ["/data"]
ENV GLACIER_DATA_DIR=/data
ENTRYPOINT ["node", "bin/glacier-etl.js"]
CMD ["worker"]
