"""Checks the protocol's JSON Schemas (protocol/schemas/) against real messages.

Usage: python3 validate_messages.py [--daemon PATH] [--root PACKAGE_ROOT]

Needs the PyPI packages `jsonschema` and `websockets` (.ci/setup.sh installs both for the
`python3` on PATH). Three parts, each stopping at the first problem with exit status 1:

1. Every schema file is a valid draft 2020-12 schema, and there is exactly one per message
   type of PROTOCOL.md.
2. Every case of protocol/conformance/ runs against a fresh `rivesyncd --demo`: each `send`
   (with its `$variables` bound from earlier replies) must match its request schema — except
   the sends the case expects to be refused as malformed (`bad_message` naming a field, or
   `unknown_type`), which must NOT match — and every message received must match its
   server schema.
3. A session against `rivesyncd --demo` sends every request type (and every value type, on a
   file it loads itself) and validates every reply, batch and error it receives. At the end
   every server message type must have been seen at least once.

Before them, without a daemon: every example of protocol/examples/ matches
file-schema.schema.json, and every message in a ```json block of PROTOCOL.md matches its
schema (a client request or a server message of its `type`; the `source` fragments of §6
inside a `createInstance`). The document's elisions are understood: a member `"...": 0`
stands for members left out (the object's missing required members are not errors), as does `, …}`;
`, …]` stands for more items, and `{…}` / `[…]` for a value left out (anything goes there).
"""
import argparse
import asyncio
import base64
import glob
import json
import os
import re
import signal
import subprocess
import sys
import threading

try:
    import jsonschema
    import websockets
    from referencing import Registry, Resource
except ImportError as error:  # pragma: no cover
    print(f"validate_messages.py: missing Python package ({error}); run: python3 -m pip install jsonschema websockets")
    sys.exit(2)

CLIENT_TYPES = [
    "hello", "listFiles", "listTargets", "describe", "viewModelNames", "globalViewModelNames", "instanceNames",
    "properties", "enums", "artboardNames", "stateMachineNames", "defaultViewModelInfo", "createInstance",
    "createStateMachine", "publish", "bind", "subscribe", "unsubscribe", "get", "set", "fire", "listAppend",
    "listInsert", "listRemoveAt", "listRemove", "listSwap", "setInput", "fireInput", "setBindTarget", "advance", "digest", "ping", "upload", "loadFile",
    "deleteTarget", "presenceJoin", "presenceUpdate", "presenceLeave", "presenceList", "transaction",
]
SERVER_TYPES = [
    "welcome", "error", "names", "properties", "enums", "files", "filePart", "targets", "target", "schema", "defaultViewModelInfo",
    "instance", "snapshot", "subscribed", "unsubscribed", "batch", "ack", "value", "advanced", "digest", "pong", "asset",
    "targetDeleted", "freshness", "presence", "presenceJoined", "presenceUpdated", "presenceLeft", "presenceMembers",
]
# Sent only by a cluster node that cannot read the cluster's log (PROTOCOL.md §7.1): a single
# daemon never sends it, so the session cannot see it. ClusterFaultTests receives it from real
# nodes; here the messages §7.1 shows are checked against the schema instead.
CLUSTER_ONLY_MESSAGES = [{"type": "freshness", "fresh": False}, {"type": "freshness", "fresh": True}]
RECV_TIMEOUT = 15  # seconds; a hang guard only


class Invalid(Exception):
    pass


def short(message, limit=1500):
    text = json.dumps(message, separators=(",", ":")) if not isinstance(message, str) else message
    return text if len(text) <= limit else text[:limit] + "…"


