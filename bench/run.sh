#!/bin/sh
# Builds bench-load and rivesyncd (release, own scratch path) and runs the side-by-side
# benchmark (bench/run.py; pass --quick for a smoke run, --help for options).
# BENCH_REV=<commit> builds rivesyncd from that commit (git archive into /tmp) instead of the
# working tree (sources unpacked in $BENCH_SRC-<rev>), so the figures name exactly what was measured. Several commits
# (BENCH_REV="fc7e991 HEAD") build one daemon each; every rivesync run is made on each of them.
# --first-write (first argument) runs bench/first_write.py on those daemons instead (issue 14);
# --idle-memory runs bench/idle_memory.py (resident memory per idle connection, issue 23).
set -eu
cd "$(dirname "$0")/.."
SCRATCH=${BENCH_SCRATCH:-/tmp/build-bench}
SCRIPT=run.py
if [ "${1:-}" = "--first-write" ] || [ "${1:-}" = "--idle-memory" ]; then
    [ "$1" = "--first-write" ] && SCRIPT=first_write.py || SCRIPT=idle_memory.py
    shift
else
    swift build -c release --scratch-path "$SCRATCH" --product bench-load
    swift build -c release --scratch-path "$SCRATCH" --product bench-rooms-floor
fi
if [ -n "${BENCH_REV:-}" ]; then
    for rev in $(echo "$BENCH_REV" | tr ',' ' '); do
        REV=$(git rev-parse --short "$rev")
        SRC=${BENCH_SRC:-/tmp/rivesync-bench-src}-$REV
        [ -d "$SRC" ] || { mkdir -p "$SRC" && git archive "$REV" | tar -x -C "$SRC"; }
        swift build -c release --package-path "$SRC" --scratch-path "$SCRATCH-$REV" --product rivesyncd
        set -- "$@" --daemon "$REV=$SCRATCH-$REV/release"
    done
else
    swift build -c release --scratch-path "$SCRATCH" --product rivesyncd
    if [ "$SCRIPT" != run.py ]; then
        set -- "$@" --daemon "$(git describe --always --dirty)=$SCRATCH/release"
    else
        set -- "$@" --daemon-dir "$SCRATCH/release"
    fi
fi
if [ "$SCRIPT" != run.py ]; then exec /usr/bin/python3 "bench/$SCRIPT" "$@"; fi
exec /usr/bin/python3 bench/run.py --build-dir "$SCRATCH/release" "$@"
