"""Availability cases against a real rivesyncd, one fresh daemon per case (issue 17, items
6-10 and 12): hostile or careless clients must not wedge the service thread, hold every
connection slot, grow memory without bound or starve others. After each case
`assert_serves_and_stops` checks that a fresh client gets its welcome within 1 s and that
SIGTERM stops the daemon within 5 s.

usage: availability.py RIVESYNCD CASE   (CASE: one of the names in CASES)"""

import json
import os
import re
import signal
import socket
import sys
import time

from wsraw import (HANG_GUARD, Daemon, assert_serves_and_stops, close_and_wait, closed_already, connect, frame, handshake_request,
                   hello, read_close_code, read_frame, read_http_head, read_json, send_json, upgrade)

BINARY = sys.argv[1]


def small_buffer_upgrade(port, receive_buffer):
    """A handshaken socket whose kernel receive buffer is `receive_buffer` bytes (set before
    connect, so the window the daemon sees is small from the start)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.settimeout(20)
    sock.connect(("127.0.0.1", port))
    sock.sendall(handshake_request())
    head = read_http_head(sock)
    assert head.startswith("HTTP/1.1 101"), "handshake refused: %r" % head[:60]
    return sock


def slow_subscriber(daemon):
    """Item 6: subscribers with a 16 KiB receive buffer read a little while a writer sends
    large values, then end: half of them half-close (FIN, then no more reading), half close.
    A half-closed peer whose unsent bytes lws holds made 4.1.6 retry the same poll slot
    forever inside one lws_service call (recvfrom() = 0 in a loop: no timers, no inbox, so
    /healthz, handshakes and SIGTERM all hung). Afterwards the daemon must be idle."""
    port = daemon.port
    writer, _ = hello(port)
    value = "x" * 60000
    for round_ in range(3):
        subscribers = []
        for _ in range(6):
            sock = small_buffer_upgrade(port, 16384)
            send_json(sock, {"type": "hello", "protocol": [1], "id": 1})
            assert read_json(sock).get("type") == "welcome"
            send_json(sock, {"type": "subscribe", "id": 2, "target": "lobby"})
            subscribers.append(sock)
        for i in range(150):
            send_json(writer, {"type": "set", "id": 100 + i, "target": "lobby", "path": "title", "value": "%d-%s" % (i, value)})
            if i == 75:
                for n, sock in enumerate(subscribers):
                    sock.recv(8192)  # a little, then stop reading
                    if n % 2:
                        sock.shutdown(socket.SHUT_WR)
                    else:
                        sock.close()
        acks = 0
        while acks < 150:
            message = read_json(writer)
            assert message.get("type") != "error", message
            acks += message.get("type") == "ack"
        for sock in subscribers:
            sock.close()
    writer.close()
    assert_idle(daemon, "slow subscribers ended")


def slow_subscribers_catch_up(daemon):
    """Item 6: twenty subscribers with a 16 KiB receive buffer read nothing while a writer sends
    150 values of 60 KB (9 MB, maxSendQueueBytes is 1 MiB here); then each reads on and must converge on
    the last value, through a catch-up snapshot (seen before: 5 of 20 never got theirs)."""
    port = daemon.port
    subscribers = []
    for _ in range(20):
        sock = small_buffer_upgrade(port, 16384)
        send_json(sock, {"type": "hello", "protocol": [1], "id": 1})
        assert read_json(sock).get("type") == "welcome"
        send_json(sock, {"type": "subscribe", "id": 2, "target": "lobby", "paths": ["title"]})
        subscribers.append(sock)
    writer, _ = hello(port)
    value = "x" * 60000
    # Two sets at a time: a window's acks come after its batch, so the 150 sets make at least
    # 75 batches (4.5 MB). Sent all at once, an advance may take every queued set and keep the
    # last title, and a loaded machine may then make too few batches to overflow anything.
    for first in range(0, 150, 2):
        for i in range(first, first + 2):
            send_json(writer, {"type": "set", "id": 100 + i, "target": "lobby", "path": "title", "value": "%d-%s" % (i, value)})
        acks = 0
        while acks < 2:
            message = read_json(writer)
            assert message.get("type") != "error", message
            acks += message.get("type") == "ack"
    last = "149-" + value
    caught_up = 0
    for n, sock in enumerate(subscribers):
        title, catch_up = None, False
        while title != last:
            message = read_json(sock)
            if message.get("type") == "snapshot":
                title = message["values"].get("title", title)
                catch_up |= message.get("reason") == "catchUp"
            elif message.get("type") == "batch":
                for effect in message["effects"]:
                    if effect.get("op") == "set" and "title" in effect.get("paths", []):
                        title = effect["value"]
        caught_up += catch_up
        sock.close()
    writer.close()
    print("slow_subscribers_catch_up: 20 of 20 converged, %d through a catch-up" % caught_up)
    assert caught_up > 0, "no subscriber needed a catch-up: the case did not overflow anything"


def assert_idle(daemon, after):
    """The daemon uses well under half a core for 2 s (a spinning service thread uses one)."""
    time.sleep(0.5)
    cpu = cpu_seconds(daemon.pid)
    time.sleep(2.0)
    busy = cpu_seconds(daemon.pid) - cpu
    print("%s: %.2f s of CPU in the next 2 s" % (after, busy))
    assert busy < 0.6, "the daemon kept a core busy (%.2f s of CPU in 2 s) after %s" % (busy, after)


def hello_timeout(daemon):
    """Item 7a: sockets that upgrade but never say hello are closed with 1008 within the
    default helloTimeoutSeconds (10 s; the hang guard here is 20 s)."""
    silent = [upgrade(daemon.port) for _ in range(5)]
    started = time.monotonic()
    for sock in silent:
        code = read_close_code(sock)
        assert code == 1008, "a silent connection got close %r" % code
        sock.close()
    took = time.monotonic() - started
    print("hello_timeout: 5 silent connections closed 1008 after %.1f s" % took)
    assert took < 15, "silent connections held %.1f s" % took


def per_address_limit(daemon):
    """Item 7b: one address holds at most maxConnectionsPerAddress sockets (counted from
    accept, before any upgrade): past it a handshake gets HTTP 503 at once; after the silent
    ones are closed by the hello timeout (1 s here), the address is served again.

    On a loaded machine the hello timeout may close the first sockets before the sixth is
    accepted, and then its 101 proves nothing: an answer other than 503 fails the case only when
    every held socket was still open after it (the daemon closes a timed-out socket before it
    gives its place back, and on loopback the close has arrived by the time a later answer
    has); otherwise the attempt is made again once the daemon has closed them all."""
    for attempt in range(1, 6):
        silent = [upgrade(daemon.port) for _ in range(4)]
        raw = connect(daemon.port)  # a socket that never sends a request counts too
        sock = connect(daemon.port)
        sock.sendall(handshake_request())
        head = read_http_head(sock)
        held = silent + [raw]
        if head.startswith("HTTP/1.1 503"):
            sock.close()
            for held_sock in silent:
                assert read_close_code(held_sock) == 1008
                held_sock.close()
            raw.close()
            print("per_address_limit: 503 past the limit (attempt %d)" % attempt)
            return
        timed_out = sum(closed_already(held_sock) for held_sock in held)
        assert timed_out > 0, "the connection past maxConnectionsPerAddress got %r with all 5 held open" % head[:60]
        print("per_address_limit: attempt %d outlasted the hello timeout (%d of 5 closed before the sixth's %r)" %
              (attempt, timed_out, head[:12]))
        for held_sock in held + [sock]:
            close_and_wait(held_sock)
    raise AssertionError("5 attempts outlasted the hello timeout of 1 s")


def unread_replies(daemon):
    """Item 8: four connections send `describe` (900 every 0.1 s each, under
    maxCommandsPerSecond) and never read a reply. The daemon stops reading them
    (back-pressure): each one's socket stops taking bytes. While all four are held so, another
    client's set/ack round trips go on, and resident memory stays bounded.

    Counted, not timed: the flood goes on until the other client has had 20 round trips with
    every flooder held (each round trip within the hang guard) and the daemon has counted at least
    as many read pauses as there are flooders (`rivesync_transport_read_pauses_total`). It was
    "20 round trips in 12 s", which a loaded machine missed while the daemon was still answering
    the flood, filling the flooders' queues (7 to 16 round trips in 12 s at load 8 to 15)."""
    flooders = [hello(daemon.port)[0] for _ in range(4)]
    for sock in flooders:
        sock.setblocking(False)
    burst = b"".join(frame(1, json.dumps({"type": "describe", "id": i, "file": "demo"}).encode()) for i in range(900))
    other, _ = hello(daemon.port)
    before = daemon.resident_kib()
    pending = [memoryview(burst) for _ in flooders]
    round_trips = 0
    while_held = 0  # round trips in which every flooder's socket took less than it was offered
    next_burst = time.monotonic()
    while while_held < 20 or read_pauses(daemon.port) < len(flooders):
        if time.monotonic() >= next_burst:  # 900 per 0.1 s per connection; what does not fit waits
            next_burst += 0.1
            pending = [p if len(p) else memoryview(burst) for p in pending]
        held = 0
        for n, sock in enumerate(flooders):
            try:
                sent = sock.send(pending[n])
            except BlockingIOError:
                sent = 0
            held += sent < len(pending[n])
            pending[n] = pending[n][sent:]
        send_json(other, {"type": "set", "id": round_trips, "target": "lobby", "path": "title", "value": "t%d" % round_trips})
        while True:
            message = read_json(other)
            if message.get("id") == round_trips:
                assert message.get("type") == "ack", message
                break
        round_trips += 1
        while_held += held == len(flooders)
    after = daemon.resident_kib()
    pauses = read_pauses(daemon.port)
    print("unread_replies: RSS %d KiB before, %d after (growth %d KiB); %d round trips, %d of them with every flooder held; "
          "%d read pauses" % (before, after, after - before, round_trips, while_held, pauses))
    assert after - before < 60 * 1024, "resident memory grew by %d KiB" % (after - before)
    for sock in flooders:
        sock.close()
    other.close()