class Schemas:
    def __init__(self, root):
        directory = os.path.join(root, "protocol", "schemas")
        resources = []
        self.client, self.server = {}, {}
        for path in sorted(glob.glob(os.path.join(directory, "**", "*.schema.json"), recursive=True)):
            with open(path) as handle:
                try:
                    schema = json.load(handle)
                except ValueError as error:
                    raise Invalid(f"{path}: not JSON: {error}")
            try:
                jsonschema.Draft202012Validator.check_schema(schema)
            except jsonschema.SchemaError as error:
                raise Invalid(f"{path}: not a valid draft 2020-12 schema: {error.message}")
            if "$id" not in schema:
                raise Invalid(f"{path}: has no $id")
            resources.append((schema["$id"], Resource.from_contents(schema)))
            relative = os.path.relpath(path, directory)
            side, _, name = relative.partition(os.sep)
            if side in ("client", "server") and name:
                getattr(self, side)[name[: -len(".schema.json")]] = schema
        self.registry = Registry().with_resources(resources)
        for side, expected in (("client", CLIENT_TYPES), ("server", SERVER_TYPES)):
            have = getattr(self, side)
            missing = sorted(set(expected) - set(have))
            extra = sorted(set(have) - set(expected))
            if missing or extra:
                raise Invalid(f"protocol/schemas/{side}/: missing schemas {missing}, unexpected schemas {extra}")
            for name, schema in have.items():
                if schema.get("properties", {}).get("type") != {"const": name}:
                    raise Invalid(f"protocol/schemas/{side}/{name}.schema.json: properties.type must be {{\"const\": \"{name}\"}}")
        self.validators = {
            side: {name: jsonschema.Draft202012Validator(schema, registry=self.registry) for name, schema in getattr(self, side).items()}
            for side in ("client", "server")
        }

    def errors(self, side, message):
        """The schema errors of a message (empty when it is valid)."""
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            return ["not an object with a string 'type'"]
        validator = self.validators[side].get(message["type"])
        if validator is None:
            return [f"no {side} schema for type '{message['type']}'"]
        found = sorted(validator.iter_errors(message), key=lambda e: list(e.absolute_path))
        result = []
        for error in found:
            best = jsonschema.exceptions.best_match([error])
            where = "/".join(str(p) for p in best.absolute_path) or "(message)"
            result.append(f"at {where}: {best.message}")
        return result

    def check(self, side, message, context):
        errors = self.errors(side, message)
        if errors:
            kind = "request" if side == "client" else "server message"
            raise Invalid(
                f"{context}: {kind} of type '{message.get('type') if isinstance(message, dict) else '?'}' does not match "
                f"protocol/schemas/{side}/{message.get('type') if isinstance(message, dict) else '?'}.schema.json:\n  "
                + "\n  ".join(errors[:5]) + f"\n  message: {short(message)}")


