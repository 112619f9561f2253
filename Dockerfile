# Huddle in a container: built with the Swift toolchain image, run on a slim
# Debian with only the libraries the binary links. The binary carries its
# schema and migrations; the Swift runtime is linked in statically.
#
#   docker build -t huddle .
#   docker run -p 8080:8080 -e DATABASE_URL=postgresql://huddle:secret@db/huddle huddle
#
# The image has no PostgreSQL server (a database belongs in its own
# container or service: see compose.yaml), so DATABASE_URL is required.
# Settings: the HUDDLE_* variables of the Configuration table in docs/operations.md
# (HUDDLE_WORKERS, HUDDLE_ALLOWED_ORIGINS, HUDDLE_MAX_COST, ...).
# scripts/container/check proves on a machine without a container engine
# that the runtime stage provides every library the binary needs and that
# the binary serves with only this environment.

ARG SWIFT_IMAGE=swift:6.3.1-bookworm
ARG RUNTIME_IMAGE=debian:bookworm-slim

FROM ${SWIFT_IMAGE} AS build
# Unpinned on purpose (hadolint DL3008): bookworm's packages only take
# security and bug fixes, and a pin would keep a fixed hole.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends pkg-config libuv1-dev libpq-dev libssl-dev libcurl4-openssl-dev libvips-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Dependencies first, so that changing a source file reuses this layer.
COPY Package.swift ./
RUN swift package resolve
COPY Sources Sources
COPY Plugins Plugins
COPY Schema Schema
COPY Playground Playground
RUN swift build -c release --product huddle --static-swift-stdlib \
    && install -D -m 0755 .build/release/huddle /out/huddle

FROM ${RUNTIME_IMAGE}
# libjs-codemirror: the Playground's editor, served from the installed files.
# runtime-packages: libuv1 libpq5 libssl3 libcurl4 libvips42 ca-certificates curl libjs-codemirror
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libuv1 libpq5 libssl3 libcurl4 libvips42 ca-certificates curl libjs-codemirror \
    && rm -rf /var/lib/apt/lists/*
RUN groupadd --system --gid 10001 huddle \
    && useradd --system --uid 10001 --gid 10001 --home-dir /var/lib/huddle --create-home --shell /usr/sbin/nologin huddle
COPY --from=build /out/huddle /usr/local/bin/huddle
# By number, which the host can resolve without the image's passwd file.
USER 10001:10001
WORKDIR /var/lib/huddle
ENV HUDDLE_HOST=0.0.0.0 HUDDLE_PORT=8080 HUDDLE_LOG_LEVEL=info
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD ["curl", "-fsS", "http://127.0.0.1:8080/readyz"]
# SIGTERM drains the requests in flight (see docs/operations.md) before exiting.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/huddle"]
CMD ["serve"]