def read_pauses(port):
    """`rivesync_transport_read_pauses_total` from the daemon's /metrics: how often it stopped
    reading a session (back-pressure)."""
    import urllib.request
    with urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=HANG_GUARD) as response:
        text = response.read().decode()
    return int(re.search(r"^rivesync_transport_read_pauses_total (\d+)$", text, re.M).group(1))


def cpu_seconds(pid):
    """User + system CPU time of a process, from /proc/PID/stat."""
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def request(sock, message):
    """Sends a request and returns the reply with its id (other messages are skipped)."""
    send_json(sock, message)
    while True:
        reply = read_json(sock)
        if reply.get("id") == message["id"]:
            return reply


def max_targets(daemon):
    """Item 9: createStateMachine past maxTargets (40 here, 3 from the configuration) gets
    limit_exceeded and creates nothing; listTargets pages (limit/after → next) and the pages
    together list every target exactly once."""
    sock, welcome = hello(daemon.port)
    assert welcome["limits"]["maxTargets"] == 40, welcome["limits"]
    created = 0
    for i in range(60):
        reply = request(sock, {"type": "createStateMachine", "id": i + 10, "file": "demo", "artboard": "Lobby", "name": "room-%02d" % i})
        if reply["type"] == "target":
            created += 1
            continue
        assert reply["type"] == "error" and reply["code"] == "limit_exceeded", reply
        assert reply["details"]["limit"] == "maxTargets", reply
    assert created == 37, "created %d targets under maxTargets 40 (3 configured)" % created
    names, after, pages = [], None, 0
    while True:
        message = {"type": "listTargets", "id": 1000 + pages, "limit": 7}
        if after is not None:
            message["after"] = after
        reply = request(sock, message)
        assert reply["type"] == "targets", reply
        assert len(reply["targets"]) <= 7, len(reply["targets"])
        names += [target["name"] for target in reply["targets"]]
        pages += 1
        if "next" not in reply:
            break
        after = reply["next"]
    assert names == sorted(names) and len(set(names)) == len(names) == 40, (pages, names)
    whole = request(sock, {"type": "listTargets", "id": 2000})
    assert [t["name"] for t in whole["targets"]] == names and "next" not in whole, whole.get("next")
    sock.close()


