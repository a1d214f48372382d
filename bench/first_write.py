"""Leading-edge advances (PROTOCOL.md §18, issue 14 item 4), measured against named daemons.

For each daemon (`--daemon LABEL=DIR`, DIR holding a release `rivesyncd`), on a fresh
`rivesyncd --demo` pinned to core 0 (this client on core 1):

1. idle set→ack: first `--samples` awaited `ping`s (the floor: a request the dispatcher
   answers without a worker), then `--samples` awaited `set`s of `character`'s `mood` (an auto target at the
   default 60 advances/s), each sent after the target has been idle for `--idle-ms` (longer than
   its 16.7 ms interval); the time from sending to reading the ack, p50 / p99 / max. Measured
   twice, by two clients in turn: `asyncio` (the `websockets` library, as an application would
   write it) and `lean` (bench/lean_client.py: one blocking socket, hand framing, TCP_NODELAY),
   which adds little of its own, so its absolute set→ack is the figure to hold to the goal.
   Before each daemon, the machine's own floor: the same loop against a bare TCP echo.
2. flood (the asyncio client): `--rate` writes/s (open loop, paced in 1 ms slots) to the same target for
   `--seconds`, without waiting for acks; the advances are counted from the acks' distinct
   seqs per wall-clock second of their arrival, and from a whole-target subscriber's batches.
   The daemon must make at most 60 advances in any second.

Prints two Markdown tables (latencies per daemon and client, then the flood); `bench/README.md` has the command and the committed figures.
"""

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time

import websockets

