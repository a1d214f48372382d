#!/bin/sh
# Fuzzes the protocol message decoder (JSON parse + Request.decode + value/binding codecs) with
# libFuzzer for a bounded time. The seed corpus is built at run time from every message the
# conformance cases send (protocol/conformance/*.json, "send" and "sendRaw" steps), one file each.
# Exits non-zero when the fuzzer finds a crash, a hang (> 5 s per input) or a memory blow-up;
# the offending input is kept in $FUZZ_ARTIFACTS. Prints libFuzzer's final stats (executions).
#
#   FUZZ_SECONDS   time budget (default 60)
#   FUZZ_SCRATCH   build directory (default /tmp/build-fuzz-messages)
#   FUZZ_ARTIFACTS where crashing inputs go (default /tmp/fuzz-messages-artifacts)
set -eu
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
scratch=${FUZZ_SCRATCH:-/tmp/build-fuzz-messages}
artifacts=${FUZZ_ARTIFACTS:-/tmp/fuzz-messages-artifacts}

# --sanitize=fuzzer (not -Xswiftc -sanitize=fuzzer, which links a normal main and never fuzzes).
RIVESYNC_FUZZ=1 swift build -c release --product FuzzMessageDecoder --sanitize=fuzzer --scratch-path "$scratch"

corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
python3 - "$corpus" protocol/conformance/*.json <<'PY'
import json, sys
corpus, count = sys.argv[1], 0
for path in sys.argv[2:]:
    for step in json.load(open(path)).get("steps", []):
        message = json.dumps(step["send"]) if "send" in step else step.get("sendRaw")
        if message is not None:
            count += 1
            open("%s/seed-%04d.json" % (corpus, count), "w").write(message)
if count == 0:
    sys.exit("fuzz-messages: no messages in protocol/conformance")
print("fuzz-messages: %d seed messages" % count)
PY
mkdir -p "$artifacts"
"$scratch/release/FuzzMessageDecoder" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=1024 -max_len=4096 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus"
