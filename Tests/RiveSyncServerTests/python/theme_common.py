"""What the two Theme test processes share (theme_subscriber.py, theme_writer.py): a tiny
client over Debian's python3-websockets (asyncio API), from PROTOCOL.md's shapes."""
import asyncio
import json
import signal
import sys

import websockets

TIMEOUT = 30  # seconds for one message; a hang guard only


class Failure(Exception):
    pass


class Client:
    def __init__(self, ws):
        self.ws = ws
        self.next_id = 0
        self.pending = []  # messages that are not the awaited reply (batches), in order

    async def receive(self, what):
        try:
            return json.loads(await asyncio.wait_for(self.ws.recv(), TIMEOUT))
        except asyncio.TimeoutError:
            raise Failure(f"nothing received within {TIMEOUT} s while waiting for {what}")

    async def request(self, message, expect_type):
        self.next_id += 1
        message = dict(message, id=self.next_id)
        await self.ws.send(json.dumps(message))
        while True:
            reply = await self.receive(f"the reply to {message}")
            if reply.get("id") == self.next_id and reply.get("type") != "batch":
                break
            self.pending.append(reply)
        if reply.get("type") != expect_type:
            raise Failure(f"expected '{expect_type}' for {message}, got {reply}")
        return reply

    async def next_batch(self, what):
        while True:
            message = self.pending.pop(0) if self.pending else await self.receive(what)
            if message.get("type") == "batch":
                return message
            raise Failure(f"expected a batch ({what}), got {message}")


async def shared_theme_instance(client):
    """The global Theme instance published as `theme`, checked to be the one bound in the
    `character` state machine's Theme slot."""
    targets = {t["name"]: t for t in (await client.request({"type": "listTargets"}, "targets"))["targets"]}
    theme = {b["slot"]: b["instance"] for b in targets["theme"]["bindings"]}["main"]
    character = {b["slot"]: b["instance"] for b in targets["character"]["bindings"]}.get("Theme")
    if character != theme:
        raise Failure(f"character's Theme slot holds {character}, the published theme is {theme}")
    return theme


def run(main):
    """Runs `main(client)` on a connection to sys.argv[1] that is closed at the end."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    async def session():
        async with websockets.connect(sys.argv[1], subprotocols=["rivesync.v1"]) as ws:
            client = Client(ws)
            await client.request({"type": "hello", "protocol": [1]}, "welcome")
            await main(client)

    try:
        asyncio.run(session())
    except Failure as failure:
        print(f"FAILED: {failure}", flush=True)
        sys.exit(1)
    except (OSError, websockets.ConnectionClosed) as error:
        print(f"FAILED: connection: {error!r}", flush=True)
        sys.exit(1)
