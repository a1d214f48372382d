#!/bin/sh
# Scores systemd/rivesyncd.service with systemd 252's offline analyzer and fails above exposure
# 1.5 (--threshold is on a 0-100 scale). Also scores the unit with the socket-activated.conf
# drop-in (no network of its own), which must stay at or below 1.0, and the cluster node
# template (systemd/rivesyncd-cluster@.service) as one instance, at or below 1.5.
set -eu
cd "$(dirname "$0")/.."
check() {  # unit-file threshold
    report=$(systemd-analyze security --offline=yes --threshold="$2" "$1" 2>&1) || {
        printf '%s\n' "$report"
        echo "systemd-check: $1 is above exposure $2/10" >&2
        exit 1
    }
    printf '%s\n' "$report" | grep "Overall exposure level"
}
check systemd/rivesyncd.service 15
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# Offline analysis reads one file: append the drop-in's sections to a copy of the unit.
cat systemd/rivesyncd.service systemd/socket-activated.conf > "$scratch/rivesyncd.service"
check "$scratch/rivesyncd.service" 10
cp systemd/rivesyncd-cluster@.service "$scratch/rivesyncd-cluster@1.service"
check "$scratch/rivesyncd-cluster@1.service" 15