def die_with_parent():
    """In the daemon's child process: SIGKILL it if this script dies (Linux prctl)."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except Exception:
        pass


class Daemon:
    """`rivesyncd --demo --port 0`; the port is read from the `listening on` line."""

    def __init__(self, binary):
        self.binary = binary
        self.stderr_lines = []
        try:
            self.process = subprocess.Popen(
                [binary, "--demo", "--port", "0"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE, text=True, preexec_fn=die_with_parent)
        except OSError as error:
            raise Invalid(f"cannot start {binary}: {error} (build it first, or pass --daemon)")
        self.port = None
        found = threading.Event()

        def drain():
            for line in self.process.stderr:
                self.stderr_lines.append(line)
                match = re.search(r"listening on [^\s]+:(\d+)", line)
                if match and self.port is None:
                    self.port = int(match.group(1))
                    found.set()
            found.set()

        threading.Thread(target=drain, daemon=True).start()
        if not found.wait(20) or self.port is None:
            self.stop()
            raise Invalid(f"{binary} did not print 'listening on':\n{self.stderr()}")
        self.url = f"ws://127.0.0.1:{self.port}/"

    def stderr(self):
        return "".join(self.stderr_lines[-60:])

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


async def receive(ws, what):
    try:
        text = await asyncio.wait_for(ws.recv(), RECV_TIMEOUT)
    except asyncio.TimeoutError:
        raise Invalid(f"no message within {RECV_TIMEOUT} s while waiting for {what}")
    except websockets.ConnectionClosed as closed:
        raise Invalid(f"connection closed ({closed}) while waiting for {what}")
    try:
        return json.loads(text)
    except ValueError:
        raise Invalid(f"the daemon sent a frame that is not JSON while waiting for {what}: {short(text)}")


# MARK: Part 2: conformance cases


def match(pattern, actual, variables):
    """Conformance matching (protocol/conformance/README.md); binds `$name` variables. Returns
    False on a mismatch (the conformance test reports those; here they only stop binding)."""
    if pattern == "$any":
        return True
    if isinstance(pattern, str) and pattern.startswith("$"):
        if pattern in variables:
            return variables[pattern] == actual
        variables[pattern] = actual
        return True
    if isinstance(pattern, dict):
        return isinstance(actual, dict) and all(k in actual and match(v, actual[k], variables) for k, v in pattern.items())
    if isinstance(pattern, list):
        return isinstance(actual, list) and len(pattern) == len(actual) and all(
            match(p, a, variables) for p, a in zip(pattern, actual))
    return pattern == actual


def substitute(value, variables, context):
    if isinstance(value, str) and value.startswith("$") and value != "$any":
        if value not in variables:
            raise Invalid(f"{context}: variable {value} is used before an expect bound it")
        return variables[value]
    if isinstance(value, dict):
        return {k: substitute(v, variables, context) for k, v in value.items()}
    if isinstance(value, list):
        return [substitute(v, variables, context) for v in value]
    return value


def expected_refusal(steps, index, client):
    """The error the case expects for the send at `index`: the pattern of the next expect of
    the same client, if it is an error."""
    for step in steps[index + 1:]:
        if step.get("client", "a") == client and "expect" in step:
            pattern = step["expect"]
            return pattern if isinstance(pattern, dict) and pattern.get("type") == "error" else None
    return None


def is_malformed(refusal):
    """Whether an expected error means the request itself is malformed (so it must not match
    its schema): unknown_type, or bad_message naming a field. (A second hello is also
    bad_message, without a field; its shape is fine.)"""
    if refusal is None:
        return False
    if refusal.get("code") == "unknown_type":
        return True
    return refusal.get("code") == "bad_message" and "field" in (refusal.get("details") or {})


async def run_case(path, schemas, binary):
    name = os.path.basename(path)
    with open(path) as handle:
        case = json.load(handle)
    steps = case["steps"]
    daemon = Daemon(binary)
    clients, variables, checked = {}, {}, 0
    try:
        for index, step in enumerate(steps):
            client = step.get("client", "a")
            where = f"protocol/conformance/{name} step {index} (client {client})"
            if client not in clients:
                clients[client] = await websockets.connect(daemon.url, max_size=None)
            ws = clients[client]
            if "send" in step:
                message = substitute(step["send"], variables, where)
                refusal = expected_refusal(steps, index, client)
                errors = schemas.errors("client", message)
                if is_malformed(refusal):
                    if not errors:
                        raise Invalid(
                            f"{where}: the case expects this request to be refused as malformed ({refusal.get('code')}), "
                            f"but it matches protocol/schemas/client/{message.get('type')}.schema.json: {short(message)}")
                else:
                    schemas.check("client", message, where)
                checked += 1
                await ws.send(json.dumps(message))
            elif "sendRaw" in step:
                await ws.send(step["sendRaw"])
            elif "expect" in step:
                actual = await receive(ws, f"{where}: {short(step['expect'], 200)}")
                schemas.check("server", actual, where)
                checked += 1
                if not match(step["expect"], actual, variables):
                    print(f"note: {where}: the message does not match the case's pattern (ConformanceTests reports this)\n"
                          f"  expected {short(step['expect'], 300)}\n  received {short(actual, 300)}")
    except Invalid as error:
        raise Invalid(f"{error}\n--- rivesyncd stderr ---\n{daemon.stderr()}")
    finally:
        for ws in clients.values():
            await ws.close()
        daemon.stop()
    return checked


# MARK: Part 3: a session with every request type

EXTRA_FILE = {
    "rivesyncSchema": 1,
    "enums": [{"name": "Size", "values": ["small", "large"]}],
    "viewModels": [
        {"name": "Item", "properties": [{"name": "label", "type": "string"}]},
        {"name": "Everything", "properties": [
            {"name": "n", "type": "number"}, {"name": "s", "type": "string"}, {"name": "b", "type": "boolean"},
            {"name": "c", "type": "color"}, {"name": "e", "type": "enum", "enum": "Size"},
            {"name": "t", "type": "trigger"}, {"name": "items", "type": "list"},
            {"name": "child", "type": "viewModel", "viewModel": "Item"},
            {"name": "image", "type": "assetImage"}, {"name": "font", "type": "assetFont"}, {"name": "blob", "type": "assetBlob"},
            {"name": "art", "type": "artboard"}, {"name": "symbol", "type": "symbolListIndex"}],
         "instances": [{"name": "First", "values": {"n": 1, "s": "one", "b": True, "c": "#FF00FF00", "e": "large"}}]},
    ],
    "artboards": [{"name": "Main", "viewModel": "Everything", "stateMachines": ["run"], "defaultStateMachine": "run"}],
    "assets": [{"name": "logo", "kind": "image"}],
}

PNG = base64.b64encode(bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + b"\0\0\0\rIHDR").decode()
WOFF2 = base64.b64encode(b"wOF2\0\1\0\0").decode()


class Session:
    def __init__(self, ws, schemas):
        self.ws = ws
        self.schemas = schemas
        self.next_id = 100
        self.batches = []
        self.seen = set()
        self.sent = set()
        self.count = 0

    async def next(self, what):
        message = await receive(self.ws, what)
        self.schemas.check("server", message, f"session, while waiting for {what}")
        self.seen.add(message["type"])
        self.count += 1
        if message.get("reason") == "catchUp" or message["type"] == "batch":
            self.batches.append(message)
        return message

    async def request(self, message, expect, malformed=False):
        """Sends a request (checked against its schema: it must match, or with `malformed` it
        must not) and returns its reply, keeping the batches that arrive before it. `expect`
        is the reply type the session needs."""
        self.next_id += 1
        message = {"id": self.next_id, **message}
        if malformed:
            if not self.schemas.errors("client", message):
                raise Invalid(f"session: malformed request {short(message)} matches its schema")
        else:
            self.schemas.check("client", message, "session request")
        self.sent.add(message["type"])
        await self.ws.send(json.dumps(message))
        while True:
            reply = await self.next(f"the reply to {short(message, 200)}")
            if reply.get("id") == message["id"]:
                break
        if reply["type"] != expect:
            raise Invalid(f"session: expected a '{expect}' reply to {short(message, 300)}, received {short(reply, 600)}")
        return reply

    async def next_of(self, kind, what):
        """Reads messages until one of type `kind` arrives; returns it."""
        while True:
            message = await self.next(what)
            if message["type"] == kind:
                return message

    async def batch_for(self, target, seq):
        """Waits until the batch `seq` of `target` has arrived."""
        while not any(b.get("target") == target and b.get("seq") == seq for b in self.batches):
            await self.next(f"batch {seq} of {target}")


async def session(schemas, binary, root):
    daemon = Daemon(binary)
    try:
        async with websockets.connect(daemon.url, max_size=None) as ws, websockets.connect(daemon.url, max_size=None) as ws2:
            s = Session(ws, schemas)
            await s.request({"type": "listFiles"}, "error")  # hello_required
            welcome = await s.request({"type": "hello", "protocol": [1], "client": "validate_messages.py"}, "welcome")
            epoch = welcome["epoch"]
            await s.request({"type": "hello", "protocol": [1]}, "error")  # second hello
            await s.request({"type": "ping"}, "pong")
            # Listing.
            await s.request({"type": "listFiles"}, "files")
            await s.request({"type": "listTargets"}, "targets")
            await s.request({"type": "describe", "file": "demo"}, "schema")
            await s.request({"type": "viewModelNames", "file": "demo"}, "names")
            await s.request({"type": "globalViewModelNames", "file": "demo"}, "names")
            await s.request({"type": "instanceNames", "file": "demo", "viewModel": "Theme"}, "names")
            await s.request({"type": "properties", "file": "demo", "viewModel": "Lobby"}, "properties")
            await s.request({"type": "enums", "file": "demo"}, "enums")
            await s.request({"type": "artboardNames", "file": "demo"}, "names")
            await s.request({"type": "stateMachineNames", "file": "demo"}, "names")
            await s.request({"type": "stateMachineNames", "file": "demo", "artboard": "Lobby"}, "names")
            await s.request({"type": "defaultViewModelInfo", "file": "demo"}, "defaultViewModelInfo")
            await s.request({"type": "defaultViewModelInfo", "file": "demo", "artboard": "Lobby"}, "defaultViewModelInfo")
            await s.request({"type": "describe", "file": "nope"}, "error")
            await s.request({"type": "instanceNames", "file": "demo", "viewModel": "Nope"}, "error")
            # Instances and targets.
            dark = (await s.request({"type": "createInstance", "file": "demo", "source": {"name": "Dark", "viewModel": "Theme"}}, "instance"))["instance"]
            await s.request({"type": "createInstance", "file": "demo", "source": {"index": 1, "viewModel": "Theme"}}, "instance")
            p1 = (await s.request({"type": "createInstance", "file": "demo", "source": {"blank": {"viewModel": "Player"}}}, "instance"))["instance"]
            p2 = (await s.request({"type": "createInstance", "file": "demo", "source": {"default": {"viewModel": "Player"}}}, "instance"))["instance"]
            character = (await s.request({"type": "createInstance", "file": "demo", "source": {"default": {"artboard": "Character"}}}, "instance"))["instance"]
            await s.request({"type": "createInstance", "file": "demo", "source": {"blank": {"artboard": None}}, "publish": "blankPublished"}, "instance")
            guest = (await s.request({"type": "createInstance", "file": "demo", "source": {"name": "Guest", "viewModel": "Player"}}, "instance"))["instance"]
            await s.request({"type": "publish", "instance": guest, "name": "guest"}, "target")
            await s.request({"type": "publish", "instance": guest, "name": "guest"}, "error")  # target_exists
            await s.request({"type": "createStateMachine", "file": "demo", "name": "scripted", "artboard": "Character",
                             "main": character, "globals": [{"name": "Theme", "instance": dark}], "mode": "manual"}, "target")
            await s.request({"type": "createStateMachine", "file": "demo", "name": "auto2", "artboard": "Lobby", "rate": 30}, "target")
            await s.request({"type": "createStateMachine", "file": "demo", "artboard": "Nope"}, "error")
            await s.request({"type": "createStateMachine", "file": "demo", "name": "unbound", "artboard": "Character",
                             "mode": "manual", "bindDefaults": False}, "target")
            await s.request({"type": "listTargets"}, "targets")
            # Subscriptions: whole target, paths.
            await s.request({"type": "subscribe", "target": "lobby"}, "snapshot")
            await s.request({"type": "subscribe", "target": "character", "paths": ["mood", "@Theme", "@Theme/background"]}, "snapshot")
            await s.request({"type": "subscribe", "target": "scripted"}, "snapshot")
            await s.request({"type": "subscribe", "target": "character", "paths": ["nope"]}, "error")
            # Commands on an auto target (acks follow their batches).
            for message in [
                {"type": "listAppend", "target": "lobby", "path": "players", "instance": p1},
                {"type": "listInsert", "target": "lobby", "path": "players", "index": 0, "instance": p2},
                {"type": "listAppend", "target": "lobby", "path": "players", "instance": p1},
                {"type": "listSwap", "target": "lobby", "path": "players", "index": 0, "with": 1},
                {"type": "set", "target": "lobby", "path": "players/0/x", "value": 4.5},
                {"type": "set", "target": "lobby", "path": "players/1/color", "value": "#336699"},
                {"type": "fire", "target": "lobby", "path": "players/0/wave"},
                {"type": "listRemove", "target": "lobby", "path": "players", "instance": p1},
                {"type": "listRemoveAt", "target": "lobby", "path": "players", "index": 0},
                {"type": "set", "target": "lobby", "path": "host", "value": {"instance": guest}},
                {"type": "set", "target": "lobby", "path": "title", "value": "Validated"},
                {"type": "set", "target": "character", "path": "@Theme/mode", "value": "dark"},
                {"type": "set", "target": "character", "path": "mood", "value": 7},
                {"type": "transaction", "target": "lobby", "commands": [
                    {"type": "set", "path": "title", "value": "One"}, {"type": "set", "path": "title", "value": "Two"}]},
                {"type": "bind", "target": "lobby", "globals": [{"name": "Theme", "instance": dark}]},
            ]:
                ack = await s.request(message, "ack")
                if message["target"] == "lobby":
                    await s.batch_for("lobby", ack["seq"])
            await s.request({"type": "listRemoveAt", "target": "lobby", "path": "players", "index": 9}, "error")
            await s.request({"type": "set", "target": "character", "path": "mood", "value": "five"}, "error")
            await s.request({"type": "set", "target": "character", "path": "mood"}, "error", malformed=True)
            # Refused by the daemon and by the schemas alike (PROTOCOL.md §3, §6, §7).
            await s.request({"type": "bind", "target": "lobby"}, "error", malformed=True)
            await s.request({"type": "transaction", "target": "lobby", "commands": []}, "error", malformed=True)
            await s.request({"type": "transaction", "target": "lobby", "commands": [{"type": "get", "path": "title"}]}, "error", malformed=True)
            await s.request({"type": "bind", "target": "lobby", "main": None, "globals": []}, "error", malformed=True)
            await s.request({"type": "bind", "target": "lobby", "main": None, "globals": None}, "error", malformed=True)
            # Accepted by the daemon and the schema alike: null is an absent limit and cursor (§5).
            await s.request({"type": "listTargets", "limit": None, "after": None}, "targets")
            await s.request({"type": "subscribe", "target": "lobby", "cursor": 5}, "error", malformed=True)
            await s.request({"type": "listRemoveAt", "target": "lobby", "path": "players", "index": 2**53}, "error", malformed=True)
            await s.request({"type": "fire", "target": "nowhere", "path": "x"}, "error")
            # State machine inputs (§8): the demo's state machines have none.
            await s.request({"type": "setInput", "target": "scripted", "name": "level", "value": 3}, "error")  # no_such_input
            await s.request({"type": "fireInput", "target": "scripted", "name": "jump"}, "error")  # no_such_input
            await s.request({"type": "setInput", "target": "scripted", "name": "level", "value": "3"}, "error", malformed=True)
            # A manual target: commands wait for advance; batch and ack come before advanced.
            await s.request({"type": "advance", "target": "character"}, "error")  # not_manual
            s.next_id += 1
            pending = {"id": s.next_id, "type": "fire", "target": "scripted", "path": "success"}
            schemas.check("client", pending, "session request")
            await ws.send(json.dumps(pending))
            advanced = await s.request({"type": "advance", "target": "scripted"}, "advanced")
            if not any(b.get("target") == "scripted" and b.get("seq") == advanced["seq"] for b in s.batches):
                raise Invalid(f"session: 'advanced' {short(advanced)} came before its batch")
            # Reads.
            for path in ["mood", "success", "@Theme/background", "@Theme/mode", "@Theme/name"]:
                await s.request({"type": "get", "target": "scripted", "path": path}, "value")
            for path in ["players", "host", "host/name", "title"]:
                await s.request({"type": "get", "target": "lobby", "path": path}, "value")
            await s.request({"type": "digest", "target": "lobby"}, "digest")
            # Resume with a cursor (second connection), then unsubscribe.
            s2 = Session(ws2, schemas)
            await s2.request({"type": "hello", "protocol": [1]}, "welcome")
            await s2.request({"type": "subscribe", "target": "lobby", "cursor": {"epoch": epoch, "seq": 1}}, "subscribed")
            await s2.request({"type": "subscribe", "target": "lobby", "paths": ["players"], "cursor": {"epoch": epoch, "seq": 1}}, "subscribed")
            await s2.request({"type": "subscribe", "target": "lobby", "cursor": {"epoch": "e-other", "seq": 1}}, "snapshot")
            await s2.request({"type": "unsubscribe", "target": "lobby"}, "unsubscribed")
            # Assets and a file of every property type.
            image = (await s.request({"type": "upload", "kind": "image", "data": PNG}, "asset"))["asset"]
            font = (await s.request({"type": "upload", "kind": "font", "data": WOFF2}, "asset"))["asset"]
            blob = (await s.request({"type": "upload", "kind": "blob", "data": "AQID", "mediaType": "application/x-test"}, "asset"))["asset"]
            await s.request({"type": "upload", "kind": "image", "data": "aGVsbG8gd29ybGQ="}, "error")
            await s.request({"type": "loadFile", "name": "extra", "schema": EXTRA_FILE}, "files")
            await s.request({"type": "loadFile", "name": "extra", "schema": EXTRA_FILE}, "error")  # file_exists
            await s.request({"type": "loadFile", "name": "broken", "riv": base64.b64encode(b"not a riv file").decode()}, "error")
            await s.request({"type": "describe", "file": "extra"}, "schema")
            # A .riv state machine with a legacy trigger input (§8, §19): its inputs listed, a
            # refused setInput, a fired input acked after its advance, layers and settledness.
            riv_path = os.path.join(root, "..", "shared", "fixtures", "riv", "state_machine_triggers.riv")
            if not os.path.isfile(riv_path):
                raise Invalid(f"session: the fixture {riv_path} is missing")
            with open(riv_path, "rb") as riv:
                riv_bytes = riv.read()
            # In two parts (§9): the first answered filePart, the second loads the file.
            half = len(riv_bytes) // 2
            for offset, part, reply in ((0, riv_bytes[:half], "filePart"), (half, riv_bytes[half:], "files")):
                await s.request({"type": "loadFile", "name": "triggers", "riv": base64.b64encode(part).decode(),
                                 "offset": offset, "size": len(riv_bytes)}, reply)
            legacy = await s.request({"type": "createStateMachine", "file": "triggers", "name": "legacy", "artboard": "main",
                                      "mode": "manual"}, "target")
            if legacy.get("inputs") != [{"name": "Trigger 1", "type": "trigger"}]:
                raise Invalid(f"session: expected the trigger input in {short(legacy)}")
            await s.request({"type": "subscribe", "target": "legacy"}, "snapshot")
            await s.request({"type": "setInput", "target": "legacy", "name": "Trigger 1", "value": 1}, "error")  # type_mismatch
            for _ in range(3):
                s.next_id += 1
                pending = {"id": s.next_id, "type": "fireInput", "target": "legacy", "name": "Trigger 1"}
                schemas.check("client", pending, "session request")
                await ws.send(json.dumps(pending))
                s.sent.add("fireInput")
                await s.request({"type": "advance", "target": "legacy", "elapsed": 0.1}, "advanced")
            for _ in range(20):
                if (await s.request({"type": "advance", "target": "legacy", "elapsed": 0.5}, "advanced")).get("settled"):
                    break
            else:
                raise Invalid("session: 'legacy' did not settle in 10 s of advances")
            await s.request({"type": "listTargets", "after": "lec", "limit": 1}, "targets")
            # A data bind's target written as an interactive component would (§8): two-way binds
            # of shapes' x and y; a value of the wrong type refused, a number acked after its advance.
            riv_path = os.path.join(root, "..", "shared", "fixtures", "riv", "bidirectional_precedence.riv")
            if not os.path.isfile(riv_path):
                raise Invalid(f"session: the fixture {riv_path} is missing")
            with open(riv_path, "rb") as riv:
                await s.request({"type": "loadFile", "name": "twoway", "riv": base64.b64encode(riv.read()).decode()}, "files")
            await s.request({"type": "createStateMachine", "file": "twoway", "name": "twoway", "artboard": "source_first",
                             "mode": "manual"}, "target")
            await s.request({"type": "subscribe", "target": "twoway"}, "snapshot")
            await s.request({"type": "setBindTarget", "target": "twoway", "bind": 0, "value": "far"}, "error")  # type_mismatch
            await s.request({"type": "setBindTarget", "target": "twoway", "bind": 9, "value": 1}, "error")  # no_such_data_bind
            s.next_id += 1
            pending = {"id": s.next_id, "type": "setBindTarget", "target": "twoway", "bind": 0, "value": 700}
            schemas.check("client", pending, "session request")
            await ws.send(json.dumps(pending))
            s.sent.add("setBindTarget")
            await s.request({"type": "advance", "target": "twoway", "elapsed": 0.016}, "advanced")
            await s.request({"type": "properties", "file": "extra", "viewModel": "Everything"}, "properties")
            everything = (await s.request({"type": "createInstance", "file": "extra", "source": {"name": "First", "viewModel": "Everything"},
                                           "publish": "everything"}, "instance"))["instance"]
            item = (await s.request({"type": "createInstance", "file": "extra", "source": {"blank": {"viewModel": "Item"}}}, "instance"))["instance"]
            await s.request({"type": "subscribe", "target": "everything"}, "snapshot")
            for path, value in [("n", 2.25), ("s", "two"), ("b", False), ("c", 4278190335), ("e", "small"),
                                ("child", {"instance": item}), ("child/label", "nested"), ("image", image), ("font", font),
                                ("blob", blob), ("image", {"id": "file:logo", "bytes": 0, "mediaType": "image"}), ("blob", None),
                                ("art", "Main"), ("art", None), ("symbol", 3)]:
                ack = await s.request({"type": "set", "target": "everything", "path": path, "value": value}, "ack")
                await s.batch_for("everything", ack["seq"])
            await s.request({"type": "set", "target": "everything", "path": "child", "value": None}, "error")  # invalid_value
            ack = await s.request({"type": "fire", "target": "everything", "path": "t"}, "ack")
            await s.request({"type": "listAppend", "target": "everything", "path": "items", "instance": item}, "ack")
            await s.request({"type": "set", "target": "everything", "path": "image", "value": {"id": "sha256:00", "bytes": 1, "mediaType": "image/png"}}, "error")
            for path in ["n", "s", "b", "c", "e", "t", "items", "child", "image", "font", "blob", "art", "symbol"]:
                await s.request({"type": "get", "target": "everything", "path": path}, "value")
            await s.request({"type": "digest", "target": "everything"}, "digest")
            await s.request({"type": "unsubscribe", "target": "everything"}, "unsubscribed")
            # Deleting a target: its subscriber is told (unsubscribed without id), then the reply.
            await s2.request({"type": "subscribe", "target": "everything"}, "snapshot")
            await s.request({"type": "deleteTarget", "target": "everything"}, "targetDeleted")
            ended = await s2.next("the end of the deleted target's subscription")
            if ended.get("type") != "unsubscribed" or ended.get("reason") != "deleted" or "id" in ended:
                raise Invalid(f"session: expected unsubscribed (deleted) without id, received {short(ended)}")
            await s.request({"type": "deleteTarget", "target": "everything"}, "error")  # unknown_target
            # Presence (§15): s joins the lobby's presence; s2, subscribed, sees it come and go.
            snapshot = await s2.request({"type": "subscribe", "target": "lobby"}, "snapshot")
            if snapshot.get("presence") != []:
                raise Invalid(f"session: expected an empty presence in {short(snapshot)}")
            await s.request({"type": "presenceUpdate", "target": "lobby", "state": {"name": "v"}}, "error")  # not_joined
            await s.request({"type": "presenceJoin", "target": "lobby", "key": "abc", "state": {}}, "error", malformed=True)
            await s.request({"type": "presenceJoin", "target": "lobby", "state": {}}, "error", malformed=True)
            await s.request({"type": "presenceJoin", "target": "lobby", "key": "k" * 16, "state": "Ana"}, "error", malformed=True)
            # 16 to 128 bytes, not characters: 10 two-byte characters are a valid key (§15).
            key = "é" * 10
            await s.request({"type": "presenceJoin", "target": "lobby", "key": key, "state": {"name": "v"}}, "presenceJoined")
            joined = await s2.next_of("presence", "the presence join")
            await s.request({"type": "presenceUpdate", "target": "lobby", "state": {"name": "v", "cursor": [1, 2]}}, "presenceUpdated")
            await s.request({"type": "presenceList", "target": "lobby"}, "presenceMembers")
            await s.request({"type": "presenceLeave", "target": "lobby"}, "presenceLeft")
            seen = [change for change in joined["changes"]]
            while not any(change["op"] == "leave" for change in seen):
                seen += (await s2.next_of("presence", "the presence leave"))["changes"]
            await s2.request({"type": "presenceList", "target": "lobby"}, "presenceMembers")
            await s.request({"type": "ping"}, "pong")
            missing_requests = sorted(set(CLIENT_TYPES) - s.sent - s2.sent)
            cluster_only = {message["type"] for message in CLUSTER_ONLY_MESSAGES}
            missing_replies = sorted(set(SERVER_TYPES) - cluster_only - s.seen - s2.seen)
            if missing_requests or missing_replies:
                raise Invalid(f"session did not cover request types {missing_requests} / server message types {missing_replies}")
            return s.count + s2.count
    except Invalid as error:
        raise Invalid(f"{error}\n--- rivesyncd stderr ---\n{daemon.stderr()}")
    finally:
        daemon.stop()


ELIDED = "\u2026elided"
ELIDED_KEYS = ("...", "\u2026")


def strip_elisions(value, path, elided):
    """`value` without its `"...": 0` members; `elided` gets the paths of the objects that had one."""
    if isinstance(value, dict):
        if any(key in value for key in ELIDED_KEYS):
            elided.add(tuple(path))
        return {k: strip_elisions(v, path + [k], elided) for k, v in value.items() if k not in ELIDED_KEYS}
    if isinstance(value, list):
        return [strip_elisions(v, path + [i], elided) for i, v in enumerate(value)]
    return value


def document_errors(schemas, side, message, elided):
    """The schema errors of a document's message, less those its elisions explain."""
    validator = schemas.validators[side].get(message.get("type"))
    if validator is None:
        return [f"no {side} schema for type '{message.get('type')}'"]
    result = []
    for error in validator.iter_errors(message):
        if error.instance == ELIDED or any(part == ELIDED for part in error.absolute_path):
            continue
        if error.validator == "required" and tuple(error.absolute_path) in elided:
            continue
        if error.validator in ("anyOf", "oneOf") and ELIDED in json.dumps(error.instance):
            continue
        where = "/".join(str(p) for p in error.absolute_path) or "(message)"
        result.append(f"at {where}: {error.message}")
    return result


