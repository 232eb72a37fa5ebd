#!/usr/bin/env bash
# Compares Kiln's useDracoMeshCompression writer with Google's Draco
# encoder (draco3dgltf through glTF-Transform) on the leader's avatars,
# DamagedHelmet, the bunny and a Kiln avatar; see README.md. Arguments go
# to the Go program (-runs N, -shared DIR).
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -d ../../tools/draco/node_modules/draco3dgltf ]; then
	(cd ../../tools/draco && npm ci --no-audit --no-fund)
fi
if [ ! -d ../../tools/gltf-validator/node_modules/gltf-validator ]; then
	(cd ../../tools/gltf-validator && npm ci --no-audit --no-fund)
fi
go build -o draco.bin .
trap 'rm -f draco.bin' EXIT
./draco.bin "$@"
