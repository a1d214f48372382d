"""Starting and measuring the servers of the side-by-side benchmark (bench/run.py).

Each server runs on loopback, pinned to one core with taskset, from its own config in a
temporary directory. Peers come from Debian packages only (installed with apt if missing).
"""

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


class Server:
    """One running server process with /proc readings."""

    def __init__(self, kind, build_dir, work_dir, core, rate):
        self.kind = kind
        self.port = free_port()
        cmd, env = self._command(build_dir, work_dir, rate)
        self.log = open(os.path.join(work_dir, f"{kind}.log"), "w")
        self.proc = subprocess.Popen(["taskset", "-c", str(core), *cmd], env=env, stdout=self.log, stderr=self.log)
        wait_port(self.port, self.proc)
        self.ticks = os.sysconf("SC_CLK_TCK")

    def _command(self, build_dir, work_dir, rate):
        env = dict(os.environ)
        if self.kind == "rivesync":
            schema = os.path.join(os.path.dirname(os.path.abspath(__file__)), "peers", "bench.schema.json")
            config = os.path.join(work_dir, "rivesyncd.json")
            with open(config, "w") as f:
                f.write(
                    '{"listen": {"host": "127.0.0.1", "port": %d}, "workers": 2,\n'
                    ' "files": [{"name": "bench", "path": "%s"}],\n'
                    ' "stateMachines": [{"name": "bench", "file": "bench", "artboard": "Bench",'
                    ' "stateMachine": "bench", "mode": "auto", "rate": %g}],\n'
                    ' "limits": {"maxConnections": 20000, "maxConnectionsPerAddress": 20000, "maxCommandsPerSecond": 10000000},\n'
                    ' "auth": {"allowAnonymous": "loopback"}}\n' % (self.port, schema, rate))
            return [os.path.join(build_dir, "rivesyncd"), "--config", config], env
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
        raise ValueError(self.kind)

    def url(self, peer):
        return f"ws://127.0.0.1:{self.port}/" + ("bench" if peer == "yjs" else "")

    def cpu_seconds(self):
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / self.ticks

    def memory_kb(self):
        """(current RSS, peak RSS) in KiB from /proc/PID/status."""
        values = {}
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                key, _, rest = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    values[key] = int(rest.split()[0])
        return values.get("VmRSS", 0), values.get("VmHWM", 0)

    def batches(self):
        """rivesyncd's batches_total counter (None for other servers)."""
        if self.kind != "rivesync":
            return None
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/metrics", timeout=5) as response:
            for line in response.read().decode().splitlines():
                if line.startswith("rivesync_batches_total "):
                    return int(float(line.split()[1]))
        return None

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


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
