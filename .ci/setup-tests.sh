#!/bin/sh
# Installs what only the tests need, on top of .ci/setup.sh (which installs what building and
# running needs): Node and Debian's `ws` for the Node tests of rivesync.js (clients/js/test/),
# headless Chromium, its WebDriver and Selenium (for /usr/bin/python3) for the browser tests
# (Tests/browser/); libcurl4 for FoundationNetworking, which the client's Foundation WebSocket
# transport links (its tests and the client package tests build and run it); promtool (Debian's
# prometheus) for MetricsTests and MonitoringTests (`promtool check rules`), dpkg-dev
# (dpkg-shlibdeps) for packaging/build-deb.sh, lintian and man-db (man -w) for
# .ci/package-check.sh; pytest from PyPI, for the python3 on PATH, for the Python
# client's suite (clients/python/tests); a virtual environment .build/python-tests (on that
# python3, seeing its packages) with pytest-asyncio, which the Python client's suite runs under
# (and without, by `-p no:asyncio`), and mypy for its `mypy --strict` check: kept out of the
# shared python3 so that pytest there runs as without pytest-asyncio; node-typescript (tsc)
# for the JavaScript client's declaration files and their TypeScript consumer test
# (.ci/web-tests.sh); python3-pytest and python3-pytest-asyncio, Debian's own (older) stack on
# /usr/bin/python3, on which clients/python/tests/test_documented.py runs the README's examples
# too; redis-server (with redis-cli) for the Redis and cluster
# tests (Tests/RiveSyncRedisTests, ClusterTests), which start their own servers; redis-sentinel for
# ClusterSentinelTests, which starts a primary, a replica and three Sentinels; zsh and fish for
# CompletionTests (they parse the completion scripts `rivesync completion` generates). Safe to
# run again.
set -eu
as_root=""
[ "$(id -u)" -eq 0 ] || as_root="sudo"
updated=""
# install APT_OPTIONS PACKAGE...: apt-get installs those of PACKAGE... not installed yet.
install() {
    options=$1
    shift
    missing=""
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing="$missing $package"
    done
    # A Node from elsewhere (e.g. nodesource) provides the `node` command: keep it.
    if command -v node >/dev/null 2>&1; then missing=$(echo "$missing" | sed 's/ nodejs\b//'); fi
    [ -n "$(echo "$missing" | tr -d ' ')" ] || return 0
    [ -n "$updated" ] || $as_root apt-get update -qq
    updated=yes
    DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq $options $missing >/dev/null
}
install "" nodejs node-ws node-typescript chromium chromium-driver python3-selenium python3-pytest python3-pytest-asyncio libcurl4 redis-server redis-sentinel zsh fish
# Only the tools: prometheus recommends the node exporter, which the tests do not need.
install --no-install-recommends prometheus dpkg-dev lintian man-db
python3 -c "import pytest" 2>/dev/null || python3 -m pip install -q --disable-pip-version-check pytest
venv="$(dirname "$0")/../.build/python-tests"
[ -x "$venv/bin/python" ] || python3 -m venv --system-site-packages "$venv"
"$venv/bin/python" -c "import pytest_asyncio, mypy" 2>/dev/null ||
    "$venv/bin/python" -m pip install -q --disable-pip-version-check pytest-asyncio==1.5.0 mypy==2.4.1
