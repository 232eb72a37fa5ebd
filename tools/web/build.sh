#!/usr/bin/env bash
# Copies the pinned <model-viewer> build and meshoptimizer's decoder
# (package-lock.json) into api/web/static/, where go:embed puts them in
# the binary: the viewer page loads no script from a CDN, and an app's
# model-viewer reads meshopt downloads with
# meshoptDecoderLocation = {platform}/static/meshopt_decoder.js. The
# decoder is the classic-script build (it sets self.MeshoptDecoder, which
# model-viewer's loader waits for). Google's Draco decoder (three.js's copy,
# the glTF build: wrapper and wasm) goes to static/draco/, for
# dracoDecoderLocation = {platform}/static/draco/ (model-viewer's default
# is Google's CDN). The copied files are committed, so building
# Kiln needs neither node nor npm; run this after changing the version.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error
cp node_modules/@google/model-viewer/dist/model-viewer.min.js ../../api/web/static/model-viewer.min.js
cp node_modules/meshoptimizer/meshopt_decoder.cjs ../../api/web/static/meshopt_decoder.js
mkdir -p ../../api/web/static/draco
cp node_modules/three/examples/jsm/libs/draco/gltf/draco_wasm_wrapper.js \
  node_modules/three/examples/jsm/libs/draco/gltf/draco_decoder.wasm ../../api/web/static/draco/
ls -l ../../api/web/static/model-viewer.min.js ../../api/web/static/meshopt_decoder.js ../../api/web/static/draco
