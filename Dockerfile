# The lock-sim image: the packed package installed globally, `lock-sim` as the entrypoint.
#   docker build -t lock-sim .
#   docker run --rm -v "$PWD/scenarios:/data/scenarios" lock-sim check scenarios/
# Built from this checkout (lock-sim is not on the npm registry): the first stage packs it as
# `npm pack` would for a release, the second installs that tarball and nothing of the build.
FROM node:20-bookworm-slim AS pack
WORKDIR /src
COPY . .
RUN npm ci && mkdir /pkg && npm pack --pack-destination /pkg

FROM node:20-bookworm-slim
COPY --from=pack /pkg/ /pkg/
RUN npm install --global /pkg/lock-sim-*.tgz && rm -rf /pkg
# A progress line every 10 s in the job's log, no colour codes in it.
ENV NO_COLOR=1
WORKDIR /data
ENTRYPOINT ["lock-sim"]
CMD ["--help"]
