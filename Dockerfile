# Two stages: the first installs the toolchain and bundles dist/ (dependencies included, faker in its own chunk);
# the second carries only dist/ and the fixtures, so the image needs no node_modules at all.

# One base image for both stages, so a mirror or a pinned digest is named once:
# --build-arg NODE_IMAGE=registry.example.com/library/node:20-bookworm-slim (any Debian-based Node 20 image).
ARG NODE_IMAGE=node:20-bookworm-slim

# The build stage runs on the builder's own platform whatever the image's: dist/ is plain JavaScript, so one build
# serves linux/amd64 and linux/arm64 alike, and a multi-platform build emulates nothing but the final stage.
FROM --platform=$BUILDPLATFORM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Behind a proxy that re-signs TLS, npm trusts the proxy's CA bundle given as a build secret
# (--secret id=ca,src=proxy-ca.pem): a secret is mounted for this one command and is written to no layer, and this
# stage is not the image anyway. NODE_EXTRA_CA_CERTS adds it to Node's own CAs, where npm's cafile would replace them.
RUN --mount=type=secret,id=ca \
    if [ -s /run/secrets/ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca; fi; \
    npm ci --ignore-scripts --no-audit --no-fund
COPY scripts ./scripts
COPY src ./src
COPY fixtures ./fixtures
COPY scenarios ./scenarios
RUN node scripts/build.mjs --js-only

FROM ${NODE_IMAGE}
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
