# Kiln images. Targets:
#   api     the HTTP services (no renderer)
#   worker  the job workers, with Blender for product renderings
#   serve   (default) everything in one process: kiln serve, embedded Redis
# Build: cgo stays on for the bundled libwebp of chai2010/webp.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=1 go build -trimpath -ldflags="-s -w" -o /out/kiln ./cmd/kiln

# runtime and blender hold what changes rarely; the binary is copied last,
# so rebuilding after a code change reuses the Blender layer instead of
# installing it again.
FROM debian:bookworm-slim AS runtime
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --home /var/lib/kiln --create-home kiln
WORKDIR /var/lib/kiln
ENV KILN_DATA_DIR=/var/lib/kiln/data
ENTRYPOINT ["/usr/local/bin/kiln"]

# Product renderings run Blender headless; its glTF importer needs numpy.
FROM runtime AS blender
RUN apt-get update && apt-get install -y --no-install-recommends blender python3-numpy \
    && rm -rf /var/lib/apt/lists/*

FROM runtime AS api
COPY --from=build /out/kiln /usr/local/bin/kiln
USER kiln
EXPOSE 8080 8081
HEALTHCHECK --interval=10s --timeout=3s CMD curl -fsS http://localhost:8080/healthz || exit 1
CMD ["api"]

FROM blender AS worker
COPY --from=build /out/kiln /usr/local/bin/kiln
USER kiln
EXPOSE 8082
HEALTHCHECK --interval=10s --timeout=3s CMD curl -fsS http://localhost:8082/healthz || exit 1
CMD ["worker"]

FROM worker AS serve
EXPOSE 8080 8081 8082
HEALTHCHECK --interval=10s --timeout=3s CMD curl -fsS http://localhost:8080/healthz || exit 1
CMD ["serve"]