def fd_exhaustion(daemon):
    """Item 10: under `ulimit -n 128`, 300 sockets (half of them upgraded) arrive. The daemon
    refuses what it cannot hold instead of spinning on accept() = EMFILE: it stays idle, and
    once the sockets are gone it serves again."""
    sockets = []
    refused = 0
    for i in range(300):
        try:
            sock = socket.create_connection(("127.0.0.1", daemon.port), timeout=5)
        except OSError:
            refused += 1
            continue
        if i % 2:
            try:
                sock.sendall(handshake_request())
            except OSError:
                refused += 1
        sockets.append(sock)
    assert_idle(daemon, "300 sockets under ulimit -n 128 (%d refused at connect)" % refused)
    for sock in sockets:  # gone from the daemon too before the fresh client of the check comes
        close_and_wait(sock)


def protocol_hygiene(daemon):
    """Item 12: past maxConnections (3 here) a handshake gets HTTP 503."""
    held = [hello(daemon.port)[0] for _ in range(3)]
    sock = connect(daemon.port)
    sock.sendall(handshake_request())
    head = read_http_head(sock)
    assert head.startswith("HTTP/1.1 503"), "a handshake past maxConnections got %r" % head[:60]
    sock.close()
    for sock in held:  # gone from the daemon too before the fresh client of the check comes
        close_and_wait(sock)


