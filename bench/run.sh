#!/bin/sh
# Builds bench-load and rivesyncd (release, own scratch path) and runs the side-by-side
# benchmark (bench/run.py; pass --quick for a smoke run, --help for options).
set -eu
cd "$(dirname "$0")/.."
SCRATCH=${BENCH_SCRATCH:-/tmp/build-bench}
for product in bench-load rivesyncd; do
    swift build -c release --scratch-path "$SCRATCH" --product "$product"
done
exec /usr/bin/python3 bench/run.py --build-dir "$SCRATCH/release" "$@"
