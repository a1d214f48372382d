#!/bin/sh
# The JavaScript client and the daemon's pages: Node tests of rivesync.js (every protocol
# conformance case with replicas checked against the daemon's digests, the client API, the
# Rive web runtime adapter against a double), then the real-browser tests of the inspector and
# the preview in headless Chromium. Needs .ci/setup-tests.sh and a `swift build`.
set -eu
cd "$(dirname "$0")/.."
NODE_PATH=/usr/share/nodejs node --test clients/js/test/*.test.mjs
/usr/bin/python3 -W ignore::ResourceWarning Tests/browser/test_inspector.py
