"""The cluster systems of bench/run.py (issue 12, protocol/CLUSTER.md §4): rivesyncd alone,
one node on Redis, three nodes on one Redis, for the fan-out and rooms workloads.

Each run starts its own redis-server (Debian `redis-server`, on a free loopback port, its own
directory inside the run's temporary directory, `--appendonly yes --appendfsync <policy>`,
no RDB saves) and stops it after. Three nodes share one port (`listen.sharePort`, SO_REUSEPORT):
the kernel spreads the generator's connections over them, so a room's clients and a fan-out's
subscribers land on every node, and the writer on any one. Nodes and redis-server are pinned
together (`--server-cores`, default core 0), the generator stays on core 1.
"""

import os
import subprocess
import time

import peers

# Label -> (nodes, Redis appendfsync policy or None for no Redis). Every node has one worker
# (a cluster node always does, CLUSTER.md §2.2), rivesync-1 too, so the rows differ only by
# the Redis hop and the node count.
SYSTEMS = {
    "rivesync-1": (1, None),
    "rivesync-1r": (1, "always"),
    "rivesync-3r": (3, "always"),
    "rivesync-1r-everysec": (1, "everysec"),
    "rivesync-3r-everysec": (3, "everysec"),
}
REDIS = "/usr/bin/redis-server"
PREFIX = "bench"


class Redis:
    """A redis-server of one run: free loopback port, own directory, AOF with `appendfsync`."""

    def __init__(self, work_dir, core, appendfsync):
        if not os.path.exists(REDIS):
            raise RuntimeError("redis-server is not installed (apt-get install redis-server; .ci/setup.sh has it)")
        self.directory = os.path.join(work_dir, "redis")
        os.makedirs(self.directory)
        self.log_path = os.path.join(self.directory, "redis.log")
        error = None
        for _ in range(3):  # a port free a moment ago may be taken when Redis binds it
            self.port = peers.free_port()
            self.log = open(self.log_path, "w")
            self.proc = subprocess.Popen(
                ["taskset", "-c", str(core), REDIS, "--port", str(self.port), "--bind", "127.0.0.1",
                 "--dir", self.directory, "--appendonly", "yes", "--appendfsync", appendfsync, "--save", "",
                 "--daemonize", "no", "--protected-mode", "yes", "--logfile", ""],
                stdout=self.log, stderr=subprocess.STDOUT)
            try:
                peers.wait_log(self.log_path, "Ready to accept connections", self.proc, timeout=20)
                return
            except RuntimeError as e:
                error = e
                self.stop()
        raise RuntimeError(f"redis-server did not start: {error}")

    @property
    def url(self):
        return f"redis://127.0.0.1:{self.port}"

    def cpu_seconds(self):
        return peers.cpu_seconds(self.proc.pid)

    def stream_entries(self):
        """XLEN of the cluster's log (every record appended so far), or None."""
        done = subprocess.run(["redis-cli", "-p", str(self.port), "XLEN", f"{PREFIX}:log"], capture_output=True,
                              text=True, timeout=10)
        return int(done.stdout) if done.returncode == 0 and done.stdout.strip().isdigit() else None

    def stop(self):
        peers.stop_process(self.proc, self.log)


def redis_version():
    """redis-server's version (`7.0.15`), or `?`."""
    try:
        out = subprocess.run([REDIS, "--version"], capture_output=True, text=True, timeout=10).stdout
    except OSError:
        return "?"
    return next((w[2:] for w in out.split() if w.startswith("v=")), "?")


