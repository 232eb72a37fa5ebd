#!/usr/bin/env bash
# Compares Kiln's useMeshOptCompression pipeline with gltfpack -cc on the
# avatars, DamagedHelmet, RobotExpressive and generated models; see
# README.md. Arguments go to the Go program (-runs N, -shared DIR).
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -f ../../tools/meshopt/node_modules/gltfpack/cli.js ]; then
	(cd ../../tools/meshopt && npm ci --no-audit --no-fund)
fi
if [ ! -d ../../tools/gltf-validator/node_modules/gltf-validator ]; then
	(cd ../../tools/gltf-validator && npm ci --no-audit --no-fund)
fi
go build -o meshopt.bin .
trap 'rm -f meshopt.bin' EXIT
./meshopt.bin "$@"
