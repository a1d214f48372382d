#!/usr/bin/env python3
"""Resident memory per idle connection (issue 23 item 4), by layer, for each daemon given.

For every `--daemon LABEL=DIR` (bench/run.sh --idle-memory passes one per BENCH_REV) and every
layer, a fresh `rivesyncd --demo` is started, `--connections` WebSocket connections are opened
and left idle, and the daemon's RSS growth divided by the count is printed:
  echo        the transport alone (`--test-echo`: lws, the receive buffer, the session object)
  hello       + a `hello` (the dispatcher's and the core's per-connection state)
  subscribed  + a `subscribe` to `lobby` (the worker's subscription)
RSS is page-granular and the allocator reuses freed memory, so each figure comes from a fresh
process; the peers' figures (Mosquitto, the lws mirror) come from `bench/run.py --workloads
connections`.
"""

import argparse
import asyncio
import json
import os
import socket
import subprocess
import tempfile
import time

import websockets

LAYERS = ("echo", "hello", "subscribed")


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--daemon", action="append", required=True, metavar="LABEL=DIR", help="a rivesyncd build directory")
    p.add_argument("--connections", type=int, default=5000)
    return p.parse_args()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS"):
                return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


async def open_connection(port, layer, index):
    ws = await websockets.connect(f"ws://127.0.0.1:{port}", max_size=None, ping_interval=None)
    if layer == "echo":
        await ws.send("x")
        await ws.recv()
        return ws
    await ws.send(json.dumps({"type": "hello", "protocol": [1], "client": f"idle-{index}"}))
    json.loads(await ws.recv())
    if layer == "subscribed":
        await ws.send(json.dumps({"type": "subscribe", "target": "lobby", "id": 1}))
        reply = json.loads(await ws.recv())
        if reply.get("type") != "snapshot":
            raise RuntimeError(f"subscribe answered {reply}")
    return ws


async def measure(binary, layer, count):
    port = free_port()
    env = dict(os.environ, RIVESYNC_LIMITS_MAX_CONNECTIONS_PER_ADDRESS=str(count + 100),
               RIVESYNC_LIMITS_MAX_CONNECTIONS=str(count + 100))
    arguments = [binary, "--demo", "--port", str(port)] + (["--test-echo"] if layer == "echo" else [])
    log = tempfile.TemporaryFile(mode="w+")  # a file, not a pipe: a full pipe would stall the daemon
    daemon = subprocess.Popen(arguments, env=env, stdout=subprocess.DEVNULL, stderr=log)
    try:
        deadline = time.monotonic() + 60
        while True:
            log.seek(0)
            if "listening on" in log.read():
                break
            if daemon.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{binary} did not start")
            time.sleep(0.05)
        time.sleep(0.5)
        base = rss_kib(daemon.pid)
        connections = []
        for start in range(0, count, 100):
            batch = range(start, min(count, start + 100))
            connections += await asyncio.gather(*(open_connection(port, layer, i) for i in batch))
        await asyncio.sleep(2)
        grown = rss_kib(daemon.pid) - base
        for ws in connections:
            await ws.close()
        return grown / count
    finally:
        daemon.terminate()
        daemon.wait(timeout=30)


def main():
    args = parse_args()
    print(f"{args.connections} idle connections per run; KiB of daemon RSS growth per connection")
    print("| daemon | " + " | ".join(LAYERS) + " |")
    print("|---|" + "---:|" * len(LAYERS))
    for spec in args.daemon:
        label, directory = spec.split("=", 1)
        binary = os.path.join(directory, "rivesyncd")
        figures = [asyncio.run(measure(binary, layer, args.connections)) for layer in LAYERS]
        print(f"| {label} | " + " | ".join(f"{kib:.2f}" for kib in figures) + " |", flush=True)


if __name__ == "__main__":
    main()
