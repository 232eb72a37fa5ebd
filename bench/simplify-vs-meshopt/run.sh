#!/usr/bin/env bash
# Compares Kiln's simplifier with meshoptimizer's npm build on the same
# meshes; see README.md. Arguments go to the Go program (-short, -maxerror,
# -models, -native: the native build needs MESHOPT_SRC, see README.md).
set -euo pipefail
cd "$(dirname "$0")"
if [ "${1:-}" != -native ] && [ ! -d node_modules/meshoptimizer ]; then
	npm ci --no-audit --no-fund
fi
exec go run . "$@"
