"""The rooms workload of bench/run.py (issue 11): the multiplayer-preview shape on rivesyncd.

ROOMS state machines of the rooms schema (peers/rooms.schema.json), created over the protocol
at the start of each run; CLIENTS connections per room, each subscribed to its room (whole
target) and writing CLIENT_RATE sets/s to its own property `client<k>`, so nothing coalesces.
Every set reaches the CLIENTS subscribers of its room (its writer too). Runs on a fresh daemon
per run, once per daemon (BENCH_REV list) and worker count, alternating daemons, and once on
the rooms floor (FLOOR: bench/rooms-floor, a minimal C epoll server speaking the same subset of
the protocol to the same generator); or, with cluster systems in --systems (bench/cluster.py),
once per daemon and cluster system.
"""

import os
import subprocess
import tempfile
import time

import cluster
import generator
import peers
import quota

# The rooms floor's system label: bench-rooms-floor, built beside bench-load.
FLOOR = "rooms-floor"
# --room-files: the daemon's system label and room file for each kind of room.
ROOM_FILES = {"schema": ("rivesync-rooms", "rooms.schema.json"), "riv": ("rivesync-rooms-riv", "rooms.riv")}


def add_arguments(p):
    p.add_argument("--rooms", default="100,1000",
                   help="rooms (state machines) of the rooms workload; a comma list runs each")
    p.add_argument("--clients-per-room", type=int, default=8, help="clients per room, each subscribing and writing")
    p.add_argument("--client-rate", type=float, default=10, help="sets/s of each room client")
    p.add_argument("--room-rates", default="60",
                   help="advances/s at most of each room (createStateMachine rate; a comma list runs each)")
    p.add_argument("--room-workers", default="1,2", help="rivesyncd worker counts to compare")
    p.add_argument("--server-cores", default="0",
                   help="taskset CPU list of rivesyncd in the rooms workload, and of every node and redis-server "
                        "of the cluster systems (bench-load on --generator-cores). Several lists separated by / (e.g. "
                        "0/0,1) compare core counts in one run: each rooms cell runs each daemon on each list in "
                        "turn, with one transport thread and one worker per core of the list (--room-workers is "
                        "then not used), the floor on the first list, and results.md compares each list's CPU "
                        "per set with the first's, repetition by repetition")
    p.add_argument("--server-quota", type=float,
                   help="percent of one CPU the floor and rivesyncd may use in the rooms workload (a cgroup v1 cpu "
                        "quota per --quota-period-ms; bench/quota.py): room counts compared at the same fraction "
                        "of a core while bench-load keeps a whole one")
    p.add_argument("--quota-period-ms", type=float, default=10, help="the quota's period (CFS bandwidth)")
    p.add_argument("--rooms-per-process", type=int, default=125, help="rooms per bench-load process")
    p.add_argument("--no-room-hint", action="store_true",
                   help="room clients leave their room out of their URL (by default each connects to "
                        "/?target=room-<i>, so a daemon with several transport threads serves it on its room's thread)")
    p.add_argument("--room-files", default="schema",
                   help="what each room's state machine comes from, a comma list runs each: schema (peers/"
                        "rooms.schema.json: the view model, a state machine it only names: a set changes the value) "
                        "or riv (peers/rooms.riv, a real .riv: its state machine's listener on the client's property "
                        "fires the event `wrote` in the set's advance)")


def core_sets(args):
    """The CPU lists of --server-cores (one, or several separated by /)."""
    return args.server_cores.split("/")


def threads_of(cores):
    """Transport threads (and workers) for a daemon on CPU list `cores` when core counts are
    compared: one per core (`0,1` and `0-1` are two)."""
    count = 0
    for part in cores.split(","):
        first, _, last = part.partition("-")
        count += int(last or first) - int(first) + 1
    return count


def plan(args, daemons, rep, cluster_systems=()):
    """The rooms jobs of one repetition: (workload, system, N, R, rep, daemon, workers,
    room rate, cores) for every room count, room rate and worker count, daemons alternating,
    after the floor's run of the same cell; with several --server-cores lists, for each list
    (one worker per core) instead of each worker count; with `cluster_systems`, for each of them
    instead of each worker count (a node has 1 worker) and no floor."""
    sets = core_sets(args)
    if cluster_systems:
        if len(sets) > 1:
            raise SystemExit("--server-cores lists several core sets: the cluster systems take one")
        return [("rooms", system, int(n), int(args.client_rate), rep, label, 1, int(rate), sets[0])
                for n in args.rooms.split(",") for rate in args.room_rates.split(",")
                for system in cluster_systems for label, _ in daemons]
    daemon_runs = ([(cores, threads_of(cores)) for cores in sets] if len(sets) > 1
                   else [(sets[0], int(workers)) for workers in args.room_workers.split(",")])
    return [job for n in args.rooms.split(",") for rate in args.room_rates.split(",")
            for job in [("rooms", FLOOR, int(n), int(args.client_rate), rep, "", 1, int(rate), sets[0])]
            + [("rooms", ROOM_FILES[kind][0], int(n), int(args.client_rate), rep, label, workers, int(rate), cores)
               for kind in args.room_files.split(",") for cores, workers in daemon_runs
               for label, _ in daemons]]


