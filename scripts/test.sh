#!/usr/bin/env bash
# `npm test`: type-check, format and lint (Biome), the rooms' import rules (dependency-cruiser),
# then every test (SQLite and Postgres ones alike), then one plain summary line that any CI can read.
set -uo pipefail
cd "$(dirname "$0")/.."
tsc -p tsconfig.json || exit 1
biome ci --reporter=summary src test bench packages scripts || exit 1
# The rooms' import rules of docs/architecture.md (.dependency-cruiser.mjs).
depcruise --config .dependency-cruiser.mjs src || exit 1
report=$(mktemp)
vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@"
status=$?
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const skipped = r.numPendingTests + r.numTodoTests;
  // A suite that failed to load has no failed test of its own; it still fails the run.
  const unloaded = r.testResults.filter((f) => f.status === "failed" && !f.assertionResults.some((a) => a.status === "failed")).length;
  const failed = Math.max(r.numFailedTests + unloaded, Number(process.argv[2]) === 0 ? 0 : 1);
  console.log(`vitest: ${r.numPassedTests} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
' "$report" "$status" 2>/dev/null || echo "vitest: 0 passed, 1 failed"
rm -f "$report"
exit $status
