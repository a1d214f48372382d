#!/usr/bin/env python3
"""Side-by-side WebSocket fan-out benchmark: rivesyncd vs Mosquitto, y-websocket and the
libwebsockets mirror floor, on loopback, server pinned to core 0 and bench-load to core 1 (--generator-cores);
the rooms workload (rivesyncd beside the rooms floor, bench/rooms.py); and rivesyncd's cluster systems on Redis
for both (bench/cluster.py: rivesync-1, rivesync-1r, rivesync-3r).

Usage: bench/run.sh [--quick] [options]  (bench/run.sh builds, then runs this; --help lists options)
Writes CSV, Markdown and a PNG plot to bench/results/ (bench/results/quick/ with --quick).
"""

import argparse
import datetime
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster  # noqa: E402
import generator  # noqa: E402
import peers  # noqa: E402
import report  # noqa: E402
import rooms  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ENGINES = {"raw": "raw-socket epoll engine", "lws": "libwebsockets client"}
# Every system: the peers' side-by-side ones and the cluster's (rivesyncd with distinct paths,
# as rivesync-every: nothing coalesces).
SYSTEMS = {**peers.SYSTEMS, **{name: ("rivesync", "rivesync", 256) for name in cluster.SYSTEMS}}


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="smoke run: 3 s, 1 rep, small matrix")
    p.add_argument("--duration", type=float, help="seconds of sending per run (default 20; quick 3)")
    p.add_argument("--reps", type=int, help="repetitions per configuration, medians reported (default 3; quick 1)")
    p.add_argument("--systems", default=",".join(peers.SYSTEMS), help="comma list of " + ",".join(SYSTEMS) +
                   " (default: the side-by-side ones; the rivesync-1/1r/3r cluster systems run fanout and rooms)")
    p.add_argument("--workloads", default="fanout,connections,writers", help="comma list of fanout,connections,writers,rooms")
    p.add_argument("--fanout-n", help="subscriber counts (default 100,500,1000; quick 100,1000)")
    p.add_argument("--fanout-r", help="updates/s (default 100,1000,10000; quick 100,1000)")
    p.add_argument("--max-deliveries", type=float, default=1e6,
                   help="skip fan-out cells with N*R above this (the raw engine tops out near 1 M/s, lws at 0.5-0.75 M/s)")
    p.add_argument("--connections", help="idle connection counts (default 1000,5000,10000; quick 1000)")
    p.add_argument("--writers", type=int, default=16)
    p.add_argument("--writer-subscribers", type=int, help="subscribers of the many-writers run (default 500; quick 100)")
    p.add_argument("--writer-rate", type=float, default=4000, help="total updates/s of the many-writers workload")
    p.add_argument("--advance-rate", type=float, default=1000, help="rivesyncd state machine advances/s (max 1000)")
    p.add_argument("--subs-per-process", type=int, default=500)
    p.add_argument("--engine", choices=("raw", "lws"), default="raw",
                   help="bench-load subscriber engine: raw sockets + epoll (default) or the libwebsockets client")
    p.add_argument("--build-dir", default="/tmp/build-bench/release", help="where bench-load is")
    p.add_argument("--generator-cores", default="1",
                   help="taskset CPU list of bench-load (default 1; on a larger machine, cores the server does not use)")
    p.add_argument("--daemon-dir", help="where rivesyncd is (default: --build-dir)")
    p.add_argument("--daemon", action="append", metavar="LABEL=DIR",
                   help="a rivesyncd to measure, named LABEL (repeat to compare; bench/run.sh passes one per BENCH_REV)")
    rooms.add_arguments(p)
    p.add_argument("--out", default=None, help="output directory (default results/, results/quick/ with --quick; "
                                               "results/rooms/ or results/rooms-quick/ for --workloads rooms)")
    p.add_argument("--rerender", action="store_true", help="only rebuild medians, Markdown and plot from OUT/runs.csv")
    p.add_argument("--dry-run", action="store_true", help="only print the runs the options plan, then exit")
    args = p.parse_args()
    unknown = [s for s in args.systems.split(",") if s and s not in SYSTEMS]
    if unknown:
        p.error(f"unknown systems {','.join(unknown)}; known: {','.join(SYSTEMS)}")
    defaults = ({"duration": 3.0, "reps": 1, "fanout_n": "100,1000", "fanout_r": "100,1000", "connections": "1000",
                 "writer_subscribers": 100} if args.quick else
                {"duration": 20.0, "reps": 3, "fanout_n": "100,500,1000", "fanout_r": "100,1000,10000",
                 "connections": "1000,5000,10000", "writer_subscribers": 500})
    for name, value in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    args.daemon_dir = args.daemon_dir or args.build_dir
    subdir = "quick" if args.quick else ""
    if args.workloads == "rooms":
        subdir = "rooms-quick" if args.quick else "rooms"
    if all(s in cluster.SYSTEMS for s in args.systems.split(",") if s):
        subdir = "cluster-quick" if args.quick else "cluster"
    args.out = args.out or os.path.join(HERE, "results", subdir)
    return args


