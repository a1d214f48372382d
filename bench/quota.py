"""A CPU quota for a benchmarked server (`--server-quota`): a cgroup v1 `cpu` group per server.

On a 2-core machine the rooms generator (bench-load, core 1) saturates its core before the
rooms floor saturates its own, so neither "the highest room count on one core" of the floor nor
the daemon's share of it can be found with a whole core each. With a quota, each server gets
the same fraction of its core (CFS bandwidth: `quota` µs of CPU per `period` µs), the
generator keeps a whole core, and the room counts the floor and the daemon hold at that
fraction compare as on a whole core. A short period keeps the throttled stretch (at most
period − quota) far below the 50 ms p99 the sweep asks for.
"""

import os

CPU_ROOT = "/sys/fs/cgroup/cpu"


class Quota:
    """One cgroup v1 `cpu` group limited to `percent` % of one CPU per `period_ms` ms."""

    def __init__(self, name, percent, period_ms=10):
        if not os.path.isdir(CPU_ROOT) or not os.access(CPU_ROOT, os.W_OK):
            raise RuntimeError(f"--server-quota needs a writable cgroup v1 cpu hierarchy at {CPU_ROOT} (run as root)")
        self.path = os.path.join(CPU_ROOT, f"rivesync-bench-{os.getpid()}-{name}")
        os.makedirs(self.path, exist_ok=True)
        period = int(period_ms * 1000)
        self._write("cpu.cfs_period_us", period)
        self._write("cpu.cfs_quota_us", int(period * percent / 100))

    def _write(self, name, value):
        with open(os.path.join(self.path, name), "w") as f:
            f.write(f"{value}\n")

    def enter(self):
        """Moves the calling process into the group (a Popen `preexec_fn`: the server and every
        thread it starts run under the quota)."""
        self._write("cgroup.procs", os.getpid())

    def throttled(self):
        """(periods throttled, seconds throttled) so far, from cpu.stat."""
        stats = {}
        with open(os.path.join(self.path, "cpu.stat")) as f:
            for line in f:
                key, value = line.split()
                stats[key] = int(value)
        return stats.get("nr_throttled", 0), stats.get("throttled_time", 0) / 1e9

    def remove(self):
        """Removes the group (its processes have exited)."""
        os.rmdir(self.path)
