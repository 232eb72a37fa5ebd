#!/usr/bin/env bash
# Copies the pinned three.js (tools/browser-test/package-lock.json) and
# the addons the avatar creator uses into creator/static/three/, where
# go:embed puts them in the binary: the creator loads nothing from a CDN
# and a fresh clone serves it without npm. The copies are committed;
# creator's TestVendoredThreeMatchesPackage checks them against
# node_modules when it is installed. Run after changing the version.
set -euo pipefail
cd "$(dirname "$0")/../.."
(cd tools/browser-test && npm ci --no-audit --no-fund --loglevel=error)
src=tools/browser-test/node_modules/three
dst=creator/static/three
rm -rf "$dst"
mkdir -p "$dst/build"
cp "$src/LICENSE" "$dst/LICENSE"
cp "$src/build/three.module.min.js" "$src/build/three.core.min.js" "$dst/build/"
for f in loaders/GLTFLoader.js controls/OrbitControls.js environments/RoomEnvironment.js utils/BufferGeometryUtils.js utils/SkeletonUtils.js; do
	mkdir -p "$dst/addons/$(dirname "$f")"
	cp "$src/examples/jsm/$f" "$dst/addons/$f"
done
du -sh "$dst"
