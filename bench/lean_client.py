"""A lean WebSocket client for round-trip timings (bench/first_write.py, issue 14 item 4).

One blocking TCP socket (30 s timeout, so CPython polls before each call) with TCP_NODELAY and
hand-written RFC 6455 framing: a request is one `sendall` of a frame built before the clock
starts, a reply one or two `recv`s, with no event loop, no tasks and no library between the
socket and the timing. What it times is the loopback round trip and the daemon; first_write.py's
bare TCP echo through the same kind of loop shows the round trip alone.
"""

import base64
import hashlib
import json
import os
import socket
import struct

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
TEXT, CLOSE, PING, PONG = 0x1, 0x8, 0x9, 0xA


def accept_key(key):
    """The Sec-WebSocket-Accept a server must answer to `key` (RFC 6455 §4.2.2)."""
    return base64.b64encode(hashlib.sha1(key + GUID).digest())


def frame(opcode, payload, mask=None):
    """One final, masked client frame (RFC 6455 §5.2); `mask` (4 bytes) is random unless given."""
    mask = os.urandom(4) if mask is None else mask
    length = len(payload)
    if length < 126:
        header = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
    elif length < 1 << 16:
        header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
    else:
        header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
    repeated = (mask * (length // 4 + 1))[:length]
    masked = (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(length, "big")
    return header + mask + masked


def text_frame(message):
    """The frame of a JSON request."""
    return frame(TEXT, json.dumps(message).encode())


class FrameReader:
    """Splits a server's byte stream into (fin, opcode, payload) frames (unmasked, §5.1)."""

    def __init__(self):
        self.buffer = b""

    def feed(self, data):
        self.buffer += data

    def next_frame(self):
        """The next whole frame, or None until more bytes are fed."""
        if len(self.buffer) < 2:
            return None
        first, second = self.buffer[0], self.buffer[1]
        if second & 0x80:
            raise ValueError("a server frame is masked")
        length, offset = second & 0x7F, 2
        if length == 126:
            if len(self.buffer) < 4:
                return None
            length, offset = struct.unpack_from("!H", self.buffer, 2)[0], 4
        elif length == 127:
            if len(self.buffer) < 10:
                return None
            length, offset = struct.unpack_from("!Q", self.buffer, 2)[0], 10
        if len(self.buffer) < offset + length:
            return None
        payload = self.buffer[offset : offset + length]
        self.buffer = self.buffer[offset + length :]
        return bool(first & 0x80), first & 0x0F, payload


class LeanClient:
    """A connected, greeted client; `request` sends a prepared frame and waits for its reply."""

    def __init__(self, port, name="first_write.py lean"):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.reader = FrameReader()
        key = base64.b64encode(os.urandom(16))
        self.sock.sendall(
            b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            b"Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % (port, key))
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            head += chunk
        head, rest = head.split(b"\r\n\r\n", 1)
        lines = head.split(b"\r\n")
        if not lines[0].startswith(b"HTTP/1.1 101"):
            raise ConnectionError(f"handshake refused: {lines[0]!r}")
        headers = dict(line.split(b":", 1) for line in lines[1:])
        accept = {k.strip().lower(): v.strip() for k, v in headers.items()}.get(b"sec-websocket-accept")
        if accept != accept_key(key):
            raise ConnectionError(f"wrong Sec-WebSocket-Accept {accept!r}")
        self.reader.feed(rest)
        welcome = self.request(text_frame({"type": "hello", "id": 0, "protocol": [1], "client": name}), 0)
        if welcome["type"] != "welcome":
            raise ConnectionError(f"no welcome: {welcome}")

    def receive(self):
        """The next text message, decoded; answers pings, reassembles fragments."""
        parts = []
        while True:
            got = self.reader.next_frame()
            if got is None:
                chunk = self.sock.recv(65536)
                if not chunk:
                    raise ConnectionError("the server closed the connection")
                self.reader.feed(chunk)
                continue
            fin, opcode, payload = got
            if opcode == PING:
                self.sock.sendall(frame(PONG, payload))
            elif opcode == CLOSE:
                raise ConnectionError(f"the server sent close {payload!r}")
            elif opcode != PONG:
                parts.append(payload)
                if fin:
                    return json.loads(b"".join(parts))

    def request(self, prepared, request_id):
        """Sends `prepared` (a frame) and returns the reply carrying `request_id`."""
        self.sock.sendall(prepared)
        while True:
            reply = self.receive()
            if reply.get("id") == request_id:
                return reply

    def close(self):
        try:
            self.sock.sendall(frame(CLOSE, struct.pack("!H", 1000)))
        finally:
            self.sock.close()
