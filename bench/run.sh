#!/bin/sh
# Builds bench-load and rivesyncd (release, own scratch path) and runs the side-by-side
# benchmark (bench/run.py; pass --quick for a smoke run, --help for options).
# BENCH_REV=<commit> builds rivesyncd from that commit (git archive into /tmp) instead of the
# working tree, so the figures name exactly what was measured. Several commits
# (BENCH_REV="fc7e991 HEAD") build one daemon each; every rivesync run is made on each of them.
set -eu
cd "$(dirname "$0")/.."
SCRATCH=${BENCH_SCRATCH:-/tmp/build-bench}
swift build -c release --scratch-path "$SCRATCH" --product bench-load
if [ -n "${BENCH_REV:-}" ]; then
    for rev in $(echo "$BENCH_REV" | tr ',' ' '); do
        REV=$(git rev-parse --short "$rev")
        SRC=/tmp/rivesync-bench-src-$REV
        [ -d "$SRC" ] || { mkdir -p "$SRC" && git archive "$REV" | tar -x -C "$SRC"; }
        swift build -c release --package-path "$SRC" --scratch-path "$SCRATCH-$REV" --product rivesyncd
        set -- "$@" --daemon "$REV=$SCRATCH-$REV/release"
    done
else
    swift build -c release --scratch-path "$SCRATCH" --product rivesyncd
    set -- "$@" --daemon-dir "$SCRATCH/release"
fi
exec /usr/bin/python3 bench/run.py --build-dir "$SCRATCH/release" "$@"
