#!/usr/bin/env bash
# Compares Kiln's WebP texture conversion with glTF-Transform's
# `gltf-transform webp` on DamagedHelmet.glb; see README.md. Arguments go
# to the Go program (-runs N, -in FILE).
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x node_modules/.bin/gltf-transform ]; then
	npm ci --no-audit --no-fund
fi
go build -o texture-webp.bin .
trap 'rm -f texture-webp.bin' EXIT
./texture-webp.bin "$@"