def create_rooms(args, url, count, room_rate):
    """Creates `count` rooms over the protocol (one bench-load connection); returns its seconds."""
    cmd = ["taskset", "-c", args.generator_cores, os.path.join(args.build_dir, "bench-load"), "--peer", "rivesync", "--url", url,
           "--create-rooms", "--rooms", str(count), "--files", "rooms-0,rooms-1", "--room-rate", str(room_rate)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=400)
    lines = [line for line in done.stdout.splitlines() if line.startswith("CREATED ")]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"creating rooms failed ({done.returncode}): {done.stderr.strip()[-300:]}")
    return float(lines[0].split()[2])


def run(args, daemon_dir, count, workers, room_rate, system="rivesync-rooms", cores=None):
    """One timed run of `count` rooms on a fresh daemon with `workers` workers (or a cluster
    system's fresh nodes and redis-server) on CPU list `cores` (default --server-cores), rooms
    advancing at most `room_rate`/s; returns the row's figures. When --server-cores compares
    core sets, the daemon gets a transport thread per worker."""
    cores = cores or args.server_cores
    threads = workers if len(core_sets(args)) > 1 else None
    drain = 2.0
    clients = args.clients_per_room
    with tempfile.TemporaryDirectory(prefix="rivesync-bench-") as work:
        limit = None
        if args.server_quota and system not in cluster.SYSTEMS:
            limit = quota.Quota(system, args.server_quota, args.quota_period_ms)
        if system in cluster.SYSTEMS:
            server = cluster.Cluster(system, daemon_dir, work, cores, rate=None, room_files=2)
        elif system == FLOOR:
            server = peers.Server(FLOOR, args.build_dir, work, core=cores, rate=None, quota=limit)
        else:
            room_file = next(file for label, file in ROOM_FILES.values() if label == system)
            server = peers.Server("rivesync", daemon_dir, work, core=cores, rate=None, workers=workers,
                                  room_files=2, room_file=room_file, quota=limit, threads=threads)
        gen = None
        try:
            time.sleep(0.5)
            rss_start = server.memory_kb()[0]
            create_s = create_rooms(args, server.url("rivesync"), count, room_rate)
            if system in cluster.SYSTEMS:
                server.settle()  # the rooms were created through one node: every node applies them first
            rss_rooms = server.memory_kb()[0]
            procs, first = [], 0
            for rooms in generator.split(count, args.rooms_per_process):
                procs.append(["--rooms", str(rooms), "--first-room", str(first), "--clients-per-room", str(clients),
                              "--rate", str(rooms * clients * args.client_rate), "--duration", str(args.duration),
                              "--drain", str(drain)] + (["--no-room-hint"] if args.no_room_hint else []))
                first += rooms
            gen = generator.Generator(os.path.join(args.build_dir, "bench-load"), args.generator_cores, "rivesync",
                                      server.url("rivesync"), procs)
            ready, total = gen.ready_counts(timeout=400)
            rss_ready = server.memory_kb()[0]
            batches0, cpu0, sched0 = server.batches(timeout=30), server.cpu_seconds(), server.schedstat()
            throttled0 = limit.throttled() if limit else None
            before = server.readings() if system in cluster.SYSTEMS else None
            connections = server.connections() if before else None  # while every client is connected
            gen.go(time.monotonic_ns() + 300_000_000)
            results = gen.results(timeout=args.duration + drain + 120)
            after = server.readings() if before else None
            row = {"ready": ready, "connections": total, "create_s": round(create_s, 2),
                   **generator.merge(results, clients, args.duration),
                   "server_cpu_s": round(server.cpu_seconds() - cpu0, 2),
                   "server_wait_s": round(server.schedstat()[1] - sched0[1], 2),
                   "rss_rooms_mb": round((rss_rooms - rss_start) / 1024, 1),
                   "rss_clients_mb": round((rss_ready - rss_rooms) / 1024, 1),
                   "server_peak_rss_mb": round(server.memory_kb()[1] / 1024, 1)}
            if limit:
                periods, seconds = limit.throttled()
                row["server_quota_pct"] = args.server_quota
                row["throttled_s"] = round(seconds - throttled0[1], 2)
                row["throttled_periods"] = periods - throttled0[0]
            row["sent_per_s"] = round(row["sent"] / args.duration)
            if row["sent"]:
                row["server_us_per_update"] = round(row["server_cpu_s"] * 1e6 / row["sent"], 2)
            if row["received"]:
                row["server_us_per_delivery"] = round(row["server_cpu_s"] * 1e6 / row["received"], 2)
            if before:
                row.update(cluster.figures(before, after, connections, row["sent"], row["received"],
                                           args.duration))
            try:  # an overloaded daemon answers /metrics late (its HTTP shares the lws thread)
                batches1 = server.batches(timeout=30)
                if batches1 is not None:  # the floor has no /metrics
                    row["batches_per_s"] = round((batches1 - batches0) / args.duration, 1)
                if batches1 is not None and system not in cluster.SYSTEMS:
                    # connections the listening thread placed on their room's thread (0 with one thread)
                    row["steered"] = server.metric("rivesync_transport_connections_steered_total", timeout=30)
            except OSError as error:
                row["errors"] = (row["errors"] + "; " if row["errors"] else "") + f"/metrics after the run: {error}"
            return row
        finally:
            if gen:
                gen.stop()
            server.stop()


