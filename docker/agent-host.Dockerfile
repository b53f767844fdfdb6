# The agent-host image that AGENT_RUNTIME=docker runs, one container per user instance
# (RUNTIME_DOCKER_IMAGE), for builders that reach a registry. Without one, build it offline with
# `node scripts/build-agent-image.mjs` (docs/operations.md, "Agents in containers", says which to use when).
# Build it from the repository's root after `npm run build`:
#   docker build -f docker/agent-host.Dockerfile -t agent-host-runtime:latest .
# The program needs only Node's own modules and the files copied below (checked by
# test/unit/agent-host/agent-host-image.test.ts). The runtime creates the container with
# AGENT_HOST_TRANSPORT=stdio and its AGENT_HOST_* settings, as uid 65534, every capability dropped,
# a read-only root with a tmpfs /tmp, and no network (the service calls travel on the attach stream).
FROM node:20-slim
WORKDIR /opt/agent-host
# "type": "module": the compiled files are ES modules
COPY package.json ./
COPY dist/src/shared/ dist/src/shared/
COPY dist/src/agent-host/ dist/src/agent-host/
ENV NODE_ENV=production AGENT_HOST_TRANSPORT=stdio
USER 65534:65534
CMD ["node", "dist/src/agent-host/agent-host-program.js"]