def fsync_latency(directory, samples=200):
    """(p50, p99) ms of fsync after a 200-byte append in `directory`: what `appendfsync always`
    pays per write on this disk (the run's conditions state it)."""
    path = os.path.join(directory, "fsync-probe")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    times = []
    try:
        for _ in range(samples):
            os.write(fd, b"x" * 200)
            start = time.perf_counter()
            os.fsync(fd)
            times.append((time.perf_counter() - start) * 1000)
    finally:
        os.close(fd)
        os.remove(path)
    times.sort()
    return times[len(times) // 2], times[min(len(times) - 1, int(len(times) * 0.99))]


def sockets(pid):
    """Open sockets of process `pid` (its connections, listeners and Redis links)."""
    count = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            count += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
        except OSError:  # closed meanwhile
            pass
    return count


class Cluster:
    """The servers of one cluster system: redis-server (unless rivesync-1) and the nodes, with
    the interface of peers.Server (url, batches, cpu_seconds = nodes + redis, schedstat,
    memory_kb = the nodes') plus per-node and Redis readings."""

    def __init__(self, system, daemon_dir, work_dir, cores, rate, room_files=0):
        count, appendfsync = SYSTEMS[system]
        self.redis = Redis(work_dir, cores, appendfsync) if appendfsync else None
        self.nodes = []
        try:
            port = peers.free_port()
            for i in range(count):
                directory = os.path.join(work_dir, f"node{i}")
                os.makedirs(directory)
                settings = {"redis": self.redis.url, "node": f"bench-{i}", "prefix": PREFIX} if self.redis else None
                self.nodes.append(peers.Server("rivesync", daemon_dir, directory, core=cores, rate=rate, workers=1,
                                               room_files=room_files, port=port, cluster=settings,
                                               share_port=count > 1))
        except BaseException:
            self.stop()
            raise
        self.port = port
        self.baseline_sockets = [sockets(n.proc.pid) for n in self.nodes]

    def url(self, peer):
        return f"ws://127.0.0.1:{self.port}/"

    def batches(self, timeout=5):
        """batches_total of the node that answers (every node applies every batch)."""
        return self.nodes[0].batches(timeout)

    def settle(self):
        """Waits until the stream has not grown for half a second, then half a second more, so
        that every node has applied what one node created (rooms) before clients subscribe on
        any of them."""
        if not self.redis or len(self.nodes) == 1:
            return
        last, stable_since = None, time.time()
        while time.time() - stable_since < 0.5:
            entries = self.redis.stream_entries()
            if entries != last:
                last, stable_since = entries, time.time()
            time.sleep(0.1)
        time.sleep(0.5)

    def readings(self):
        """Cumulative readings: CPU seconds per node and of redis-server, the stream's entries."""
        return {"nodes": [n.cpu_seconds() for n in self.nodes],
                "redis": self.redis.cpu_seconds() if self.redis else 0.0,
                "entries": (self.redis.stream_entries() or 0) if self.redis else 0}

    def connections(self):
        """Sockets each node opened since it started: the generator's connections on it."""
        return [sockets(n.proc.pid) - base for n, base in zip(self.nodes, self.baseline_sockets)]

    def cpu_seconds(self):
        r = self.readings()
        return sum(r["nodes"]) + r["redis"]

    def schedstat(self):
        pids = [n.proc.pid for n in self.nodes] + ([self.redis.proc.pid] if self.redis else [])
        stats = [peers.schedstat(pid) for pid in pids]
        return sum(s[0] for s in stats), sum(s[1] for s in stats)

    def memory_kb(self):
        readings = [n.memory_kb() for n in self.nodes]
        return sum(r[0] for r in readings), sum(r[1] for r in readings)

    def stop(self):
        for node in self.nodes:
            node.stop()
        if self.redis:
            self.redis.stop()


def figures(before, after, connections, sent, received, duration):
    """The cluster columns of one run's row from two readings (before GO, after the drain)."""
    nodes = [b - a for a, b in zip(before["nodes"], after["nodes"])]
    redis = after["redis"] - before["redis"]
    entries = after["entries"] - before["entries"]
    row = {"nodes": len(nodes), "node_cpu_s": " ".join(f"{c:.2f}" for c in nodes),
           "nodes_cpu_s": round(sum(nodes), 2), "redis_cpu_s": round(redis, 2),
           "node_connections": " ".join(map(str, connections)),
           "stream_entries_per_s": round(entries / duration, 1)}
    if sent:
        row["nodes_us_per_update"] = round(sum(nodes) * 1e6 / sent, 2)
        row["max_node_us_per_update"] = round(max(nodes) * 1e6 / sent, 2)
        row["redis_us_per_update"] = round(redis * 1e6 / sent, 2)
        row["cluster_us_per_update"] = round((sum(nodes) + redis) * 1e6 / sent, 2)
    if entries:
        row["redis_us_per_entry"] = round(redis * 1e6 / entries, 2)
    if received:
        row["cluster_us_per_delivery"] = round((sum(nodes) + redis) * 1e6 / received, 3)
    return row


NUMERIC = ["nodes", "nodes_cpu_s", "redis_cpu_s", "stream_entries_per_s", "nodes_us_per_update",
           "max_node_us_per_update", "redis_us_per_update", "cluster_us_per_update", "redis_us_per_entry",
           "cluster_us_per_delivery"]
TEXT = ["node_cpu_s", "node_connections"]


def markdown(median_rows, fmt):
    """The cluster table and the cost of the Redis hop, or no lines."""
    rows = [r for r in median_rows if r["system"] in SYSTEMS]
    if not rows:
        return []
    order = list(SYSTEMS)
    daemons = list(dict.fromkeys(r.get("daemon", "") for r in rows))
    key = (lambda r: (r["workload"], r["N"], r["R"], r.get("room_rate") or 0, daemons.index(r.get("daemon", "")),
                      order.index(r["system"])))
    lines = ["## Cluster: one node, one node + Redis, three nodes + Redis (medians)", "",
             "`N` is subscribers (fanout) or rooms (rooms: 8 clients each, each writing `R/s` sets/s). "
             "`sent/s` = updates (sets) written per second. Latency: write → each subscriber, as measured "
             "(it includes the wait for the target's next advance). CPU per update = CPU seconds over the "
             "send window and drain ÷ updates sent: `nodes` sums every node, `max node` is the busiest, "
             "`redis` is redis-server, `total` = nodes + redis; `µs/delivery` = total ÷ records received. "
             "`entries/s` = records appended to the cluster's stream (one per advance). `node CPU s` and "
             "`connections` list each node (the kernel spreads connections over nodes sharing a port).", "",
             "| workload | system | daemon | N | R/s | sent/s | delivered/s | p50 ms | p99 ms | lost | node CPU s | "
             "redis CPU s | µs/update nodes | max node | redis | total | µs/delivery | entries/s | redis µs/entry | "
             "connections | gen CPU % |",
             "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|"]
    for r in sorted(rows, key=key):
        lines.append("| " + " | ".join([
            r["workload"], r["system"], f"`{r.get('daemon', '')}`", fmt(r["N"]), fmt(r["R"]),
            fmt(int(r.get("sent_per_s", 0))), fmt(int(r.get("delivered_per_s", 0))), fmt(r.get("p50_ms")),
            fmt(r.get("p99_ms")), fmt(int(r.get("lost", 0))), str(r.get("node_cpu_s") or "–"), fmt(r.get("redis_cpu_s")),
            fmt(r.get("nodes_us_per_update")), fmt(r.get("max_node_us_per_update")), fmt(r.get("redis_us_per_update")),
            fmt(r.get("cluster_us_per_update")), fmt(r.get("cluster_us_per_delivery"), 3),
            fmt(r.get("stream_entries_per_s"), 0), fmt(r.get("redis_us_per_entry")), str(r.get("node_connections") or "–"),
            fmt(r.get("gen_cpu_pct"), 0)]) + " |")
    lines += [""] + hop_costs(rows, fmt)
    return lines


def hop_costs(rows, fmt):
    """Differences of the medians, per workload cell and daemon: 1r − 1 (the Redis hop) and
    3r − 1r (two more replicas on the same cores)."""
    by = {(r["workload"], r["N"], r["R"], r.get("room_rate"), r.get("daemon", ""), r["system"]): r for r in rows}
    pairs = [("rivesync-1r", "rivesync-1"), ("rivesync-1r-everysec", "rivesync-1"), ("rivesync-3r", "rivesync-1r"),
             ("rivesync-3r-everysec", "rivesync-1r-everysec")]
    out = []
    for (workload, n, rate, room_rate, daemon, system), r in sorted(by.items(), key=lambda kv: tuple(map(str, kv[0]))):
        for a, b in pairs:
            if system != a or (workload, n, rate, room_rate, daemon, b) not in by:
                continue
            base = by[(workload, n, rate, room_rate, daemon, b)]

            def delta(column, digits=2):
                if r.get(column) in (None, "") or base.get(column) in (None, ""):
                    return "–"
                return f"{r[column] - base[column]:+,.{digits}f}"

            out.append("| " + " | ".join([workload, fmt(n), fmt(rate), f"`{daemon}`", f"{a} − {b}",
                                          delta("p50_ms"), delta("p99_ms"), delta("cluster_us_per_update"),
                                          delta("max_node_us_per_update")]) + " |")
    if not out:
        return []
    return ["### The cost of the Redis hop and of more nodes (differences of the medians above)", "",
            "`p50` / `p99`: added write → subscriber latency in ms (1 ms = 1,000 µs). `CPU µs/update`: added CPU "
            "per update, all processes (nodes + redis-server); `max node`: added CPU per update of the busiest node.",
            "", "| workload | N | R/s | daemon | systems | Δ p50 ms | Δ p99 ms | Δ CPU µs/update (total) | "
            "Δ CPU µs/update (max node) |", "|---|---:|---:|---|---|---:|---:|---:|---:|"] + out + [""]