def daemons(args):
    """[(label, directory)] of the rivesyncd builds to measure."""
    if args.daemon:
        return [tuple(item.split("=", 1)) for item in args.daemon]
    commit = subprocess.run(["git", "-C", HERE, "describe", "--always", "--dirty"], capture_output=True,
                            text=True).stdout.strip()
    return [(commit + " (working tree)", args.daemon_dir)]


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def start_server(args, daemon_dir, system, work):
    """The fan-out's server of `system`: one process on core 0, or a cluster system's nodes
    and redis-server on --server-cores."""
    if system in cluster.SYSTEMS:
        return cluster.Cluster(system, daemon_dir, work, args.server_cores, args.advance_rate)
    return peers.Server(SYSTEMS[system][0], daemon_dir, work, core=0, rate=args.advance_rate)


def run_traffic(args, daemon_dir, system, workload, n, rate, writers, rep):
    """One timed run on a fresh server: N subscribers, `writers` writers at `rate` updates/s."""
    kind, peer, paths = SYSTEMS[system]
    drain = 2.0
    with tempfile.TemporaryDirectory(prefix="rivesync-bench-") as work:
        server = start_server(args, daemon_dir, system, work)
        gen = None
        try:
            common = ["--duration", str(args.duration), "--drain", str(drain), "--paths", str(paths), "--engine", args.engine]
            procs = [["--writers", str(writers), "--rate", str(rate), *common]]
            procs += [["--subscribers", str(k), *common] for k in generator.split(n, args.subs_per_process)]
            gen = generator.Generator(os.path.join(args.build_dir, "bench-load"), args.generator_cores, peer,
                                      server.url(peer), procs)
            ready, total = gen.ready_counts(timeout=240)
            batches0, cpu0 = server.batches(), server.cpu_seconds()
            before = server.readings() if isinstance(server, cluster.Cluster) else None
            connections = server.connections() if before else None  # while every client is connected
            gen.go(time.monotonic_ns() + 300_000_000)
            results = gen.results(timeout=args.duration + drain + 120)
            row = {"workload": workload, "system": system, "N": n, "R": int(rate), "rep": rep, "ready": ready,
                   "connections": total, **generator.merge(results, n, args.duration),
                   "server_cpu_s": round(server.cpu_seconds() - cpu0, 2),
                   "server_peak_rss_mb": round(server.memory_kb()[1] / 1024, 1)}
            row["sent_per_s"] = round(row["sent"] / args.duration)
            if before:
                row.update(cluster.figures(before, server.readings(), connections, row["sent"],
                                           row["received"], args.duration))
            if row["received"]:
                row["server_us_per_delivery"] = round(row["server_cpu_s"] * 1e6 / row["received"], 2)
            batches1 = server.batches()
            if batches1 is not None:
                row["batches_per_s"] = round((batches1 - batches0) / args.duration, 1)
            return row
        finally:
            if gen:
                gen.stop()
            server.stop()


