"""Starting and measuring the servers of the side-by-side benchmark (bench/run.py).

Each server runs on loopback, pinned to one core with taskset, from its own config in a
temporary directory. Peers come from Debian packages only (installed with apt if missing).
"""

import json
import os
import shutil
import socket
import subprocess
import time
import urllib.request

# Debian package providing each peer's executable.
PACKAGES = {
    "/usr/sbin/mosquitto": "mosquitto",
    "/usr/bin/y-websocket-server": "node-y-websocket",
    "/usr/bin/libwebsockets-test-server": "libwebsockets-test-server",
    "/usr/share/nodejs/ws": "node-ws",  # y-websocket-server needs it; not pulled without recommends
    "/usr/bin/gnuplot": "gnuplot-nox",
}

# Label -> (server kind, bench-load --peer, bench-load --paths). rivesync runs twice: every
# update on distinct paths (nothing can coalesce) and latest state on one path.
SYSTEMS = {
    "rivesync-every": ("rivesync", "rivesync", 256),
    "rivesync-latest": ("rivesync", "rivesync", 1),
    "mosquitto": ("mosquitto", "mqtt", 1),
    "y-websocket": ("yjs", "yjs", 1),
    "lws-mirror": ("mirror", "mirror", 1),
}


def ensure_packages():
    """apt-get installs the peers that are missing (needs root, as in the dev container)."""
    missing = sorted({pkg for path, pkg in PACKAGES.items() if not os.path.exists(path)})
    if missing:
        print("installing", " ".join(missing), flush=True)
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(["apt-get", "install", "-y", "--no-install-recommends", *missing], check=True, env=env)


_KNOWN_LIMITS = {}


def limits(binary):
    """The benchmark's limits for the rivesyncd at `binary`: room for every connection and
    command. Daemons refuse limits they do not know, and `maxConnectionsPerAddress` (default
    1,000, every bench connection comes from 127.0.0.1) came after fc7e991, so it is set only
    where the binary has it."""
    if binary not in _KNOWN_LIMITS:
        with open(binary, "rb") as f:
            _KNOWN_LIMITS[binary] = b"maxConnectionsPerAddress" in f.read()
    out = {"maxConnections": 20000, "maxCommandsPerSecond": 10000000}
    if _KNOWN_LIMITS[binary]:
        out["maxConnectionsPerAddress"] = 20000
    return out


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, proc, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"port {port} not listening after {timeout}s")


def wait_log(path, text, proc, timeout=120):
    """Waits until the log file at `path` contains `text` (a cluster node listens only once it
    has applied the whole log)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        with open(path, errors="replace") as f:
            if text in f.read():
                return
        if proc.poll() is not None:
            with open(path, errors="replace") as f:
                raise RuntimeError(f"server exited with {proc.returncode}: {f.read()[-300:]}")
        time.sleep(0.1)
    raise RuntimeError(f"no '{text}' in {path} after {timeout}s")


def cpu_seconds(pid):
    """User + system CPU seconds of process `pid` (all its threads) from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def schedstat(pid):
    """(run, wait) seconds summed over the threads of `pid` from /proc/PID/task/*/schedstat:
    time on a CPU and time runnable but waiting for one (other load on its core)."""
    run = wait = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                fields = f.read().split()
        except OSError:  # a thread that ended
            continue
        run, wait = run + int(fields[0]), wait + int(fields[1])
    return run / 1e9, wait / 1e9


