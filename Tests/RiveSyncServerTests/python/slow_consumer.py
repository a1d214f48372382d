"""A subscriber that stops reading: stdlib sockets only (through wsraw).

Connects to rivesyncd, says hello, subscribes to target `lobby` path `title`, prints `ready`,
then reads nothing until a line arrives on stdin (the title the test wrote last). Then it
reads everything the daemon sent and exits 0 once it has seen that title, printing a JSON
summary: whether a catch-up snapshot replaced missed batches, how many batches it read.
"""
import json
import sys

import wsraw


def main(port):
    sock = wsraw.upgrade(port, receive_buffer=4096)
    wsraw.send_json(sock, {"type": "hello", "id": 1, "protocol": [1]})
    assert wsraw.read_message(sock)["type"] == "welcome"
    wsraw.send_json(sock, {"type": "subscribe", "id": 2, "target": "lobby", "paths": ["title"]})
    snapshot = wsraw.read_message(sock)
    assert snapshot["type"] == "snapshot", snapshot
    print("ready", flush=True)
    expected = sys.stdin.readline().strip()
    sock.settimeout(60)
    catch_up = False
    batches = 0
    title = snapshot["values"]["title"]
    last_seq = snapshot["seq"]
    while title != expected:
        message = wsraw.read_message(sock)
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
