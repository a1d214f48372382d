"""A subscriber that stops reading: stdlib sockets only.

Connects to rivesyncd, says hello, subscribes to target `lobby` path `title`, prints `ready`,
then reads nothing until a line arrives on stdin (the title the test wrote last). Then it
reads everything the daemon sent and exits 0 once it has seen that title, printing a JSON
summary: whether a catch-up snapshot replaced missed batches, how many batches it read.
"""
import json
import os
import socket
import struct
import sys


def send_frame(sock, text):
    payload = text.encode()
    mask = os.urandom(4)
    header = bytes([0x81])
    if len(payload) < 126:
        header += bytes([0x80 | len(payload)])
    elif len(payload) < 65536:
        header += bytes([0x80 | 126]) + struct.pack("!H", len(payload))
    else:
        header += bytes([0x80 | 127]) + struct.pack("!Q", len(payload))
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    sock.sendall(header + mask + masked)


def read_exact(sock, count):
    data = b""
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise EOFError("connection closed")
        data += chunk
    return data


def read_message(sock):
    message = b""
    while True:
        first, second = read_exact(sock, 2)
        length = second & 0x7F
        if length == 126:
            length = struct.unpack("!H", read_exact(sock, 2))[0]
        elif length == 127:
            length = struct.unpack("!Q", read_exact(sock, 8))[0]
        payload = read_exact(sock, length)
        opcode = first & 0x0F
        if opcode == 8:
            raise EOFError("close frame")
        if opcode in (9, 10):
            continue
        message += payload
        if first & 0x80:
            return json.loads(message)


def main(port):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    key = "dGhlIHNhbXBsZSBub25jZQ=="
    sock.sendall(("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n"
                  "Sec-WebSocket-Protocol: rivesync.v1\r\n\r\n" % key).encode())
    response = b""
    while b"\r\n\r\n" not in response:
        response += sock.recv(1)
    assert response.startswith(b"HTTP/1.1 101"), response
    send_frame(sock, json.dumps({"type": "hello", "id": 1, "protocol": [1]}))
    assert read_message(sock)["type"] == "welcome"
    send_frame(sock, json.dumps({"type": "subscribe", "id": 2, "target": "lobby", "paths": ["title"]}))
    snapshot = read_message(sock)
    assert snapshot["type"] == "snapshot", snapshot
    print("ready", flush=True)
    expected = sys.stdin.readline().strip()
    sock.settimeout(60)
    catch_up = False
    batches = 0
    title = snapshot["values"]["title"]
    last_seq = snapshot["seq"]
    while title != expected:
        message = read_message(sock)
        if message["type"] == "snapshot" and message.get("reason") == "catchUp":
            catch_up = True
            title = message["values"]["title"]
            last_seq = message["seq"]
        elif message["type"] == "batch":
            assert message["seq"] > last_seq, (message["seq"], last_seq)
            last_seq = message["seq"]
            batches += 1
            for effect in message["effects"]:
                if effect["paths"] == ["title"]:
                    title = effect["value"]
    print(json.dumps({"catchUp": catch_up, "batches": batches, "seq": last_seq}), flush=True)
    return 0 if catch_up else 1


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1])))