def tls_policy(daemon):
    """Item 12: TLS 1.2 at least, and only forward-secret ciphers: a TLS 1.1 client and a
    TLS 1.2 client offering only static-RSA key exchange are refused; ECDHE works; TLS 1.3 works."""
    import ssl

    def attempt(configure):
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        configure(context)
        raw = socket.create_connection(("127.0.0.1", daemon.port), timeout=10)
        try:
            with context.wrap_socket(raw) as tls:
                return tls.version(), tls.cipher()[0]
        except (ssl.SSLError, ConnectionResetError, OSError) as error:
            return None, str(error)

    def tls11(context):
        context.minimum_version = ssl.TLSVersion.TLSv1
        context.maximum_version = ssl.TLSVersion.TLSv1_1
        context.set_ciphers("ALL:@SECLEVEL=0")

    def static_rsa(context):
        context.maximum_version = ssl.TLSVersion.TLSv1_2
        context.set_ciphers("AES128-GCM-SHA256:AES256-GCM-SHA384:AES128-SHA256:AES128-SHA")

    def ecdhe(context):
        context.maximum_version = ssl.TLSVersion.TLSv1_2
        context.set_ciphers("ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES128-GCM-SHA256")

    version, detail = attempt(tls11)
    assert version is None, "a TLS 1.1 client was served (%s)" % detail
    version, detail = attempt(static_rsa)
    assert version is None, "a static-RSA cipher was accepted (%s)" % detail
    version, cipher = attempt(ecdhe)
    assert version == "TLSv1.2" and cipher.startswith("ECDHE-"), (version, cipher)
    version, cipher = attempt(lambda context: None)
    assert version == "TLSv1.3", (version, cipher)
    daemon.tls = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)  # for the check after the case
    daemon.tls.check_hostname = False
    daemon.tls.verify_mode = ssl.CERT_NONE


def tls_key_pair(directory):
    """A self-signed RSA certificate (so static-RSA ciphers would be possible)."""
    import subprocess
    cert, key = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
                    "-subj", "/CN=localhost"], check=True, capture_output=True)
    return cert, key


def configuration(directory, limits, extra=None):
    """Writes a configuration with the demo file, a published `theme` and the `lobby` state
    machine, anonymous loopback access and `limits`; returns the daemon arguments."""
    config = {
        "files": [{"name": "demo", "path": os.path.join(PACKAGE_ROOT, "protocol/examples/demo.schema.json")}],
        "instances": [{"name": "theme", "file": "demo", "viewModel": "Theme", "instance": "Light"}],
        "stateMachines": [{"name": "lobby", "file": "demo", "artboard": "Lobby", "globals": {"Theme": "theme"}},
                          {"name": "character", "file": "demo", "artboard": "Character", "globals": {"Theme": "theme"}}],
        "limits": limits,
        "auth": {"allowAnonymous": "loopback"},
    }
    config.update(extra or {})
    path = os.path.join(directory, "config.json")
    with open(path, "w") as out:
        json.dump(config, out)
    return ["--config", path]


