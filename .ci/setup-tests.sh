#!/bin/sh
# Installs what only the tests need, on top of .ci/setup.sh (which installs what building and
# running needs): Node and Debian's `ws` for the Node tests of rivesync.js (clients/js/test/),
# headless Chromium, its WebDriver and Selenium (for /usr/bin/python3) for the browser tests
# (Tests/browser/); pytest from PyPI, for the python3 on PATH, for the Python client's suite
# (clients/python/tests); libcurl4 for FoundationNetworking, which the client's Foundation
# WebSocket transport links (its tests and the client package tests build and run it). Safe to
# run again.
set -eu
packages="nodejs node-ws chromium chromium-driver python3-selenium libcurl4"
missing=""
for package in $packages; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing="$missing $package"
done
# A Node from elsewhere (e.g. nodesource) provides the `node` command: keep it.
if command -v node >/dev/null 2>&1; then missing=$(echo "$missing" | sed 's/ nodejs\b//'); fi
if [ -n "$(echo "$missing" | tr -d ' ')" ]; then
    as_root=""
    [ "$(id -u)" -eq 0 ] || as_root="sudo"
    $as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq $missing >/dev/null
fi
python3 -c "import pytest" 2>/dev/null || python3 -m pip install -q --disable-pip-version-check pytest