def markdown(median_rows, fmt):
    """The rooms table (one row per daemon, worker count and room rate), or no lines."""
    rows = [r for r in median_rows if r["workload"] == "rooms" and r["system"] not in cluster.SYSTEMS]
    if not rows:
        return []
    lines = ["## Rooms (medians)", "",
             "`rooms` state machines × 8 clients, each client subscribed to its whole room and writing "
             "`R/s` sets/s to its own property at its own fixed phase; every set is delivered to the 8 "
             "subscribers of its room (its writer too). Latency is the writer's send → each subscriber's "
             "receive, as measured: it includes the wait for the room's next advance (an auto target "
             "advances at once when it has been idle for an interval, else at the interval's end: up to "
             "1/`adv/s`, 16.7 ms at 60/s). `lost` = sent × 8 − received; `gaps` are sets never seen by a "
             "subscriber because a later set of the same client reached it first (coalesced in one "
             "advance). `µs/update` = server CPU ÷ sets sent, `µs/delivery` ÷ records received. RSS: "
             "growth with the rooms created (`rooms MB`), then with the clients connected and subscribed "
             "(`clients MB`), and the peak. `create s`: creating all rooms over one connection. `wait s`: "
             "time the server's threads were runnable but waiting for a CPU (`/proc/PID/task/*/schedstat`, "
             "over the same span as server CPU): other load on its core, near 0 on a quiet machine. "
             "`throttled s`: with `--server-quota`, time the server's quota held it off its CPU (cpu.stat). "
             "`.riv`: the rooms are state machines of peers/rooms.riv (`--room-files riv`), whose listener on "
             "each client's property fires an event in the set's advance. "
             f"`{FLOOR}`: the rooms floor (bench/rooms-floor), a minimal C epoll server speaking the same "
             "requests in the same wire format, a batch per set (no advances, no coalescing), on the same core.", "",
             "| daemon | workers | adv/s | rooms | R/s | sent/s | delivered/s | p50 ms | p99 ms | max ms | lost | "
             "gaps | server CPU s | wait s | throttled s | µs/update | µs/delivery | batches/s | rooms MB | clients MB | peak RSS MB | "
             "gen CPU % | create s |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    order = {label: i for i, label in enumerate(dict.fromkeys(r.get("daemon", "") for r in rows))}
    sets = {str(r.get("cores")) for r in rows if r["system"] != FLOOR and r.get("cores") not in (None, "")}
    def place(r):  # the floor first in each cell, then the schema's rooms, then the .riv's
        floor = r["system"] == FLOOR
        return (r.get("room_rate") or 0, r["N"], not floor, r["system"], r.get("workers") or 0, str(r.get("cores")),
                order[r.get("daemon", "")])
    def on_cores(r):  # with several core sets, each daemon row says its own
        return f" on {r['cores']}" if len(sets) > 1 and r["system"] != FLOOR else ""

    for r in sorted(rows, key=place):
        lines.append("| " + " | ".join([
            FLOOR if r["system"] == FLOOR else f"`{r.get('daemon', '')}`" + (" .riv" if r["system"] == ROOM_FILES["riv"][0] else "")
            + on_cores(r),
            "–" if r["system"] == FLOOR else fmt(r.get("workers")),
            "–" if r["system"] == FLOOR else fmt(r.get("room_rate")), fmt(r["N"]), fmt(r["R"]),
            fmt(int(r.get("sent_per_s", 0))), fmt(int(r.get("delivered_per_s", 0))), fmt(r.get("p50_ms")),
            fmt(r.get("p99_ms")), fmt(r.get("max_ms")), fmt(int(r.get("lost", 0))), fmt(int(r.get("gaps", 0))),
            fmt(r.get("server_cpu_s")), fmt(r.get("server_wait_s")), fmt(r.get("throttled_s")), fmt(r.get("server_us_per_update")), fmt(r.get("server_us_per_delivery")),
            fmt(r.get("batches_per_s"), 0), fmt(r.get("rss_rooms_mb"), 1), fmt(r.get("rss_clients_mb"), 1),
            fmt(r.get("server_peak_rss_mb"), 1), fmt(r.get("gen_cpu_pct"), 0), fmt(r.get("create_s"))]) + " |")
    return lines + [""]
