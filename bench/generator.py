"""Driving bench-load processes and merging their results (bench/run.py)."""

import json
import math
import select
import subprocess
import time

SUB_BITS = 5


def bucket_lower_bound(index):
    """Same formula as LatencyHistogram.lowerBound(of:) in bench/load-kit."""
    linear = 2 << SUB_BITS
    if index < linear:
        return index
    exponent = ((index - linear) >> SUB_BITS) + SUB_BITS + 1
    sub = index & ((1 << SUB_BITS) - 1)
    return ((1 << SUB_BITS) + sub) << (exponent - SUB_BITS)


def quantile(histogram, fraction):
    total = sum(histogram.values())
    if total == 0:
        return 0
    rank = max(1, math.ceil(fraction * total))
    seen = 0
    for index in sorted(histogram):
        seen += histogram[index]
        if seen >= rank:
            return bucket_lower_bound(index)
    return 0


class Generator:
    """A group of bench-load processes pinned to `core` (a taskset CPU list): writer processes and
    subscriber processes (subscribers spread over several processes, LWS.md §5)."""

    def __init__(self, binary, core, peer, url, args_list):
        self.procs = []
        for args in args_list:
            cmd = ["taskset", "-c", str(core), binary, "--peer", peer, "--url", url, *args]
            self.procs.append(subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1))

    def wait_lines(self, prefix, timeout):
        """Reads each process's stdout until a line starting with prefix; returns those lines."""
        found = {}
        deadline = time.time() + timeout
        while len(found) < len(self.procs):
            pending = [p for p in self.procs if p.pid not in found]
            left = deadline - time.time()
            if left <= 0:
                raise RuntimeError(f"bench-load: no {prefix} from {len(pending)} process(es) in {timeout:.0f}s")
            ready, _, _ = select.select([p.stdout for p in pending], [], [], left)
            for p in pending:
                if p.stdout in ready:
                    line = p.stdout.readline()
                    if not line:
                        raise RuntimeError(f"bench-load exited ({p.wait()}) before {prefix}")
                    if line.startswith(prefix):
                        found[p.pid] = line[len(prefix):].strip()
        return [found[p.pid] for p in self.procs]

    def ready_counts(self, timeout):
        """(ready, total) connections over all processes, from their READY lines."""
        ready = total = 0
        for line in self.wait_lines("READY ", timeout):
            r, t = line.split("/")
            ready, total = ready + int(r), total + int(t)
        return ready, total

    def go(self, start_ns):
        for p in self.procs:
            p.stdin.write(f"GO {start_ns}\n")
            p.stdin.flush()

    def results(self, timeout):
        return [json.loads(line) for line in self.wait_lines("RESULT ", timeout)]

    def stop(self):
        for p in self.procs:
            try:
                p.stdin.close()
            except OSError:
                pass
        for p in self.procs:
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def split(total, per_process):
    """Splits total connections into near-equal process shares of at most per_process."""
    count = max(1, math.ceil(total / per_process))
    return [total // count + (1 if i < total % count else 0) for i in range(count)]


def merge(results, subscribers, duration):
    """Sums the processes' figures into one row (latencies from the merged histogram)."""
    histogram = {}
    for r in results:
        for index, count in r["histogram"]:
            histogram[index] = histogram.get(index, 0) + count
    sent = sum(r["sent"] for r in results)
    received = sum(r["received"] for r in results)
    return {
        "sent": sent,
        "expected": sent * subscribers,
        "received": received,
        "delivered_per_s": round(sum(r["receivedInWindow"] for r in results) / duration),
        "lost": sent * subscribers - received,
        "gaps": sum(r["gaps"] for r in results),
        "order_violations": sum(r["orderViolations"] for r in results),
        "p50_ms": quantile(histogram, 0.5) / 1e6,
        "p99_ms": quantile(histogram, 0.99) / 1e6,
        "max_ms": max((r["maxNs"] for r in results), default=0) / 1e6,
        "gen_cpu_pct": round(100 * sum(r["cpuSeconds"] for r in results) / duration, 1),
        "errors": "; ".join(e for r in results for e in r["errors"])[:300],
    }
