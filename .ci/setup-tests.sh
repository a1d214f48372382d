#!/bin/sh
# Installs what the tests need beyond running RiveSync (.ci/setup.sh): promtool (Debian's
# prometheus, for MetricsTests), dpkg-dev (dpkg-shlibdeps, for packaging/build-deb.sh) and
# man-db (man -w, for .ci/package-check.sh). Safe to run again; .ci/run calls it.
set -eu
packages="prometheus dpkg-dev man-db"
missing=""
for package in $packages; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing="$missing $package"
done
if [ -n "$missing" ]; then
    as_root=""
    [ "$(id -u)" -eq 0 ] || as_root="sudo"
    $as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
