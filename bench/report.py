"""CSV, Markdown and PNG output of bench/run.py."""

import csv
import os
import shutil
import statistics
import subprocess

import cluster
import cores
import rooms

KEY = ("workload", "system", "daemon", "workers", "room_rate", "cores", "N", "R")
NUMERIC = ["delivered_per_s", "p50_ms", "p99_ms", "max_ms", "lost", "gaps", "order_violations",
           "server_cpu_s", "server_us_per_delivery", "server_peak_rss_mb", "gen_cpu_pct", "batches_per_s", "rss_per_conn_kb", "ready",
           "sent_per_s", "server_us_per_update", "rss_rooms_mb", "rss_clients_mb", "create_s", "server_wait_s",
           "throttled_s",
           *cluster.NUMERIC]
# Columns that are not numbers: the median row takes the first rep's.
TEXT = cluster.TEXT


def write_csv(path, rows):
    if not rows:
        return
    fields = list(dict.fromkeys(k for row in rows for k in row))
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)


def read_runs(out_dir):
    """runs.csv back as rows (numbers parsed) and the conditions paragraph of results.md."""
    rows = []
    with open(os.path.join(out_dir, "runs.csv"), newline="") as f:
        for row in csv.DictReader(f):
            for key, value in row.items():
                try:
                    row[key] = int(value)
                except ValueError:
                    try:
                        row[key] = float(value)
                    except ValueError:
                        pass
            if row.get("received") and row.get("server_cpu_s") not in (None, ""):
                row["server_us_per_delivery"] = round(row["server_cpu_s"] * 1e6 / row["received"], 2)
            rows.append(row)
    with open(os.path.join(out_dir, "results.md")) as f:
        conditions = f.read().split("\n")[2]
    return rows, conditions


def medians(rows):
    """One row per KEY (workload, system, daemon, workers, room rate, cores, N, R): the median of each numeric column over reps."""
    groups = {}
    for row in rows:
        groups.setdefault(tuple(row.get(k) for k in KEY), []).append(row)
    out = []
    for key, group in groups.items():
        row = dict(zip(KEY, key))
        row["reps"] = len(group)
        for column in NUMERIC:
            values = [r[column] for r in group if r.get(column) not in (None, "")]
            if values:
                row[column] = round(statistics.median(values), 3)
        for column in TEXT:
            row[column] = next((r[column] for r in group if r.get(column) not in (None, "")), "")
        row["errors"] = next((r["errors"] for r in group if r.get("errors")), "")
        # Runs from before the engine column all used the libwebsockets client.
        row["engine"] = next((r["engine"] for r in group if r.get("engine")), "lws")
        out.append(row)
    return out


def fmt(value, digits=2):
    if value is None or value == "":
        return "–"
    if isinstance(value, float):
        return f"{value:,.{digits}f}"
    return f"{value:,}"


def label(row, median_rows):
    """The system, with its daemon when the rows measure more than one rivesyncd."""
    several = len({r.get("daemon") for r in median_rows if r.get("daemon")}) > 1
    return f"{row['system']} @{row['daemon']}" if several and row.get("daemon") else row["system"]


