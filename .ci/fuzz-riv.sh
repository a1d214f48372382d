#!/bin/sh
# Fuzzes the .riv reader with libFuzzer for a bounded time, seeded with the .riv fixtures.
# Exits non-zero when the fuzzer finds a crash, hang (> 5 s per input) or memory blow-up; the
# offending input is kept in $FUZZ_ARTIFACTS.
#
#   FUZZ_SECONDS   time budget (default 60)
#   FUZZ_SCRATCH   build directory (default /tmp/build-fuzz-riv)
#   FUZZ_ARTIFACTS where crashing inputs go (default /tmp/fuzz-riv-artifacts)
set -eu
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
scratch=${FUZZ_SCRATCH:-/tmp/build-fuzz-riv}
artifacts=${FUZZ_ARTIFACTS:-/tmp/fuzz-riv-artifacts}
fixtures=../shared/fixtures/riv

# --sanitize=fuzzer (not -Xswiftc -sanitize=fuzzer, which links a normal main and never fuzzes).
RIVESYNC_FUZZ=1 swift build -c release --product FuzzRivReader --sanitize=fuzzer --scratch-path "$scratch"

corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
if ls "$fixtures"/*.riv >/dev/null 2>&1; then
    cp "$fixtures"/*.riv "$corpus"/
else
    echo "fuzz-riv: no fixtures in $fixtures; starting from an empty corpus" >&2
fi
mkdir -p "$artifacts"
"$scratch/release/FuzzRivReader" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=1024 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus"