from lean_client import LeanClient, text_frame


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(directory):
    port = free_port()
    proc = subprocess.Popen(
        ["taskset", "-c", "0", os.path.join(directory, "rivesyncd"), "--demo", "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc, port
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError(f"{directory}/rivesyncd exited with {proc.returncode}")
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("rivesyncd did not listen within 30 s")


async def connect(port):
    ws = await websockets.connect(f"ws://127.0.0.1:{port}/", max_size=None, compression=None)
    await ws.send(json.dumps({"type": "hello", "id": 0, "protocol": [1], "client": "first_write.py"}))
    reply = json.loads(await ws.recv())
    assert reply["type"] == "welcome", reply
    return ws


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


async def round_trips(port, samples, idle_ms, request, expected):
    """Times `samples` awaited requests (after 10 to warm up), each after `idle_ms` idle."""
    ws = await connect(port)
    latencies = []
    for i in range(samples + 10):
        await asyncio.sleep(idle_ms / 1000)
        start_ns = time.perf_counter_ns()
        await ws.send(json.dumps(dict(request(i), id=i + 1)))
        while True:
            reply = json.loads(await ws.recv())
            if reply.get("id") == i + 1:
                break
        elapsed = (time.perf_counter_ns() - start_ns) / 1e6
        assert reply["type"] == expected, reply
        if i >= 10:
            latencies.append(elapsed)
    await ws.close()
    return latencies


def lean_round_trips(port, samples, idle_ms, request, expected):
    """As `round_trips`, with the blocking client; each request's frame is built before its clock starts."""
    client = LeanClient(port)
    latencies = []
    for i in range(samples + 10):
        prepared = text_frame(dict(request(i), id=i + 1))
        time.sleep(idle_ms / 1000)
        start_ns = time.perf_counter_ns()
        reply = client.request(prepared, i + 1)
        elapsed = (time.perf_counter_ns() - start_ns) / 1e6
        assert reply["type"] == expected, reply
        if i >= 10:
            latencies.append(elapsed)
    client.close()
    return latencies


def loopback_echo(samples, idle_ms):
    """The machine's floor: the lean client's timing loop against a bare TCP echo (a forked
    child on core 0), 40-byte messages, no WebSocket, no daemon."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    address = server.getsockname()
    child = os.fork()
    if child == 0:
        try:  # the child never returns into the caller, even if the parent never connects
            os.sched_setaffinity(0, {0})
            server.settimeout(30)
            connection, _ = server.accept()
            connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            while data := connection.recv(4096):
                connection.sendall(data)
        finally:
            os._exit(0)
    server.close()
    latencies = []
    with socket.create_connection(address, timeout=30) as client:
        client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for i in range(samples + 10):
            time.sleep(idle_ms / 1000)
            start_ns = time.perf_counter_ns()
            client.sendall(b"x" * 40)
            received = 0
            while received < 40:
                received += len(client.recv(4096))
            if i >= 10:
                latencies.append((time.perf_counter_ns() - start_ns) / 1e6)
    os.waitpid(child, 0)
    return statistics.median(latencies)


def set_mood(i):
    return {"type": "set", "target": "character", "path": "mood", "value": i % 2 + 1}


def ping(i):
    return {"type": "ping"}


def latency_row(pings, sets):
    return {"ping": statistics.median(pings), "p50": statistics.median(sets), "p99": percentile(sets, 99), "max": max(sets)}


async def flood(port, rate, seconds):
    writer = await connect(port)
    watcher = await connect(port)
    await watcher.send(json.dumps({"type": "subscribe", "id": 1, "target": "character"}))
    snapshot = json.loads(await watcher.recv())
    assert snapshot["type"] == "snapshot", snapshot
    acks_per_second, batches_per_second = {}, {}
    total = rate * seconds
    done = asyncio.Event()
    origin = time.monotonic()

    async def send():
        for i in range(total):
            due = origin + i / rate
            delay = due - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            await writer.send(json.dumps({"type": "set", "id": i + 1, "target": "character", "path": "mood", "value": i % 7}))

    async def read_acks():
        received = 0
        while received < total:
            reply = json.loads(await writer.recv())
            if reply["type"] == "ack":
                second = int(time.monotonic() - origin)
                acks_per_second.setdefault(second, set()).add(reply["seq"])
                received += 1
            elif reply["type"] == "error":
                raise RuntimeError(f"error during the flood: {reply}")
        done.set()

    async def read_batches():
        while not done.is_set():
            try:
                message = json.loads(await asyncio.wait_for(watcher.recv(), 0.5))
            except asyncio.TimeoutError:
                continue
            if message["type"] == "batch":
                second = int(time.monotonic() - origin)
                batches_per_second[second] = batches_per_second.get(second, 0) + 1

    await asyncio.wait_for(asyncio.gather(send(), read_acks(), read_batches()), seconds + 60)
    await writer.close()
    await watcher.close()
    # Whole seconds only: the last one is partial.
    full = [s for s in range(seconds)]
    advances = [len(acks_per_second.get(s, ())) for s in full]
    batches = [batches_per_second.get(s, 0) for s in full]
    return advances, batches


def run(label, directory, args):
    """The loopback echo, then one fresh daemon: both clients' floors and idle sets (asyncio
    first), then the flood."""
    echo = loopback_echo(args.samples, args.idle_ms)
    proc, port = start(directory)
    try:
        clients = {
            "asyncio": latency_row(
                asyncio.run(round_trips(port, args.samples, args.idle_ms, ping, "pong")),
                asyncio.run(round_trips(port, args.samples, args.idle_ms, set_mood, "ack"))),
            "lean": latency_row(
                lean_round_trips(port, args.samples, args.idle_ms, ping, "pong"),
                lean_round_trips(port, args.samples, args.idle_ms, set_mood, "ack")),
        }
        advances, batches = asyncio.run(flood(port, args.rate, args.seconds))
    finally:
        proc.terminate()
        proc.wait(10)
    return {"label": label, "echo": echo, "clients": clients, "advances": advances, "batches": batches}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--daemon", action="append", required=True, help="LABEL=DIR with a release rivesyncd")
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--idle-ms", type=float, default=40)
    parser.add_argument("--rate", type=int, default=1000)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--out", help="also write the table and its conditions to this Markdown file")
    args = parser.parse_args()
    os.sched_setaffinity(0, {1})
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load_before = " ".join(f"{x:.2f}" for x in os.getloadavg())
    rows = [run(*spec.split("=", 1), args) for spec in args.daemon]
    load_after = " ".join(f"{x:.2f}" for x in os.getloadavg())
    lines = ["| daemon | client | loopback echo p50 ms (no daemon) | ping→pong p50 ms (floor) | idle set→ack p50 ms | p99 ms | max ms | "
             "set→ack − ping p50 ms |",
             "|---|---|---|---|---|---|---|---|"]
    for row in rows:
        for client, c in row["clients"].items():
            lines.append(f"| {row['label']} | {client} | {row['echo']:.3f} | {c['ping']:.3f} | {c['p50']:.3f} | {c['p99']:.3f} | "
                         f"{c['max']:.3f} | {c['p50'] - c['ping']:.3f} |")
    lines += ["", f"| daemon | {args.rate} writes/s: advances per second (acks' seqs) | batches per second (subscriber) |",
              "|---|---|---|"]
    for row in rows:
        lines.append(f"| {row['label']} | {' '.join(map(str, row['advances']))} | {' '.join(map(str, row['batches']))} |")
    lines += ["", f"{started} on `{os.uname().nodename}` ({os.cpu_count()} cores): {args.samples} samples after "
                  f"{args.idle_ms:g} ms idle each; flood {args.seconds} s at {args.rate} writes/s; daemon on core 0, "
                  f"client on core 1; load average (1, 5, 15 min) before {load_before}, after {load_after}"]
    print("\n".join(lines))
    if args.out:
        with open(args.out, "w") as f:
            f.write("# Leading-edge advances: first writes (bench/first_write.py)\n\n" + "\n".join(lines) + "\n")
    if any(max(row["advances"]) > 60 or max(row["batches"]) > 60 for row in rows):
        sys.exit("more than 60 advances in a second")


if __name__ == "__main__":
    main()
