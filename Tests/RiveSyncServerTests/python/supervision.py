"""rivesyncd under (simulated) systemd: sd_notify messages, the watchdog, SIGHUP reload of
limits, SIGTERM drain with close 1001 and exit 0, socket activation through
systemd-socket-activate, and a notify receiver that never reads. Exits non-zero on failure.

usage: supervision.py RIVESYNCD"""

import json
import os
import shutil
import signal
import socket
import sys
import tempfile

from wsraw import HANG_GUARD, Daemon, connect, hello, read_close_code, read_http_head

BINARY = sys.argv[1]


class NotifyReceiver:
    """An abstract-namespace datagram socket standing in for systemd's notify socket."""

    def __init__(self):
        self.name = "@rivesync-notify-%d-%s" % (os.getpid(), os.urandom(4).hex())
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind("\0" + self.name[1:])
        self.sock.settimeout(HANG_GUARD)

    def next(self):
        return dict(line.split("=", 1) for line in self.sock.recv(4096).decode().split("\n") if line)

    def expect(self, key, value="1"):
        """Skips WATCHDOG=1 pings until a message with key=value; returns that message."""
        while True:
            message = self.next()
            if message.get(key) == value:
                return message
            if set(message) != {"WATCHDOG"}:
                raise AssertionError("expected %s=%s, got %r" % (key, value, message))


def environment(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_FDS", "LISTEN_PID")}
    env.update(extra)
    return env


def write_config(path, limits):
    with open(path + ".tmp", "w") as f:
        f.write(limits if isinstance(limits, str) else json.dumps({"listen": {"port": 0}, "files": [], "limits": limits, "auth": {"allowAnonymous": "loopback"}}))
    os.rename(path + ".tmp", path)


def notify_watchdog_reload_drain(scratch):
    notify = NotifyReceiver()
    config = os.path.join(scratch, "config.json")
    write_config(config, {"maxSubscriptions": 10, "maxMessageBytes": 65536})
    daemon = Daemon(BINARY, ["--config", config], env=environment(NOTIFY_SOCKET=notify.name, WATCHDOG_USEC="200000"))
    try:
        ready = notify.expect("READY")
        assert ready["STATUS"].startswith("serving on 127.0.0.1:"), ready
        for _ in range(3):  # WATCHDOG=1 keeps coming while every loop answers its probe
            assert notify.next() == {"WATCHDOG": "1"}
        _, welcome = hello(daemon.port)
        assert welcome["limits"]["maxSubscriptions"] == 10, welcome

        write_config(config, {"maxSubscriptions": 20, "maxMessageBytes": 131072})
        mark = daemon.line_count()
        daemon.signal(signal.SIGHUP)
        assert "MONOTONIC_USEC" in notify.expect("RELOADING")
        notify.expect("READY")
        daemon.wait_for(r"msg=\"reload: applied\" key=limits.maxSubscriptions old=10 new=20", mark)
        daemon.wait_for(r"msg=\"reload: not applied; needs a restart\" key=limits.maxMessageBytes old=65536 new=131072", mark)
        daemon.wait_for(r"msg=\"reload: done\" .* applied=1 ignored=1", mark)
        _, welcome = hello(daemon.port)
        assert welcome["limits"]["maxSubscriptions"] == 20, welcome
        assert welcome["limits"]["maxMessageBytes"] == 65536, welcome

        for bad in ['{"limits": {"maxSubscriptions": 0}}', '{"limits": ', '{"nonsense": 1}']:
            write_config(config, bad)
            mark = daemon.line_count()
            daemon.signal(signal.SIGHUP)
            notify.expect("RELOADING")
            notify.expect("READY")
            daemon.wait_for(r"configuration rejected", mark)
        client, welcome = hello(daemon.port)
        assert welcome["limits"]["maxSubscriptions"] == 20, welcome

        daemon.signal(signal.SIGTERM)
        notify.expect("STOPPING")
        assert read_close_code(client) == 1001
        assert daemon.stop() == 0, daemon.stderr()
    finally:
        daemon.stop()


def listening_ports(pid):
    """TCP ports the process has in LISTEN state (its fds matched against /proc/net/tcp*)."""
    inodes = set()
    for fd in os.listdir("/proc/%d/fd" % pid):
        target = os.readlink("/proc/%d/fd/%s" % (pid, fd))
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    ports = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as f:
            for row in list(f)[1:]:
                fields = row.split()
                if fields[3] == "0A" and fields[9] in inodes:
                    ports.append(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


def socket_activation(scratch):
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    notify = NotifyReceiver()
    activator = shutil.which("systemd-socket-activate")
    assert activator, "systemd-socket-activate is missing (package systemd)"
    # systemd-socket-activate listens, starts the daemon on the first connection, and passes
    # it only the variables named with -E.
    daemon = Daemon(activator, ["-l", "127.0.0.1:%d" % port, "-E", "NOTIFY_SOCKET=" + notify.name, BINARY, "--demo"],
                    env=environment(), ready=r"Listening on 127.0.0.1:%d" % port)
    try:
        first, _ = hello(port)
        daemon.wait_for(r"listening on inherited socket fd 3")
        ready = notify.expect("READY")
        assert ready["STATUS"] == "serving on inherited socket fd 3", ready
        assert listening_ports(daemon.pid) == [port], listening_ports(daemon.pid)
        clients = [first] + [hello(port)[0] for _ in range(3)]
        http = connect(port)
        http.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert read_http_head(http).startswith("HTTP/1.1 200"), "healthz over the inherited socket"
        daemon.signal(signal.SIGTERM)
        notify.expect("STOPPING")
        for client in clients:
            assert read_close_code(client) == 1001
        assert daemon.stop() == 0, daemon.stderr()
    finally:
        daemon.stop()


def stuck_notify_receiver(scratch):
    """A receiver that never reads, its queue already full (filled here before the daemon
    starts): every notification is dropped, yet the daemon starts, keeps serving with the
    watchdog firing every 10 ms, and stops cleanly. A blocking send would hang at READY=1."""
    notify = NotifyReceiver()
    filler = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    filler.setblocking(False)
    queued = 0
    while True:
        try:
            filler.sendto(b"STATUS=filler", "\0" + notify.name[1:])
            queued += 1
        except BlockingIOError:
            break
    assert queued > 0, "could not fill the notify queue"
    daemon = Daemon(BINARY, ["--demo", "--port", "0"], env=environment(NOTIFY_SOCKET=notify.name, WATCHDOG_USEC="20000"))
    try:
        for _ in range(20):
            client, _ = hello(daemon.port)
            client.close()
        assert daemon.stop() == 0, daemon.stderr()
    finally:
        daemon.stop()
        filler.close()


def main():
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # let finally stop the daemons
    scratch = tempfile.mkdtemp(prefix="rivesync-supervision-")
    try:
        for test in (notify_watchdog_reload_drain, socket_activation, stuck_notify_receiver):
            test(scratch)
            print("ok", test.__name__, flush=True)
    finally:
        shutil.rmtree(scratch)


if __name__ == "__main__":
    main()
