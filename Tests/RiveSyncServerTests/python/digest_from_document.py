"""Recomputes the daemon's state digest from PROTOCOL.md §7 ("State digest") alone.

Run against a `rivesyncd --demo` (which accepts files from clients): it loads a file with a
property of every type, gives the values something to say (assets, nested and listed
instances, a fired trigger, a bound global), subscribes to each target, computes the
digest of the snapshot as the document describes, and compares it with the daemon's
`digest` reply at the same seq. Also checks the document's worked example byte for byte.

Usage: digest_from_document.py ws://127.0.0.1:PORT/
"""
import asyncio
import base64
import hashlib
import json
import struct
import sys

import websockets

FILE = {
    "rivesyncSchema": 1,
    "enums": [{"name": "Size", "values": ["small", "large"]}],
    "viewModels": [
        {"name": "Item", "properties": [{"name": "label", "type": "string"}]},
        {"name": "Dot", "properties": [{"name": "on", "type": "boolean"}, {"name": "x", "type": "number"}]},
        {"name": "Palette", "global": True, "properties": [{"name": "tint", "type": "color"}]},
        {"name": "Everything", "properties": [
            {"name": "n", "type": "number"}, {"name": "s", "type": "string"}, {"name": "b", "type": "boolean"},
            {"name": "c", "type": "color"}, {"name": "e", "type": "enum", "enum": "Size"},
            {"name": "t", "type": "trigger"}, {"name": "items", "type": "list"},
            {"name": "child", "type": "viewModel", "viewModel": "Item"},
            {"name": "image", "type": "assetImage"}, {"name": "font", "type": "assetFont"},
            {"name": "blob", "type": "assetBlob"}, {"name": "art", "type": "artboard"},
            {"name": "symbol", "type": "symbolListIndex"}, {"name": "ünïcode", "type": "string"}]},
    ],
    "artboards": [{"name": "Main", "viewModel": "Everything", "stateMachines": ["run"]}],
    "assets": [{"name": "logo", "kind": "image"}],
}
PNG = base64.b64encode(bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + b"\0\0\0\rIHDR").decode()


class Failure(Exception):
    pass


def u64(value):
    return struct.pack(">Q", value)


def text(value):
    data = value.encode("utf-8")
    return u64(len(data)) + data


def value_bytes(kind, value):
    """One value's tag and payload, by the property's type (PROTOCOL.md §7)."""
    if kind == "number":
        return b"\x01" + u64(struct.unpack(">I", struct.pack(">f", value))[0])
    if kind == "string":
        return b"\x02" + text(value)
    if kind == "boolean":
        return b"\x04" if value else b"\x03"
    if kind == "color":
        return b"\x05" + u64(int(value[1:], 16))
    if kind == "enum":
        return b"\x06" + text(value)
    if kind == "trigger":
        return b"\x07" + u64(value)
    if kind == "viewModel":
        return b"\x08" + u64(value["instance"] if value else 0)
    if kind == "list":
        return b"\x09" + u64(len(value)) + b"".join(u64(item) for item in value)
    if kind in ("assetImage", "assetFont", "assetBlob"):
        value = value or {}
        return b"\x0a" + text(value.get("id", "")) + u64(value.get("bytes", 0)) + text(value.get("mediaType", ""))
    if kind == "artboard":
        return b"\x0b" + text(value or "") + (b"\x01" if value is not None else b"\x00")
    if kind == "symbolListIndex":
        return b"\x0c" + u64(value)
    raise Failure(f"no digest form for type {kind}")


def canonical(snapshot, types):
    """The canonical bytes of a whole-target snapshot; `types` maps view model → property → type."""
    out = b""
    for binding in snapshot["bindings"]:
        out += text(binding["slot"]) + u64(binding["instance"] or 0)
    for state in sorted(snapshot["instances"], key=lambda s: s["id"]):
        out += u64(state["id"]) + text(state["viewModel"]) + text(state["name"])
        for name in sorted(state["values"], key=lambda n: n.encode("utf-8")):
            out += text(name) + value_bytes(types[state["viewModel"]][name], state["values"][name])
    return out


