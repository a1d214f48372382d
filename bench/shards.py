"""Figures of a sharded cluster (issue 23 item 3, protocol/CLUSTER.md §6); a bench, not a test.

1. **Entries/s one Redis holds** for the append script (the fenced `EVAL … XADD` every node
   sends per entry), measured with `redis-benchmark` against a fresh redis-server with AOF
   (`appendfsync always`, then `everysec`): pipelined like a node (`-P 64`) from a few
   connections, and one at a time, with an entry body the size of a room's `set` advance.
   Redis's own CPU per entry comes from /proc.
2. **A node's CPU for rooms it does not carry**: two redis-servers (shard s1, shard s2), node A
   serving s1, node B serving s2. Rooms (targets of file `demo`, on s1) get `set`s through A
   at a fixed rate, each room with subscribers on A. A's CPU per set is the carrier's cost;
   B's CPU over the same window is what a node pays for another shard's rooms (its lease
   renewals, presence `alive`s and shard directory refresh only).
3. **Per shard**: the same rooms on both shards at once (s1 through A, s2 through B): each
   shard's sets/s, its node's CPU per set and its Redis's CPU per entry.

    python3 bench/shards.py --daemon .build/release/rivesyncd [--rooms 20] [--rate 10] [--seconds 15]

Nothing is pinned: on a shared machine say so with the figures (the load average is printed).
"""

import argparse
import asyncio
import json
import os
import re
import subprocess
import tempfile
import time

import websockets

import cluster
import peers

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEMO = os.path.join(ROOT, "protocol", "examples", "demo.schema.json")
# A room's `set` advance as a node appends it (ClusterEntry fields, CLUSTER.md §2.3): about 300 bytes.
BODY = json.dumps({"advance": {"target": "room-1", "commands": [
    {"command": 123456789, "set": {"path": "title", "value": "a title of a room, set by a player"}},
], "elapsed": 0}, "seq": 1234, "author": {"client": "player-1"}})


def append_capacity(work, appendfsync, clients, pipeline, requests):
    """(entries/s, Redis CPU µs per entry) of the append script on a fresh redis-server."""
    redis = cluster.Redis(work, 0, appendfsync)
    try:
        key = "bench:{s1}"
        subprocess.run(["redis-cli", "-p", str(redis.port), "SET", f"{key}:lease:n", "token"], check=True, capture_output=True)
        script = ("if redis.call('GET', KEYS[2]) ~= ARGV[1] then return redis.error_reply('FENCED') end "
                  "return redis.call('XADD', KEYS[1], '*', unpack(ARGV, 2))")
        before = redis.cpu_seconds()
        out = subprocess.run(
            ["redis-benchmark", "-p", str(redis.port), "-n", str(requests), "-c", str(clients), "-P", str(pipeline), "-q",
             "EVAL", script, "2", f"{key}:log", f"{key}:lease:n", "token", "v", "1", "k", "record", "f", "demo",
             "b", BODY, "n", "n", "g", "token", "t", "1"],
            capture_output=True, text=True, timeout=600).stdout
        cpu = redis.cpu_seconds() - before
        entries = redis_xlen(redis.port, f"{key}:log")
        rate = float(re.findall(r"([\d.]+) requests per second", out)[-1])
        return rate, cpu / max(1, entries) * 1e6, entries
    finally:
        redis.stop()


def redis_xlen(port, key):
    out = subprocess.run(["redis-cli", "-p", str(port), "XLEN", key], capture_output=True, text=True).stdout.strip()
    return int(out) if out.isdigit() else 0


class Node:
    """A rivesyncd node of the two-shard cluster, serving `serves`."""

    def __init__(self, daemon, work, name, redis, serves):
        self.port = peers.free_port()
        config = {
            "listen": {"port": self.port},
            "files": [{"name": "demo", "path": DEMO}, {"name": "demo2", "path": DEMO}],
            "auth": {"allowAnonymous": "loopback"},
            "limits": {"maxCommandsPerSecond": 100000, "maxTargets": 100000},
            "logLevel": "info",
            "cluster": {
                "node": name, "url": f"ws://127.0.0.1:{self.port}/",
                "shards": [{"name": "s1", "redis": redis[0].url, "prefix": "bench:{s1}"},
                           {"name": "s2", "redis": redis[1].url, "prefix": "bench:{s2}"}],
                "fileShards": {"demo": "s1", "demo2": "s2"}, "serves": serves,
            },
        }
        path = os.path.join(work, f"{name}.json")
        with open(path, "w") as f:
            json.dump(config, f)
        self.log_path = os.path.join(work, f"{name}.log")
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen([daemon, "--config", path], stdout=self.log, stderr=subprocess.STDOUT)
        peers.wait_log(self.log_path, "listening on", self.proc)

    @property
    def url(self):
        return f"ws://127.0.0.1:{self.port}/"

    def cpu_seconds(self):
        return peers.cpu_seconds(self.proc.pid)

    def stop(self):
        peers.stop_process(self.proc, self.log)


NEXT_ID = [0]


async def request(ws, message):
    """Sends `message` with a fresh id and returns the reply with that id (others are dropped)."""
    NEXT_ID[0] += 1
    number = NEXT_ID[0]
    await ws.send(json.dumps(dict(message, id=number)))
    while True:
        reply = json.loads(await ws.recv())
        if reply.get("id") == number:
            return reply


async def hello(url):
    ws = await websockets.connect(url, subprotocols=["rivesync.v1"], max_size=None)
    await request(ws, {"type": "hello", "protocol": [1]})
    return ws


