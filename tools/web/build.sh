#!/usr/bin/env bash
# Copies the pinned <model-viewer> build (package-lock.json) into
# api/web/static/, where go:embed puts it in the binary: the viewer page
# loads no script from a CDN. The copied file is committed, so building
# Kiln needs neither node nor npm; run this after changing the version.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error
cp node_modules/@google/model-viewer/dist/model-viewer.min.js ../../api/web/static/model-viewer.min.js
ls -l ../../api/web/static/model-viewer.min.js
