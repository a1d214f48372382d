#!/bin/bash
# The daemon's CPU and context switches over 5 s of the rooms load (session 15, steering):
#   measure.sh THREADS CORES WORKERS ROOMS [bench-load flags, e.g. --no-room-hint]
# rivesyncd (RIVESYNC_TRANSPORT_THREADS=THREADS, taskset CORES, files rooms-0 on worker 0 and
# rooms-1 on the last) gets ROOMS rooms at 60 advances/s, 8 clients each at 10 sets/s from
# bench-load on core 1; `perf stat` reads the daemon from the 3rd to the 8th second.
# BENCH_LOAD and RIVESYNCD name the release binaries (as bench/run.sh builds them).
set -eu
t=$1; cores=$2; workers=$3; rooms=$4; shift 4
here=$(cd "$(dirname "$0")/../.." && pwd)
S=$here/peers/rooms.schema.json
L=${BENCH_LOAD:-/tmp/build-bench-steer/release/bench-load}
R=${RIVESYNCD:-/tmp/build-bench-steer-320aedd/release/rivesyncd}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
port=$((17950 + RANDOM % 1000))
files='{"name":"rooms-0","path":"'$S'","worker":0},{"name":"rooms-1","path":"'$S'","worker":'$((workers - 1))'}'
echo '{"listen":{"host":"127.0.0.1","port":'$port'},"workers":'$workers',"files":['$files'],"auth":{"allowAnonymous":"loopback"}}' > "$work/c.json"
RIVESYNC_TRANSPORT_THREADS=$t taskset -c "$cores" "$R" --config "$work/c.json" > "$work/d.log" 2>&1 & pid=$!
sleep 1
taskset -c 1 "$L" --peer rivesync --url "ws://127.0.0.1:$port/" --create-rooms --rooms "$rooms" --files rooms-0,rooms-1 --room-rate 60 > /dev/null
taskset -c 1 "$L" --peer rivesync --url "ws://127.0.0.1:$port/" --rooms "$rooms" --rate $((rooms * 80)) --duration 9 --drain 1 --standalone "$@" > "$work/load.out" 2>&1 & gen=$!
sleep 3
out=$(perf stat -x, -e task-clock,context-switches -p $pid -- sleep 5 2>&1)
wait $gen
kill $pid
wait $pid 2> /dev/null || true
ms=$(echo "$out" | grep task-clock | cut -d, -f1)
cs=$(echo "$out" | grep context-switches | cut -d, -f1)
sets=$((rooms * 80 * 5))
printf "threads %s cores %-3s workers %s rooms %s %-15s cpu %.0f ms  us/set %.1f  cs/s %d  received %s load %s\n" "$t" "$cores" "$workers" "$rooms" "$*" \
    "$ms" "$(echo "$ms*1000/$sets" | bc -l)" $((${cs%.*} / 5)) "$(grep -o '"received":[0-9]*' "$work/load.out" | cut -d: -f2)" "$(cut -d' ' -f1 /proc/loadavg)"
