"""Raw WebSocket (RFC 6455) client pieces and a daemon launcher for rivesyncd's robustness and
supervision tests. Python 3 standard library only; every blocking call has a timeout (hang
guard), none of them is a timing assertion."""

import base64
import json
import os
import re
import select
import signal
import socket
import struct
import subprocess
import threading
import time

HANG_GUARD = 20.0


class Daemon:
    """A real rivesyncd child. stderr is collected on a thread; the port comes from its
    'listening on HOST:PORT' line. Always stop() it (SIGTERM, then SIGKILL after the guard)."""

    def __init__(self, binary, args, env=None, ready=r"listening on \S+"):
        self.proc = subprocess.Popen([binary] + args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, env=env)
        self.lines = []
        self.cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        try:
            line = self.wait_for(ready)
        except BaseException:
            self.proc.kill()
            self.proc.wait()
            raise
        match = re.search(r"listening on \S+:(\d+)", line)
        self.port = int(match.group(1)) if match else None

    def _read(self):
        for raw in self.proc.stderr:
            with self.cond:
                self.lines.append(raw.decode("utf-8", "replace"))
                self.cond.notify_all()
        with self.cond:
            self.cond.notify_all()

    @property
    def pid(self):
        return self.proc.pid

    def stderr(self):
        with self.cond:
            return "".join(self.lines)

    def wait_for(self, pattern, start=0):
        """Returns the first stderr line (from index `start`) matching `pattern`."""
        deadline = time.monotonic() + HANG_GUARD
        with self.cond:
            while True:
                for line in self.lines[start:]:
                    if re.search(pattern, line):
                        return line
                if self.proc.poll() is not None and not self._reader_alive():
                    raise AssertionError("rivesyncd exited (%s) before %r:\n%s" % (self.proc.returncode, pattern, "".join(self.lines)))
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError("no stderr line matching %r:\n%s" % (pattern, "".join(self.lines)))
                self.cond.wait(min(remaining, 0.2))

    def _reader_alive(self):
        return not self.proc.stderr.closed and self.proc.poll() is None

    def line_count(self):
        with self.cond:
            return len(self.lines)

    def signal(self, number):
        self.proc.send_signal(number)

    def stop(self):
        """SIGTERM and wait; returns the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(HANG_GUARD)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode

    def resident_kib(self):
        with open("/proc/%d/status" % self.pid) as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        raise AssertionError("no VmRSS for %d" % self.pid)


def connect(port, host="127.0.0.1"):
    sock = socket.create_connection((host, port), timeout=HANG_GUARD)
    sock.settimeout(HANG_GUARD)
    return sock


def handshake_request(key=None, subprotocol="rivesync.v1", extra=""):
    key = key if key is not None else base64.b64encode(os.urandom(16)).decode()
    lines = ["GET / HTTP/1.1", "Host: 127.0.0.1", "Upgrade: websocket", "Connection: Upgrade",
             "Sec-WebSocket-Key: " + key, "Sec-WebSocket-Version: 13"]
    if subprotocol:
        lines.append("Sec-WebSocket-Protocol: " + subprotocol)
    return ("\r\n".join(lines) + "\r\n" + extra + "\r\n").encode()


def read_http_head(sock):
    """Reads up to the blank line (or EOF); returns the head as text."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    return data.decode("latin-1")


def upgrade(port):
    """A connected socket after a successful handshake."""
    sock = connect(port)
    sock.sendall(handshake_request())
    head = read_http_head(sock)
    if not head.startswith("HTTP/1.1 101"):
        raise AssertionError("handshake refused: %r" % head)
    return sock


def closed_already(sock):
    """Whether the daemon has closed `sock` (or sent it anything) by now, without waiting: on
    loopback what the daemon wrote before its last answer elsewhere has arrived already."""
    return bool(select.select([sock], [], [], 0)[0])


def close_and_wait(sock):
    """Half-closes `sock` and reads until the daemon closes its side (EOF or reset): the daemon
    has then closed the connection and given its place in the connection limits back, before it
    serves anything else."""
    sock.settimeout(HANG_GUARD)
    try:
        sock.shutdown(socket.SHUT_WR)
        while sock.recv(65536):
            pass
    except socket.timeout:
        raise AssertionError("the daemon kept a half-closed connection open for %.0f s" % HANG_GUARD)
    except OSError:
        pass  # reset, or not connected any more: closed by the daemon too
    finally:
        sock.close()