def markdown(median_rows, conditions, rows=()):
    """results.md: the conditions, then each workload's medians; `rows` (every repetition) for the
    rooms' core-set comparison."""
    lines = ["# RiveSync side-by-side benchmark", "", conditions, ""]
    fanout = [r for r in median_rows if r["workload"] in ("fanout", "writers") and r["system"] not in cluster.SYSTEMS]
    if fanout:
        lines += ["## Fan-out and many writers (medians)", "",
                  "`every` = rivesyncd with distinct paths (nothing coalesces); `latest` = one path "
                  "(coalescing allowed: its gaps are coalesced updates, not losses). Latency is writer "
                  "send → subscriber receive. `lost` = sent × N − received (after a 2 s drain). "
                  "`gen CPU` ≥ ~90 % means the generator (one core) was saturated and the row "
                  "measures it, not the server; `server µs/update` (server CPU ÷ updates received by all "
                  "subscribers) compares servers independently of that.", "",
                  "| workload | system | N | R/s | delivered/s | p50 ms | p99 ms | max ms | lost | gaps | order viol. "
                  "| server CPU s | server µs/update | peak RSS MB | gen CPU % | batches/s |",
                  "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for r in sorted(fanout, key=lambda r: (r["workload"], r["N"], r["R"], r["system"])):
            lines.append("| " + " | ".join([
                r["workload"], label(r, median_rows), fmt(r["N"]), fmt(r["R"]), fmt(int(r.get("delivered_per_s", 0))),
                fmt(r.get("p50_ms")), fmt(r.get("p99_ms")), fmt(r.get("max_ms")), fmt(int(r.get("lost", 0))),
                fmt(int(r.get("gaps", 0))), fmt(int(r.get("order_violations", 0))), fmt(r.get("server_cpu_s")), fmt(r.get("server_us_per_delivery")),
                fmt(r.get("server_peak_rss_mb"), 1), fmt(r.get("gen_cpu_pct"), 0), fmt(r.get("batches_per_s"), 0)]) + " |")
        lines.append("")
    conns = [r for r in median_rows if r["workload"] == "connections"]
    if conns:
        lines += ["## Idle subscribed connections (medians)", "",
                  "| system | connections | held | RSS per connection KB | peak RSS MB |", "|---|---:|---:|---:|---:|"]
        for r in sorted(conns, key=lambda r: (r["N"], r["system"])):
            lines.append(f"| {label(r, median_rows)} | {fmt(r['N'])} | {fmt(int(r.get('ready', 0)))} | "
                         f"{fmt(r.get('rss_per_conn_kb'), 1)} | {fmt(r.get('server_peak_rss_mb'), 1)} |")
        lines.append("")
    lines += rooms.markdown(median_rows, fmt)
    lines += cores.comparison(rows, fmt)
    lines += cluster.markdown(median_rows, fmt)
    errors = [f"- {r['workload']} {label(r, median_rows)} N={r['N']} R={r['R']}: {r['errors']}" for r in median_rows if r.get("errors")]
    if errors:
        lines += ["## Errors reported by the generator", ""] + errors + [""]
    return "\n".join(lines)


def plot(median_rows, out_dir):
    """fanout.png: p50, p99 and delivered/s against N at each R, one line per system (gnuplot)."""
    rows = [r for r in median_rows if r["workload"] == "fanout"]
    if not rows or not shutil.which("gnuplot"):
        return None
    rows = [dict(r, system=label(r, rows)) for r in rows]
    systems = sorted({r["system"] for r in rows})
    rates = sorted({r["R"] for r in rows})
    data = os.path.join(out_dir, "fanout-plot.dat")
    with open(data, "w") as f:
        for rate in rates:
            for system in systems:
                f.write(f"# R={rate} {system}\n")
                for r in sorted((r for r in rows if r["R"] == rate and r["system"] == system), key=lambda r: r["N"]):
                    f.write(f"{r['N']} {r.get('p50_ms', 0)} {r.get('p99_ms', 0)} {r.get('delivered_per_s', 0)}\n")
                f.write("\n\n")
    png = os.path.join(out_dir, "fanout.png")
    script = [f'set terminal pngcairo size 1500,{420 * len(rates)} font ",10"', f'set output "{png}"',
              f"set multiplot layout {len(rates)},3", "set key top left font \",8\"", "set xlabel \"subscribers N\"",
              "set grid", "set logscale y", "set xrange [0:1100]"]
    block = 0
    for rate in rates:
        for column, title in [(2, "p50 latency ms"), (3, "p99 latency ms"), (4, "delivered updates/s")]:
            plots = [f'"{data}" index {block + i} using 1:{column} with linespoints title "{s}"' for i, s in enumerate(systems)]
            script += [f'set title "{title}, R = {rate}/s"', "plot " + ", ".join(plots)]
        block += len(systems)
    script.append("unset multiplot")
    result = subprocess.run(["gnuplot"], input="\n".join(script), text=True, capture_output=True)
    os.remove(data)
    if result.returncode != 0:
        print("gnuplot failed:", result.stderr[-500:])
        return None
    return png