class Server:
    """One running server process with /proc readings."""

    def __init__(self, kind, build_dir, work_dir, core, rate, workers=2, room_files=0, port=None, cluster=None,
                 share_port=False, room_file="rooms.schema.json", quota=None, threads=None):
        """rivesyncd gets `workers` worker threads and either the fan-out's one state machine
        (advancing at most `rate`/s) or, with `room_files` > 0, that many copies of the rooms
        schema (`rooms-<i>` on worker i; `room_file`, in peers/, names another file with the same
        artboard and state machine) and no targets: the rooms workload creates them.
        A cluster node (bench/cluster.py) also gets a `cluster` section (`cluster`: its dict)
        and, with `share_port`, `listen.sharePort` on the given `port`. With `quota`
        (bench/quota.py) the process runs in that CPU quota's group; `threads`: rivesyncd's
        `transportThreads` (default: its own)."""
        self.kind = kind
        self.port = port or free_port()
        self.cluster, self.share_port, self.room_file, self.quota = cluster, share_port, room_file, quota
        self.threads = threads
        cmd, env = self._command(build_dir, work_dir, rate, workers, room_files)
        self.log_path = os.path.join(work_dir, f"{kind}.log")
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen(["taskset", "-c", str(core), *cmd], env=env, stdout=self.log, stderr=self.log,
                                     preexec_fn=quota.enter if quota else None)
        if share_port:  # the port may already be served by another node: wait for this one's own line
            wait_log(self.log_path, "listening on", self.proc)
        else:
            wait_port(self.port, self.proc)

    def _command(self, build_dir, work_dir, rate, workers, room_files):
        env = dict(os.environ)
        if self.kind == "rivesync":
            here = os.path.dirname(os.path.abspath(__file__))
            if room_files:
                schema = os.path.join(here, "peers", self.room_file)
                files = [{"name": f"rooms-{i}", "path": schema, "worker": i} for i in range(room_files)]
                machines = []
            else:
                files = [{"name": "bench", "path": os.path.join(here, "peers", "bench.schema.json")}]
                machines = [{"name": "bench", "file": "bench", "artboard": "Bench", "stateMachine": "bench",
                             "mode": "auto", "rate": int(rate) if float(rate).is_integer() else rate}]
            binary = os.path.join(build_dir, "rivesyncd")
            config = os.path.join(work_dir, "rivesyncd.json")
            listen = {"host": "127.0.0.1", "port": self.port}
            settings = {"workers": workers, "files": files, "stateMachines": machines, "limits": limits(binary),
                        "auth": {"allowAnonymous": "loopback"}}
            if self.share_port:
                listen["sharePort"] = True
            if self.threads:
                settings["transportThreads"] = self.threads
            if self.cluster:
                settings["cluster"] = self.cluster
            with open(config, "w") as f:
                json.dump({"listen": listen, **settings}, f)
            return [binary, "--config", config], env
        if self.kind == "mosquitto":
            config = os.path.join(work_dir, "mosquitto.conf")
            # Mosquitto 2.0.11 refuses to start with only a websockets listener ("Unable to start
            # any listening sockets"), so an unused plain MQTT listener comes first. Its lws
            # listener binds every interface whatever address is given (LWS.md §3.1).
            with open(config, "w") as f:
                f.write(f"listener {free_port()} 127.0.0.1\nprotocol mqtt\nlistener {self.port} 127.0.0.1\n"
                        "protocol websockets\nallow_anonymous true\npersistence false\nlog_type error\n")
            return ["/usr/sbin/mosquitto", "-c", config], env
        if self.kind == "yjs":
            env.update(HOST="127.0.0.1", PORT=str(self.port), NODE_PATH="/usr/share/nodejs")
            return ["/usr/bin/y-websocket-server"], env
        if self.kind == "mirror":
            return ["/usr/bin/libwebsockets-test-server", f"--port={self.port}"], env
        if self.kind == "rooms-floor":  # built beside bench-load (bench/rooms-floor)
            return [os.path.join(build_dir, "bench-rooms-floor"), "--port", str(self.port)], env
        raise ValueError(self.kind)

    def url(self, peer):
        return f"ws://127.0.0.1:{self.port}/" + ("bench" if peer == "yjs" else "")

    def cpu_seconds(self):
        return cpu_seconds(self.proc.pid)

    def schedstat(self):
        return schedstat(self.proc.pid)

    def memory_kb(self):
        """(current RSS, peak RSS) in KiB from /proc/PID/status."""
        values = {}
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                key, _, rest = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    values[key] = int(rest.split()[0])
        return values.get("VmRSS", 0), values.get("VmHWM", 0)

    def batches(self, timeout=5):
        """rivesyncd's batches_total counter, summed over its targets (None for other servers):
        0 before any target has a batch (no sample yet; a cluster node that has not yet applied
        the setup's batches answers so too). Raises if /metrics does not answer within `timeout`
        seconds."""
        # One sample before the metrics were labelled by target; one per target since.
        return self.metric("rivesync_batches_total", timeout)

    def metric(self, name, timeout=5):
        """The sum of rivesyncd's samples of metric `name` in /metrics (None for other servers).
        Raises if /metrics does not answer within `timeout` seconds."""
        if self.kind != "rivesync":
            return None
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/metrics", timeout=timeout) as response:
            samples = [line for line in response.read().decode().splitlines()
                       if line.startswith(name + " ") or line.startswith(name + "{")]
        return sum(int(float(line.rsplit(" ", 1)[1])) for line in samples)

    def stop(self):
        stop_process(self.proc, self.log)
        if self.quota:
            self.quota.remove()



def stop_process(proc, log):
    """SIGTERM, 10 s to exit, then SIGKILL; closes the process's log file."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    log.close()


def versions():
    """One line naming the peers' package versions."""
    out = []
    for pkg in ["mosquitto", "node-y-websocket", "libwebsockets-test-server", "libwebsockets-dev"]:
        r = subprocess.run(["dpkg-query", "-W", "-f=${Version}", pkg], capture_output=True, text=True)
        out.append(f"{pkg} {r.stdout or '?'}")
    node = shutil.which("node")
    if node:
        out.append("node " + subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip())
    return ", ".join(out)
