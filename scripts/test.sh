#!/usr/bin/env bash
# `npm test`: type-check, then every test (SQLite and Postgres ones alike).
set -euo pipefail
cd "$(dirname "$0")/.."
tsc -p tsconfig.json
vitest run "$@"