def document_example():
    """The worked example's input and hex from PROTOCOL.md."""
    import os
    path = os.path.join(os.path.dirname(__file__), "../../../protocol/PROTOCOL.md")
    with open(path, encoding="utf-8") as handle:
        document = handle.read()
    section = document.split("**State digest**", 1)[1].split("\n## ", 1)[0]
    blocks = section.split("```")
    snapshot = json.loads(blocks[1].split("\n", 1)[1])
    hex_lines = blocks[3].split("\n", 1)[1]
    digest = section.split("digest `", 1)[1].split("`", 1)[0]
    return snapshot, bytes.fromhex("".join(hex_lines.split())), digest


class Client:
    def __init__(self, ws):
        self.ws = ws
        self.next_id = 0

    async def request(self, message):
        self.next_id += 1
        await self.ws.send(json.dumps({"id": self.next_id, **message}))
        while True:
            reply = json.loads(await asyncio.wait_for(self.ws.recv(), 10))
            if reply.get("id") == self.next_id:
                if reply["type"] == "error":
                    raise Failure(f"{message['type']}: {reply}")
                return reply


async def main(url):
    example, example_bytes, example_digest = document_example()
    dot_types = {"Dot": {"on": "boolean", "x": "number"}}
    if canonical(example, dot_types) != example_bytes:
        raise Failure(f"the document's example bytes differ from its rules:\n{canonical(example, dot_types).hex()}")
    if hashlib.sha256(example_bytes).hexdigest() != example_digest:
        raise Failure("the document's example digest is not the SHA-256 of its bytes")
    checked = 0
    async with websockets.connect(url, max_size=None) as ws:
        c = Client(ws)
        await c.request({"type": "hello", "protocol": [1]})
        await c.request({"type": "loadFile", "name": "digests", "schema": FILE})
        described = (await c.request({"type": "describe", "file": "digests"}))["schema"]
        types = {vm["name"]: {p["name"]: p["type"] for p in vm["properties"]} for vm in described["viewModels"]}
        for file in ("demo",):
            schema = (await c.request({"type": "describe", "file": file}))["schema"]
            for vm in schema["viewModels"]:
                types[vm["name"]] = {p["name"]: p["type"] for p in vm["properties"]}
        # The document's example, live: a published blank Dot after set x 1.5.
        await c.request({"type": "createInstance", "file": "digests", "source": {"blank": {"viewModel": "Dot"}}, "publish": "dot"})
        await c.request({"type": "set", "target": "dot", "path": "x", "value": 1.5})
        # A state machine with every type, nested and listed instances, a global.
        image = (await c.request({"type": "upload", "kind": "image", "data": PNG}))["asset"]
        await c.request({"type": "createStateMachine", "file": "digests", "artboard": "Main", "name": "all"})
        item = (await c.request({"type": "createInstance", "file": "digests", "source": {"blank": {"viewModel": "Item"}}}))["instance"]
        for path, value in [("n", -2.1), ("s", "ünï ☃"), ("b", True), ("c", "#80FF0000"), ("e", "large"), ("child", {"instance": item}),
                            ("child/label", "nested"), ("image", image), ("blob", None), ("art", "Main"), ("symbol", 3),
                            ("ünïcode", "x"), ("@Palette/tint", "#FF123456")]:
            await c.request({"type": "set", "target": "all", "path": path, "value": value})
        await c.request({"type": "fire", "target": "all", "path": "t"})
        await c.request({"type": "listAppend", "target": "all", "path": "items", "instance": item})
        await c.request({"type": "listAppend", "target": "all", "path": "items", "instance": item})
        for target in ["dot", "all", "theme", "character", "lobby"]:
            snapshot = await c.request({"type": "subscribe", "target": target})
            digest = await c.request({"type": "digest", "target": target})
            if digest["seq"] != snapshot["seq"]:
                raise Failure(f"{target}: the target advanced between snapshot and digest")
            mine = hashlib.sha256(canonical(snapshot, types)).hexdigest()
            if mine != digest["digest"]:
                raise Failure(f"{target}: digest from the document {mine}, the daemon's {digest['digest']}\n{json.dumps(snapshot)}")
            checked += 1
            await c.request({"type": "unsubscribe", "target": target})
    print(f"digest_from_document: the worked example and {checked} live targets agree")


if __name__ == "__main__":
    try:
        asyncio.run(main(sys.argv[1]))
    except Failure as error:
        print(f"FAILED: {error}")
        sys.exit(1)