def run_connections(args, daemon_dir, system, count, rep):
    """Holds `count` idle subscribed connections; RSS growth per connection."""
    kind, peer, _ = SYSTEMS[system]
    with tempfile.TemporaryDirectory(prefix="rivesync-bench-") as work:
        server = peers.Server(kind, daemon_dir, work, core=0, rate=args.advance_rate)
        gen = None
        try:
            time.sleep(1)
            base = server.memory_kb()[0]
            procs = [["--subscribers", str(k), "--idle", "--engine", args.engine] for k in generator.split(count, 2500)]
            gen = generator.Generator(os.path.join(args.build_dir, "bench-load"), args.generator_cores, peer,
                                      server.url(peer), procs)
            ready, _ = gen.ready_counts(timeout=300)
            time.sleep(2)
            rss, peak = server.memory_kb()
            return {"workload": "connections", "system": system, "N": count, "R": 0, "rep": rep, "ready": ready,
                    "rss_per_conn_kb": round((rss - base) / max(1, ready), 2), "server_peak_rss_mb": round(peak / 1024, 1),
                    "errors": "" if ready == count else f"{count - ready} connections not established"}
        finally:
            if gen:
                gen.stop()
            server.stop()


def plan(args, builds):
    """Jobs: (workload, system, N, R, rep, daemon label or "", rivesyncd workers, rooms' advance
    rate or None, the rooms' CPU list or None). rivesync systems run once per daemon, the peers
    once."""
    systems = [s for s in args.systems.split(",") if s]
    workloads = args.workloads.split(",")
    labels = [label for label, _ in builds]

    def each(workload, system, n, rate, rep):
        if SYSTEMS[system][0] != "rivesync":
            return [(workload, system, n, rate, rep, "", 2, None, None)]
        workers = 1 if system in cluster.SYSTEMS else 2
        return [(workload, system, n, rate, rep, label, workers, None, None) for label in labels]

    jobs = []
    for rep in range(1, args.reps + 1):
        if "fanout" in workloads:
            for n in map(int, args.fanout_n.split(",")):
                for rate in map(float, args.fanout_r.split(",")):
                    if n * rate <= args.max_deliveries:
                        jobs += [job for s in systems for job in each("fanout", s, n, rate, rep)]
        if "connections" in workloads:
            # rivesync-latest is the same server as rivesync-every; the cluster's are measured on traffic
            conn_systems = [s for s in systems if s != "rivesync-latest" and s not in cluster.SYSTEMS]
            jobs += [job for c in map(int, args.connections.split(",")) for s in conn_systems
                     for job in each("connections", s, c, 0, rep)]
        if "writers" in workloads:
            jobs += [job for s in systems if s not in cluster.SYSTEMS
                     for job in each("writers", s, args.writer_subscribers, args.writer_rate, rep)]
        if "rooms" in workloads:
            jobs += rooms.plan(args, builds, rep, [s for s in systems if s in cluster.SYSTEMS])
    return jobs


def write_outputs(args, rows, conditions):
    median_rows = report.medians(rows)
    report.write_csv(os.path.join(args.out, "runs.csv"), rows)
    report.write_csv(os.path.join(args.out, "medians.csv"), median_rows)
    with open(os.path.join(args.out, "results.md"), "w") as f:
        f.write(report.markdown(median_rows, conditions, rows) + "\n")
    png = report.plot(median_rows, args.out)
    print("wrote", args.out, "(runs.csv, medians.csv, results.md" + (", fanout.png)" if png else ")"))


