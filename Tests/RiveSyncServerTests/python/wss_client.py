"""Connects to rivesyncd over wss:// with full certificate verification (chain against CAFILE,
host name), says hello with TOKEN, sends REQUEST (JSON) and prints both replies as JSON lines.

usage: wss_client.py URL CAFILE TOKEN REQUEST
Needs the websockets package (python3-websockets); every wait has a hang guard."""

import asyncio
import json
import ssl
import sys

import websockets


async def main(url, cafile, token, request):
    context = ssl.create_default_context(cafile=cafile)
    async with websockets.connect(url, ssl=context, subprotocols=["rivesync.v1"], open_timeout=20) as ws:
        for message in ({"type": "hello", "id": 1, "protocol": [1], "token": token}, dict(json.loads(request), id=2)):
            await ws.send(json.dumps(message))
            print(await asyncio.wait_for(ws.recv(), 20), flush=True)


asyncio.run(main(*sys.argv[1:]))
