# Two stages: the first installs the toolchain and bundles dist/ (dependencies included, faker in its own chunk);
# the second carries only dist/ and the fixtures, so the image needs no node_modules at all.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY scripts ./scripts
COPY src ./src
COPY fixtures ./fixtures
COPY scenarios ./scenarios
RUN node scripts/build.mjs --js-only

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4010 \
    SANDBOX_DATA=/data/db.json
WORKDIR /app
COPY --from=build /app/dist ./dist
COPY --from=build /app/fixtures ./fixtures
COPY --from=build /app/scenarios ./scenarios
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 4010
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT||4010}/__sandbox/health`,{headers:{'x-sandbox-token':process.env.SANDBOX_CONTROL_TOKEN||''}}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/main.js"]