def main():
    args = parse_args()
    if args.rerender:
        rows, conditions = report.read_runs(args.out)
        write_outputs(args, rows, conditions)
        return
    builds = daemons(args)
    jobs = plan(args, builds)
    if args.dry_run:
        for job in jobs:
            print("RUN", " ".join(str(part) for part in job))
        return
    if any(SYSTEMS.get(job[1], ("rivesync",))[0] != "rivesync" for job in jobs):  # rooms.py names its own rivesync systems
        peers.ensure_packages()  # the peers and gnuplot; rivesyncd's own workloads need none of them
    os.makedirs(args.out, exist_ok=True)
    directories = dict(builds)
    started = datetime.datetime.now().isoformat(timespec="seconds")
    load_before = loadavg()
    # where each run's redis-server keeps its AOF
    fsync = cluster.fsync_latency(tempfile.gettempdir()) if any(job[1] in cluster.SYSTEMS for job in jobs) else None
    rows = []
    for i, (workload, system, n, rate, rep, daemon, workers, room_rate, cores) in enumerate(jobs, 1):
        on = f" @{daemon} ({workers} workers)" if daemon else ""
        on += f" on cores {cores}" if cores else ""
        on += f", rooms advance {room_rate}/s" if room_rate else ""
        print(f"[{i}/{len(jobs)}] {workload} {system}{on} N={n} R={int(rate)} rep {rep} (load {loadavg()})", flush=True)
        row = {"workload": workload, "system": system, "N": n, "R": int(rate), "rep": rep, "daemon": daemon}
        if workload == "rooms":
            row.update(workers=workers, room_rate=room_rate, cores=cores)
        try:
            if workload == "rooms":
                row.update(rooms.run(args, directories.get(daemon), n, workers, room_rate, system, cores))
            elif workload == "connections":
                row.update(run_connections(args, directories.get(daemon), system, n, rep))
            else:
                row.update(run_traffic(args, directories.get(daemon), system, workload, n, rate,
                                       args.writers if workload == "writers" else 1, rep))
        except Exception as error:  # a failed run is reported, the matrix goes on
            row["errors"] = str(error)[:300]
        row["load"] = loadavg()
        row["engine"] = args.engine
        rows.append(row)
        print("   ", {k: row.get(k) for k in ("delivered_per_s", "p50_ms", "p99_ms", "lost", "gen_cpu_pct",
                                                "server_cpu_s", "rss_per_conn_kb", "ready", "errors") if k in row}, flush=True)
    names = ", ".join(f"`{label}`" for label, _ in builds)
    conditions = (f"Run {started} on `{os.uname().nodename}` ({os.cpu_count()} cores), rivesyncd from {names}; "
                  f"{args.duration:g} s per run, {args.reps} rep(s), medians; server on core 0, bench-load on core(s) "
                  f"{args.generator_cores} "
                  f"(taskset), subscribers on bench-load's {ENGINES[args.engine]} (`--engine {args.engine}`); "
                  f"fan-out rivesyncd advances at most {args.advance_rate:g}/s with 2 workers; load average before "
                  f"{load_before}, after {loadavg()} (other engineers' builds share the machine). Peers: {peers.versions()}. "
                  f"Fan-out cells with N×R > {args.max_deliveries:g} deliveries/s skipped.")
    if "rooms" in args.workloads.split(","):
        conditions += (f" Rooms: {args.rooms} rooms × {args.clients_per_room} clients at {args.client_rate:g} sets/s, "
                       f"rooms advance at most {args.room_rates}/s, "
                       + (f"rivesyncd on core sets {', '.join(rooms.core_sets(args))} in turn, a transport thread and "
                          f"a worker per core, the floor on {rooms.core_sets(args)[0]}, "
                          if len(rooms.core_sets(args)) > 1 else f"rivesyncd workers {args.room_workers}, ")
                       + f"{args.rooms_per_process} rooms per bench-load process, room files {args.room_files}; "
                       f"every rooms cell on one daemon also runs on the rooms floor (bench-rooms-floor, same core).")
        if args.server_quota:
            conditions += (f" The floor and rivesyncd each ran under a CPU quota of {args.server_quota:g} % of one "
                           f"core per {args.quota_period_ms:g} ms (bench/quota.py).")
    cluster_systems = sorted({job[1] for job in jobs if job[1] in cluster.SYSTEMS}, key=list(cluster.SYSTEMS).index)
    if cluster_systems:
        conditions += (f" Cluster systems {', '.join(cluster_systems)}: every node with 1 worker, nodes and "
                       f"redis-server pinned to core(s) {args.server_cores}, bench-load to core(s) {args.generator_cores}; three nodes share one "
                       f"port (listen.sharePort); redis-server {cluster.redis_version()} started per run on a free "
                       f"loopback port with its own directory, --appendonly yes and the system's --appendfsync "
                       f"(always unless the label says everysec), --save \"\". fsync of a 200-byte append in "
                       f"{tempfile.gettempdir()} before the runs: p50 {fsync[0]:.2f} ms, p99 {fsync[1]:.2f} ms.")
    write_outputs(args, rows, conditions)


if __name__ == "__main__":
    main()