def check_documents(schemas, root):
    """Part 0: protocol/examples/ and PROTOCOL.md's JSON examples against the schemas."""
    examples = sorted(glob.glob(os.path.join(root, "protocol", "examples", "*.json")))
    if not examples:
        raise Invalid("no protocol/examples/*.json found")
    with open(os.path.join(root, "protocol", "schemas", "file-schema.schema.json")) as handle:
        file_schema = jsonschema.Draft202012Validator(json.load(handle), registry=schemas.registry)
    for path in examples:
        with open(path) as handle:
            example = json.load(handle)
        errors = [f"at {'/'.join(map(str, e.absolute_path)) or '(file)'}: {e.message}" for e in file_schema.iter_errors(example)]
        if errors:
            raise Invalid(f"{path} does not match file-schema.schema.json:\n  " + "\n  ".join(errors[:5]))
    with open(os.path.join(root, "protocol", "PROTOCOL.md")) as handle:
        document = handle.read()
    decoder = json.JSONDecoder()
    checked = 0
    for block in re.findall(r"```json\n(.*?)```", document, re.S):
        text = block.replace("{\u2026}", json.dumps(ELIDED)).replace("[\u2026]", json.dumps(ELIDED))
        text = re.sub(r",\s*\u2026\s*\]", "]", text)
        text = re.sub(r",\s*\u2026\s*\}", ', "...": 0}', text)
        index = 0
        while True:
            while index < len(text) and text[index].isspace():
                index += 1
            if index >= len(text):
                break
            try:
                value, index = decoder.raw_decode(text, index)
            except ValueError as error:
                raise Invalid(f"PROTOCOL.md: a ```json block is not JSON ({error}):\n{short(block)}")
            elided = set()
            message = strip_elisions(value, [], elided)
            if isinstance(message, dict) and "type" not in message and message.keys() & {"blank", "default", "name", "index"}:
                # §6's `source` forms, checked where they are used.
                message = {"type": "createInstance", "id": 1, "file": "f", "source": message}
                elided = {("source",) + path for path in elided}
            if not isinstance(message, dict) or not isinstance(message.get("type"), str):
                continue
            sides = [side for side in ("client", "server") if message["type"] in schemas.validators[side]]
            if not sides:
                raise Invalid(f"PROTOCOL.md: an example of type '{message['type']}', which no schema has: {short(value)}")
            errors = [document_errors(schemas, side, message, elided) for side in sides]
            if all(errors):
                raise Invalid(
                    f"PROTOCOL.md: an example of type '{message['type']}' matches no schema of its type:\n  "
                    + "\n  ".join(min(errors, key=len)[:5]) + f"\n  example: {short(value)}")
            checked += 1
    if checked < 10:
        raise Invalid(f"PROTOCOL.md: only {checked} JSON examples found")
    return len(examples), checked