async def drain(ws, counter):
    try:
        async for _ in ws:
            counter[0] += 1
    except websockets.ConnectionClosed:
        pass


async def rooms_load(node, file, prefix, rooms, members, rate, seconds):
    """Creates `rooms` targets of `file` on `node`, `members` subscribers each, then one writer
    per room sets its title `rate` times a second for `seconds`. Returns (acked sets, deliveries)."""
    admin = await hello(node.url)
    for r in range(rooms):
        reply = await request(admin, {"type": "createStateMachine", "file": file, "name": f"{prefix}-{r}", "artboard": "Lobby",
                                      "stateMachine": "lobby"})
        if reply.get("type") == "error":
            raise RuntimeError(f"create {prefix}-{r}: {reply}")
    delivered = [0]
    readers = []
    for r in range(rooms):
        for _ in range(members):
            ws = await hello(node.url)
            await request(ws, {"type": "subscribe", "target": f"{prefix}-{r}"})
            readers.append((ws, asyncio.ensure_future(drain(ws, delivered))))
    acked = [0]

    async def writer(r):
        ws = await hello(node.url)
        end = time.monotonic() + seconds
        n = 0
        while time.monotonic() < end:
            n += 1
            reply = await request(ws, {"type": "set", "target": f"{prefix}-{r}", "path": "title", "value": f"t{n}"})
            acked[0] += reply.get("type") == "ack"
            await asyncio.sleep(1 / rate)
        await ws.close()

    await asyncio.gather(*(writer(r) for r in range(rooms)))
    await asyncio.sleep(0.5)
    for ws, task in readers:
        await ws.close()
        task.cancel()
    await admin.close()
    return acked[0], delivered[0]


def measure(processes, body):
    """Runs `body` and returns (its result, CPU seconds of each process over it, wall seconds)."""
    before = [p.cpu_seconds() for p in processes]
    start = time.monotonic()
    result = body()
    wall = time.monotonic() - start
    return result, [p.cpu_seconds() - b for p, b in zip(processes, before)], wall


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--daemon", default=os.path.join(ROOT, ".build", "release", "rivesyncd"))
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--members", type=int, default=4)
    parser.add_argument("--rate", type=float, default=10)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--requests", type=int, default=100000)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}; redis {cluster.redis_version()}")
    work = tempfile.mkdtemp(prefix="shards-bench-")

    print("\n1. entries/s of the append script on one Redis (redis-benchmark)")
    for appendfsync in ("always", "everysec"):
        for clients, pipeline in ((4, 64), (1, 1)):
            directory = os.path.join(work, f"cap-{appendfsync}-{clients}-{pipeline}")
            os.makedirs(directory)
            rate, cpu, entries = append_capacity(directory, appendfsync,
                                                 clients, pipeline, args.requests if pipeline > 1 else args.requests // 10)
            print(f"  appendfsync {appendfsync:8} clients {clients} pipeline {pipeline:2}: {rate:9.0f} entries/s, "
                  f"Redis CPU {cpu:5.1f} µs/entry ({entries} entries)")

    for directory in ("r1", "r2"):
        os.makedirs(os.path.join(work, directory))
    redis = [cluster.Redis(os.path.join(work, "r1"), 0, "always"), cluster.Redis(os.path.join(work, "r2"), 1, "always")]
    nodes = []
    try:
        nodes = [Node(args.daemon, work, "a", redis, ["s1"]), Node(args.daemon, work, "b", redis, ["s2"])]
        a, b = nodes
        shape = f"{args.rooms} rooms × {args.members} subscribers, {args.rate}/s sets per room, {args.seconds} s"

        print(f"\n2. rooms on shard s1 only (through node A), {shape}")
        (acked, delivered), cpu, wall = measure(
            [a, b, redis[0], redis[1]],
            lambda: asyncio.run(rooms_load(a, "demo", "one", args.rooms, args.members, args.rate, args.seconds)))
        print(f"  {acked} sets acked ({acked / wall:.0f}/s), {delivered} deliveries")
        print(f"  node A (s1): {cpu[0] * 1e6 / max(1, acked):7.1f} µs CPU per set ({cpu[0]:.2f} s)")
        print(f"  node B (s2): {cpu[1] * 1e6 / max(1, acked):7.1f} µs CPU per s1 set ({cpu[1]:.3f} s over {wall:.1f} s)")
        print(f"  Redis s1: {cpu[2] * 1e6 / max(1, acked):7.1f} µs per set; Redis s2: {cpu[3]:.3f} s")

        print(f"\n3. rooms on both shards at once (s1 through A, s2 through B), {shape} each")

        async def both():
            return await asyncio.gather(
                rooms_load(a, "demo", "both", args.rooms, args.members, args.rate, args.seconds),
                rooms_load(b, "demo2", "both2", args.rooms, args.members, args.rate, args.seconds))

        ((acked1, d1), (acked2, d2)), cpu, wall = measure([a, b, redis[0], redis[1]], lambda: asyncio.run(both()))
        for shard, node, acked, delivered, node_cpu, redis_cpu in (
                ("s1", "A", acked1, d1, cpu[0], cpu[2]), ("s2", "B", acked2, d2, cpu[1], cpu[3])):
            print(f"  {shard}: {acked / wall:6.0f} sets/s acked, {delivered} deliveries; node {node} "
                  f"{node_cpu * 1e6 / max(1, acked):7.1f} µs CPU per set; Redis {redis_cpu * 1e6 / max(1, acked):6.1f} µs per set")
    finally:
        for node in nodes:
            node.stop()
        for server in redis:
            server.stop()
    print(f"\nload average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
