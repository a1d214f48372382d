#!/bin/sh
# Builds bench-load and rivesyncd (release, own scratch path) and runs the side-by-side
# benchmark (bench/run.py; pass --quick for a smoke run, --help for options).
# BENCH_REV=<commit> builds rivesyncd from that commit (git archive into /tmp) instead of the
# working tree, so the figures name exactly what was measured.
set -eu
cd "$(dirname "$0")/.."
SCRATCH=${BENCH_SCRATCH:-/tmp/build-bench}
swift build -c release --scratch-path "$SCRATCH" --product bench-load
DAEMON_DIR="$SCRATCH/release"
if [ -n "${BENCH_REV:-}" ]; then
    REV=$(git rev-parse --short "$BENCH_REV")
    SRC=/tmp/rivesync-bench-src-$REV
    [ -d "$SRC" ] || { mkdir -p "$SRC" && git archive "$REV" | tar -x -C "$SRC"; }
    swift build -c release --package-path "$SRC" --scratch-path "$SCRATCH-$REV" --product rivesyncd
    DAEMON_DIR="$SCRATCH-$REV/release"
    export BENCH_DAEMON_REV="$REV"
else
    swift build -c release --scratch-path "$SCRATCH" --product rivesyncd
fi
exec /usr/bin/python3 bench/run.py --build-dir "$SCRATCH/release" --daemon-dir "$DAEMON_DIR" "$@"