def main():
    # SIGTERM (a test's hang guard) unwinds normally, so every daemon started is stopped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.normpath(os.path.join(here, "..", "..", "..")), help="the package root")
    parser.add_argument("--daemon", help="the rivesyncd binary (default: ROOT/.build/debug/rivesyncd)")
    args = parser.parse_args()
    binary = args.daemon or os.path.join(args.root, ".build", "debug", "rivesyncd")
    try:
        schemas = Schemas(args.root)
        print(f"schemas: {len(schemas.client)} client, {len(schemas.server)} server, all valid draft 2020-12")
        examples, documented = check_documents(schemas, args.root)
        print(f"documents: {examples} protocol/examples files and {documented} PROTOCOL.md examples match their schemas")
        for message in CLUSTER_ONLY_MESSAGES:
            schemas.check("server", message, "PROTOCOL.md §7.1 (cluster only)")
        if not schemas.errors("server", {"type": "freshness"}):
            raise Invalid("freshness.schema.json accepts a freshness without 'fresh'")
        cases = sorted(glob.glob(os.path.join(args.root, "protocol", "conformance", "*.json")))
        if not cases:
            raise Invalid("no protocol/conformance/*.json cases found")
        total = 0
        for path in cases:
            total += asyncio.run(run_case(path, schemas, binary))
        print(f"conformance: {len(cases)} cases, {total} sent and received messages match their schemas")
        count = asyncio.run(session(schemas, binary, args.root))
        print(f"session: every request type sent; {count} received messages match their schemas")
    except Invalid as error:
        print(f"INVALID: {error}")
        return 1
    print("validate_messages.py: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