class ClosedStderrDaemon:
    """rivesyncd whose stderr is a pipe that is closed once it listens (as under `| head`):
    the `Daemon` shape that `assert_serves_and_stops` needs."""

    def __init__(self, command):
        import subprocess
        self.proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.pid = self.proc.pid
        self.text = ""
        deadline = time.monotonic() + 20
        while "listening on" not in self.text:
            line = self.proc.stderr.readline().decode("utf-8", "replace")
            assert line and time.monotonic() < deadline, "rivesyncd did not start:\n" + self.text
            self.text += line
        self.port = int(re.search(r"listening on \S+:(\d+)", self.text).group(1))
        self.proc.stderr.close()

    def stderr(self):
        return self.text + "(stderr closed by the test)"

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
        return self.proc.wait()


def closed_stderr(directory):
    """Item 11: logging to a closed stderr must not kill the daemon (it died with SIGILL,
    exit 132): it logs on a refused Origin, a SIGHUP and SIGTERM, serves throughout and exits
    0; the TLS-setup error path exits 1 with its message lost, not 132."""
    import subprocess
    args = configuration(directory, {}, {"auth": {"allowAnonymous": "loopback", "allowedOrigins": ["https://app.example"]}})
    daemon = ClosedStderrDaemon([BINARY] + args + ["--port", "0"])
    try:
        sock = connect(daemon.port)
        sock.sendall(handshake_request(extra="Origin: https://evil.example\r\n"))
        assert read_http_head(sock).startswith("HTTP/1.1 101")
        # The refusal is logged before the close; the close itself sometimes ends in EOF without
        # the 1008 frame (about 3 in 40, fc7e991 alike; not this item), so either ending counts.
        try:
            assert read_close_code(sock) == 1008
        except EOFError:
            pass
        sock.close()
        daemon.proc.send_signal(signal.SIGHUP)
        time.sleep(0.5)
        took = assert_serves_and_stops(daemon)
        print("closed_stderr: served and stopped in %.2f s" % took)
    finally:
        daemon.stop()
    read_end, write_end = os.pipe()
    os.close(read_end)
    bad_tls = configuration(directory, {}, {"tls": {"certificate": "/nonexistent/cert.pem", "key": "/nonexistent/key.pem"}})
    status = subprocess.run([BINARY] + bad_tls + ["--port", "0"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=write_end, timeout=20).returncode
    os.close(write_end)
    assert status == 1, "a TLS setup failure with a closed stderr exited %s" % status


PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

# name → (case, daemon arguments from a scratch directory, shell prefix)
CASES = {
    "slow_subscriber": (slow_subscriber, lambda d: ["--demo"], None),
    "slow_subscribers_catch_up": (slow_subscribers_catch_up, lambda d: configuration(d, {"maxSendQueueBytes": 1 << 20}), None),
    "hello_timeout": (hello_timeout, lambda d: ["--demo"], None),
    "per_address_limit": (per_address_limit, lambda d: configuration(d, {"maxConnectionsPerAddress": 5, "helloTimeoutSeconds": 1}), None),
    "unread_replies": (unread_replies, lambda d: ["--demo"], None),
    "max_targets": (max_targets, lambda d: configuration(d, {"maxTargets": 40}), None),
    "fd_exhaustion": (fd_exhaustion, lambda d: ["--demo"], "ulimit -n 128"),
    "protocol_hygiene": (protocol_hygiene, lambda d: configuration(d, {"maxConnections": 3}), None),
    "tls_policy": (tls_policy, lambda d: configuration(d, {}, {"tls": dict(zip(("certificate", "key"), tls_key_pair(d)))}), None),
}


def main():
    import shutil
    import tempfile
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # let finally stop the daemon
    name = sys.argv[2]
    directory = tempfile.mkdtemp(prefix="rivesync-availability-")
    if name == "closed_stderr":
        try:
            closed_stderr(directory)
            print("ok closed_stderr")
        finally:
            shutil.rmtree(directory, ignore_errors=True)
        return
    case, arguments, shell = CASES[name]
    try:
        command = [BINARY] + arguments(directory) + ["--port", "0"]
        if shell:  # a limit set in a shell that then becomes the daemon (exec keeps the pid)
            command = ["/bin/sh", "-c", shell + ' && exec "$@"', "sh"] + command
        daemon = Daemon(command[0], command[1:])
        try:
            case(daemon)
            took = assert_serves_and_stops(daemon)
            print("ok %s (stopped in %.2f s)" % (name, took))
        finally:
            daemon.stop()
    finally:
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
