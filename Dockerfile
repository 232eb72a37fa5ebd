# Build: cgo stays on for the bundled libwebp of chai2010/webp.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=1 go build -trimpath -ldflags="-s -w" -o /out/kiln ./cmd/kiln

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --home /var/lib/kiln --create-home kiln
COPY --from=build /out/kiln /usr/local/bin/kiln
USER kiln
WORKDIR /var/lib/kiln
ENV KILN_DATA_DIR=/var/lib/kiln/data
EXPOSE 8080 8081 8082
HEALTHCHECK --interval=10s --timeout=3s CMD curl -fsS http://localhost:8080/healthz || curl -fsS http://localhost:8082/healthz || exit 1
ENTRYPOINT ["/usr/local/bin/kiln"]
CMD ["serve"]
