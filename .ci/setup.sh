#!/bin/sh
# Installs what building, running and testing RiveSync needs on a fresh Debian 12 machine
# (Swift 6.3 is expected on PATH already). Safe to run again.
set -eu
# libhiredis-dev: the Redis client library the cluster mode links (RiveSyncRedis).
# libwebsockets-evlib-ev, libev-dev: the server's event loop (lws' libev plugin on epoll; the
# -dev package depends on both already, named here because the daemon needs them).
# systemd: systemd-analyze (.ci/systemd-check.sh) and systemd-socket-activate (supervision tests).
packages="libwebsockets-dev libwebsockets-evlib-ev libev-dev libssl-dev libhiredis-dev zlib1g-dev pkg-config openssl python3-websockets iproute2 procps systemd"
missing=""
for package in $packages; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing="$missing $package"
done
if [ -n "$missing" ]; then
    as_root=""
    [ "$(id -u)" -eq 0 ] || as_root="sudo"
    $as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq $missing >/dev/null
fi
# Python packages from PyPI for the python3 on PATH (pyenv's on the developers' machines and
# CI): jsonschema and websockets, for Tests/RiveSyncServerTests/python/validate_messages.py.
python3 -c "import jsonschema, websockets" 2>/dev/null || python3 -m pip install -q --disable-pip-version-check jsonschema websockets