def frame(opcode, payload=b"", fin=True, rsv=0, masked=True, length=None):
    """One client frame; `length` overrides the encoded payload length (lying headers)."""
    n = len(payload) if length is None else length
    head = bytes([(0x80 if fin else 0) | (rsv << 4) | opcode])
    mask_bit = 0x80 if masked else 0
    if n < 126:
        head += bytes([mask_bit | n])
    elif n < 65536:
        head += bytes([mask_bit | 126]) + struct.pack("!H", n)
    else:
        head += bytes([mask_bit | 127]) + struct.pack("!Q", n)
    if not masked:
        return head + payload
    key = os.urandom(4)
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


def read_exact(sock, count):
    data = b""
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise EOFError("connection closed after %d of %d bytes" % (len(data), count))
        data += chunk
    return data


def read_frame(sock):
    """(opcode, payload) of the next server frame."""
    b0, b1 = read_exact(sock, 2)
    n = b1 & 0x7F
    if n == 126:
        n = struct.unpack("!H", read_exact(sock, 2))[0]
    elif n == 127:
        n = struct.unpack("!Q", read_exact(sock, 8))[0]
    return b0 & 0x0F, read_exact(sock, n)


def read_close_code(sock):
    """Skips data frames up to a close frame; returns its status code (None for an empty close).
    Raises EOFError when TCP ends without a close frame."""
    while True:
        opcode, payload = read_frame(sock)
        if opcode == 8:
            return struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None


def send_json(sock, message):
    sock.sendall(frame(1, json.dumps(message).encode()))


def read_json(sock):
    while True:
        opcode, payload = read_frame(sock)
        if opcode == 1:
            return json.loads(payload)
        if opcode == 8:
            raise AssertionError("closed while waiting for a message: %r" % payload)


def hello(port):
    """A greeted protocol connection and the welcome message."""
    sock = upgrade(port)
    send_json(sock, {"type": "hello", "protocol": [1], "id": 1})
    welcome = read_json(sock)
    if welcome.get("type") != "welcome":
        raise AssertionError("expected welcome, got %r" % welcome)
    return sock, welcome


def assert_serves_and_stops(daemon, seconds_to_read=1.0, seconds_to_stop=5.0):
    """The check after every availability case: a fresh client connects, says hello and reads
    its welcome within `seconds_to_read`, and SIGTERM then stops the daemon (exit 0) within
    `seconds_to_stop` (a `tls` attribute of the daemon, an ssl.SSLContext, makes the client
    use TLS). Both are the issue's promises, measured with a wall clock; they fail
    by whole seconds when the service thread is wedged, not by milliseconds of load."""
    assert daemon.proc.poll() is None, "rivesyncd died (%s):\n%s" % (daemon.proc.returncode, daemon.stderr())
    started = time.monotonic()
    sock = socket.create_connection(("127.0.0.1", daemon.port), timeout=seconds_to_read)
    if getattr(daemon, "tls", None):
        sock = daemon.tls.wrap_socket(sock)
    try:
        sock.settimeout(max(0.05, seconds_to_read - (time.monotonic() - started)))
        sock.sendall(handshake_request())
        head = read_http_head(sock)
        assert head.startswith("HTTP/1.1 101"), "fresh client refused: %r" % head[:60]
        send_json(sock, {"type": "hello", "protocol": [1], "id": 1})
        welcome = read_json(sock)
        assert welcome.get("type") == "welcome", "fresh client got %r" % welcome
    except socket.timeout:
        raise AssertionError("a fresh client did not get its welcome within %.1f s" % seconds_to_read)
    finally:
        sock.close()
    started = time.monotonic()
    daemon.proc.send_signal(signal.SIGTERM)
    try:
        status = daemon.proc.wait(seconds_to_stop)
    except subprocess.TimeoutExpired:
        daemon.proc.kill()
        daemon.proc.wait()
        raise AssertionError("SIGTERM did not stop rivesyncd within %.0f s" % seconds_to_stop)
    assert status == 0, "rivesyncd exited %s after SIGTERM:\n%s" % (status, daemon.stderr())
    return time.monotonic() - started

