"""An independent check of transactions and authors on the wire (PROTOCOL.md §16, §17),
written from the protocol text only.

Usage: /usr/bin/python3 transaction_client.py ws://127.0.0.1:PORT/

Against `rivesyncd --demo` (anonymous, loopback) with Debian's `python3-websockets`: a
subscriber of `theme` and a writer that says hello with a `client` name. The writer sends a
theme switch of three sets as one transaction; the reply must be an `ack` whose `commands` are
three increasing integers starting at `command`, and the subscriber's next message one batch
whose `commands` are the same numbers and whose `authors` are one `{"client": …}` per command
(no `token`: the connection is anonymous). Then a transaction whose second command fails must
be an error with `details.commandIndex` 1, and the theme must be unchanged.

Exit status 0 when everything matched; 1 with a message naming the first difference.
"""
import asyncio
import json
import sys

import websockets

TIMEOUT = 20  # seconds for one message; a hang guard only


class Failure(Exception):
    pass


def check(condition, what):
    if not condition:
        raise Failure(what)


async def receive(ws, what):
    try:
        return json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
    except asyncio.TimeoutError:
        raise Failure(f"nothing within {TIMEOUT} s while waiting for {what}")


async def hello(url, client=None):
    ws = await websockets.connect(url, subprotocols=["rivesync.v1"])
    message = {"type": "hello", "id": 0, "protocol": [1]}
    if client is not None:
        message["client"] = client
    await ws.send(json.dumps(message))
    welcome = await receive(ws, "welcome")
    check(welcome["type"] == "welcome", f"expected welcome, got {welcome}")
    check(welcome["limits"].get("maxTransactionCommands") == 256, f"welcome limits: {welcome['limits']}")
    return ws


async def main(url):
    watcher = await hello(url)
    writer = await hello(url, client="independent/1")
    await watcher.send(json.dumps({"type": "subscribe", "id": 1, "target": "theme"}))
    snapshot = await receive(watcher, "snapshot")
    check(snapshot["type"] == "snapshot", f"expected snapshot, got {snapshot}")

    switch = [
        {"type": "set", "path": "name", "value": "Dark"},
        {"type": "set", "path": "background", "value": "#FF121212"},
        {"type": "set", "path": "foreground", "value": "#FFF2F2F2"},
    ]
    await writer.send(json.dumps({"type": "transaction", "id": 7, "target": "theme", "commands": switch}))
    ack = await receive(writer, "the transaction's ack")
    check(ack["type"] == "ack" and ack["id"] == 7, f"expected the ack, got {ack}")
    numbers = ack["commands"]
    check(isinstance(numbers, list) and len(numbers) == 3 and all(isinstance(n, int) for n in numbers), f"ack commands: {ack}")
    check(numbers[0] == ack["command"] and numbers == sorted(set(numbers)), f"ack command and commands: {ack}")

    batch = await receive(watcher, "the theme batch")
    check(batch["type"] == "batch" and batch["seq"] == ack["seq"], f"expected the batch of seq {ack['seq']}, got {batch}")
    check(batch["commands"] == numbers, f"batch commands {batch['commands']} != ack commands {numbers}")
    check(batch["authors"] == [{"client": "independent/1"}] * 3, f"batch authors: {batch.get('authors')}")
    values = {effect["paths"][0]: effect["value"] for effect in batch["effects"]}
    check(values == {"name": "Dark", "background": "#FF121212", "foreground": "#FFF2F2F2"}, f"batch effects: {batch['effects']}")

    bad = [{"type": "set", "path": "name", "value": "Half"}, {"type": "listRemoveAt", "path": "name", "index": 0}]
    await writer.send(json.dumps({"type": "transaction", "id": 8, "target": "theme", "commands": bad}))
    error = await receive(writer, "the failed transaction's error")
    check(error["type"] == "error" and error["id"] == 8, f"expected an error, got {error}")
    check(error["details"]["commandIndex"] == 1, f"the failing index: {error}")
    await writer.send(json.dumps({"type": "get", "id": 9, "target": "theme", "path": "name"}))
    value = await receive(writer, "the name")
    check(value["type"] == "value" and value["value"] == "Dark" and value["seq"] == ack["seq"], f"nothing applied: {value}")
    await watcher.close()
    await writer.close()


if __name__ == "__main__":
    try:
        asyncio.run(main(sys.argv[1]))
    except Failure as failure:
        print(f"FAIL: {failure}")
        sys.exit(1)
    print("ok")
