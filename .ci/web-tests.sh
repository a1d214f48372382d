#!/bin/sh
# The JavaScript client and the daemon's pages: its TypeScript declarations (types/*.d.ts,
# generated from the JSDoc by tsc, must be current) and a TypeScript program compiled against
# them through package.json (about 1 min: two tsc runs); Node tests of rivesync.js (every
# protocol conformance case with replicas checked against the daemon's digests, the client API,
# the Rive web runtime adapter against a double, the package and its example); then the
# real-browser tests of the inspector and the preview in headless Chromium. Needs
# .ci/setup-tests.sh and a `swift build`.
set -eu
cd "$(dirname "$0")/.."
declarations=$(mktemp -d)
trap 'rm -rf "$declarations"' EXIT
tsc -p clients/js --outDir "$declarations"
diff -r clients/js/types "$declarations" ||
    { echo "web-tests.sh: clients/js/types is stale: run tsc -p clients/js" >&2; exit 1; }
tsc -p clients/js/test/typescript
NODE_PATH=/usr/share/nodejs node --test clients/js/test/*.test.mjs
/usr/bin/python3 -W ignore::ResourceWarning Tests/browser/test_inspector.py
