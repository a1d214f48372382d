"""An independent RiveSync client, written from protocol/PROTOCOL.md's message shapes only.

Usage: /usr/bin/python3 independent_client.py ws://127.0.0.1:PORT/

Uses Debian's `python3-websockets` (asyncio API, so any version from 10 on works) and nothing
of the daemon's own code. Against `rivesyncd --demo` it: says hello; lists files, targets,
view models and properties; creates instances; creates a *manual* state machine on the
`Lobby` artboard and subscribes to all of it (snapshot); sets, fires, edits the players list
(append, insert, swap, remove at, remove), replaces a nested instance and binds a global; for
every advance it checks that the batch comes first, in seq order, with the expected effects,
then the acks (with the batch's seq and command numbers) and errors, then `advanced`. It checks typed
errors for bad requests and for a command that fails when applied. Throughout it keeps its own
replica of the target — the snapshot plus every batch's effects (upserting `introduced`
states) — and at the end compares every value of every reachable instance with `get` reads.

Exit status 0 when everything matched; 1 with a message naming the first difference.
"""
import asyncio
import json
import signal
import sys

import websockets

TIMEOUT = 20  # seconds for one message; a hang guard only


class Failure(Exception):
    pass


def check(condition, what):
    if not condition:
        raise Failure(what)


def text(message, limit=600):
    t = json.dumps(message)
    return t if len(t) <= limit else t[:limit] + "…"


class Client:
    def __init__(self, ws):
        self.ws = ws
        self.next_id = 0
        self.inbox = []  # messages received but not consumed yet, in arrival order
        self.log = []  # every message received, in order

    async def receive(self, what):
        try:
            raw = await asyncio.wait_for(self.ws.recv(), TIMEOUT)
        except asyncio.TimeoutError:
            raise Failure(f"nothing received within {TIMEOUT} s while waiting for {what}")
        message = json.loads(raw)
        check(isinstance(message, dict) and isinstance(message.get("type"), str), f"not a message: {raw[:300]}")
        self.log.append(message)
        return message

    async def send(self, message):
        self.next_id += 1
        message = dict(message, id=self.next_id)
        await self.ws.send(json.dumps(message))
        return self.next_id

    async def next_message(self, what):
        if self.inbox:
            return self.inbox.pop(0)
        return await self.receive(what)

    async def reply(self, request_id, what):
        """The reply to a request (messages before it stay in the inbox, in order)."""
        for index, message in enumerate(self.inbox):
            if message.get("id") == request_id and message["type"] != "batch":
                return self.inbox.pop(index)
        while True:
            message = await self.receive(what)
            if message.get("id") == request_id and message["type"] != "batch":
                return message
            self.inbox.append(message)

    async def request(self, message, expect_type):
        request_id = await self.send(message)
        reply = await self.reply(request_id, f"the reply to {text(message, 200)}")
        check(reply["type"] == expect_type, f"expected a '{expect_type}' reply to {text(message)}, got {text(reply)}")
        return reply

    async def expect_error(self, message, code):
        request_id = await self.send(message)
        reply = await self.reply(request_id, f"the reply to {text(message, 200)}")
        check(reply["type"] == "error", f"expected error '{code}' for {text(message)}, got {text(reply)}")
        check(reply.get("code") == code, f"expected error code '{code}' for {text(message)}, got {text(reply)}")
        check(isinstance(reply.get("message"), str), f"an error without a message: {text(reply)}")
        return reply


class Replica:
    """A target's state from its snapshot and batches (PROTOCOL.md §7)."""

    def __init__(self, snapshot):
        self.seq = snapshot["seq"]
        self.bindings = {b["slot"]: b["instance"] for b in snapshot["bindings"]}
        self.instances = {}
        for state in snapshot["instances"]:
            self.upsert(state)

    def upsert(self, state):
        self.instances[state["id"]] = {"viewModel": state["viewModel"], "name": state["name"], "values": dict(state["values"])}

    def values(self, instance):
        check(instance in self.instances, f"an effect names instance {instance}, which the replica does not hold")
        return self.instances[instance]["values"]

    def apply(self, batch):
        check(batch["seq"] == self.seq + 1, f"batch seq {batch['seq']} after {self.seq}: batches must come in seq order, no gaps")
        for effect in batch["effects"]:
            for state in effect.get("introduced", []):
                self.upsert(state)
            op = effect["op"]
            if op == "bind":
                self.bindings[effect["slot"]] = effect["instance"]
                continue
            values = self.values(effect["instance"])
            prop = effect["property"]
            if op == "set":
                values[prop] = effect["value"]
            elif op == "fire":
                values[prop] = values.get(prop, 0) + 1
            elif op == "listInsert":
                values[prop].insert(effect["index"], effect["item"])
            elif op == "listRemove":
                del values[prop][effect["index"]]
            elif op == "listSwap":
                items = values[prop]
                items[effect["index"]], items[effect["with"]] = items[effect["with"]], items[effect["index"]]
            else:
                raise Failure(f"unknown effect op {op!r} in {text(batch)}")
        self.seq = batch["seq"]

    def reachable(self):
        """Instances reachable from the bindings: through nested view models and list items."""
        seen, stack = set(), [i for i in self.bindings.values() if i is not None]
        while stack:
            instance = stack.pop()
            if instance in seen:
                continue
            seen.add(instance)
            for value in self.values(instance).values():
                if isinstance(value, dict) and isinstance(value.get("instance"), int):
                    stack.append(value["instance"])
                elif isinstance(value, list):
                    stack.extend(v for v in value if isinstance(v, int))
        return seen


async def advance(client, replica, target, commands, expected_ops):
    """Sends `commands` to a manual target, then `advance`. Checks the order of what comes
    back (batch, acks in command order, advanced), the batch's effects, and applies it.
    `commands` may include (message, error code) pairs for commands that fail when applied."""
    ids = []
    for command in commands:
        message, failing = command if isinstance(command, tuple) else (command, None)
        ids.append((await client.send(message), message, failing))
    advance_id = await client.send({"type": "advance", "target": target})
    batch = None
    acked = []
    while True:
        message = await client.next_message(f"the batch, acks and reply of advance {advance_id}")
        if message["type"] == "batch":
            check(batch is None, f"two batches for one advance of {target}: {text(message)}")
            check(message["target"] == target, f"a batch of another target: {text(message)}")
            batch = message
            replica.apply(batch)
        elif message["type"] in ("ack", "error") and message.get("id") != advance_id:
            check(batch is not None, f"{message['type']} {text(message)} came before the batch that applied it")
            acked.append(message)
        elif message.get("id") == advance_id:
            check(message["type"] == "advanced", f"advance got {text(message)}")
            check(batch is not None, "'advanced' came before the batch")
            check(message["seq"] == batch["seq"], f"advanced seq {message['seq']} is not the batch's {batch['seq']}")
            break
        else:
            raise Failure(f"unexpected message during advance: {text(message)}")
    # §8: the acks of the applied commands in command order, then the errors of those that
    # failed when applied.
    order = [i for i, _, failing in ids if not failing] + [i for i, _, failing in ids if failing]
    check([m["id"] for m in acked] == order, f"acks/errors {[m['id'] for m in acked]} are not in the order {order}")
    by_id = {i: (i, message, failing) for i, message, failing in ids}
    numbers = []
    for reply in acked:
        _, message, failing = by_id[reply["id"]]
        if failing:
            check(reply["type"] == "error" and reply["code"] == failing,
                  f"expected error '{failing}' when {text(message)} applied, got {text(reply)}")
            check(reply.get("details", {}).get("seq") == batch["seq"], f"an applied-time error must carry details.seq: {text(reply)}")
        else:
            check(reply["type"] == "ack", f"expected an ack for {text(message)}, got {text(reply)}")
            check(reply["seq"] == batch["seq"] and reply["target"] == target, f"ack {text(reply)} does not name batch {batch['seq']}")
            numbers.append(reply["command"])
    check(batch["commands"] == numbers, f"batch commands {batch['commands']} are not the acked command numbers {numbers}")
    ops = [e["op"] for e in batch["effects"]]
    check(ops == expected_ops, f"batch {batch['seq']} has effects {ops}, expected {expected_ops}: {text(batch, 1500)}")
    for effect in batch["effects"]:
        check(isinstance(effect.get("paths"), list) and effect["paths"], f"an effect without paths: {text(effect)}")
    return batch


async def run(url):
    async with websockets.connect(url, subprotocols=["rivesync.v1"], max_size=None) as ws:
        client = Client(ws)
        # §2: hello first.
        await client.expect_error({"type": "listFiles"}, "hello_required")
        welcome = await client.request({"type": "hello", "protocol": [1], "client": "independent_client.py"}, "welcome")
        check(welcome["protocol"] == 1 and isinstance(welcome["epoch"], str), f"welcome: {text(welcome)}")
        check(isinstance(welcome["limits"].get("maxMessageBytes"), int), f"welcome without limits: {text(welcome)}")
        await client.expect_error({"type": "hello", "protocol": [1]}, "bad_message")

        # §5: listing.
        files = (await client.request({"type": "listFiles"}, "files"))["files"]
        check(any(f["name"] == "demo" for f in files), f"no file 'demo' in {files}")
        targets = {t["name"]: t for t in (await client.request({"type": "listTargets"}, "targets"))["targets"]}
        check({"character", "lobby", "theme"} <= set(targets), f"demo targets missing: {sorted(targets)}")
        check(targets["theme"]["kind"] == "instance" and targets["character"]["kind"] == "stateMachine", f"target kinds: {targets}")
        names = (await client.request({"type": "viewModelNames", "file": "demo"}, "names"))["names"]
        check({"Theme", "Character", "Player", "Lobby"} <= set(names), f"view models: {names}")
        globals_ = (await client.request({"type": "globalViewModelNames", "file": "demo"}, "names"))["names"]
        check(globals_ == ["Theme"], f"globals: {globals_}")
        properties = {}
        for view_model in ["Lobby", "Player", "Theme", "Character"]:
            listed = (await client.request({"type": "properties", "file": "demo", "viewModel": view_model}, "properties"))["properties"]
            properties[view_model] = {p["name"]: p for p in listed}
        check(properties["Lobby"]["players"]["type"] == "list", f"Lobby.players: {properties['Lobby']}")
        check(properties["Lobby"]["host"]["type"] == "viewModel" and properties["Lobby"]["host"]["metaData"] == "Player", "Lobby.host")
        check(properties["Player"]["wave"]["type"] == "trigger" and properties["Player"]["x"]["type"] == "number", "Player")
        check(properties["Theme"]["mode"]["metaData"] == "Mode", f"Theme.mode: {properties['Theme']['mode']}")
        enums = (await client.request({"type": "enums", "file": "demo"}, "enums"))["enums"]
        check({"name": "Mode", "values": ["light", "dark"]} in enums, f"enums: {enums}")
        check("Lobby" in (await client.request({"type": "artboardNames", "file": "demo"}, "names"))["names"], "artboards")
        info = await client.request({"type": "defaultViewModelInfo", "file": "demo", "artboard": "Lobby"}, "defaultViewModelInfo")
        check(info["viewModel"] == "Lobby", f"default view model info: {text(info)}")
        await client.expect_error({"type": "properties", "file": "demo", "viewModel": "Nope"}, "invalid_view_model")
        await client.expect_error({"type": "describe", "file": "nope"}, "unknown_file")

        # §6: instances and a manual state machine.
        async def create(source, expect_view_model):
            reply = await client.request({"type": "createInstance", "file": "demo", "source": source}, "instance")
            check(reply["viewModel"] == expect_view_model and isinstance(reply["instance"], int), f"createInstance: {text(reply)}")
            return reply["instance"]

        lobby = await create({"default": {"artboard": "Lobby"}}, "Lobby")
        p1 = await create({"blank": {"viewModel": "Player"}}, "Player")
        p2 = await create({"name": "Guest", "viewModel": "Player"}, "Player")
        p3 = await create({"default": {"viewModel": "Player"}}, "Player")
        host = await create({"blank": {"viewModel": "Player"}}, "Player")
        dark = await create({"index": 1, "viewModel": "Theme"}, "Theme")
        target = "independent"
        created = await client.request({"type": "createStateMachine", "file": "demo", "name": target, "artboard": "Lobby",
                                        "main": lobby, "mode": "manual"}, "target")
        check(created["target"] == target and created["mode"] == "manual" and created["seq"] == 0, f"createStateMachine: {text(created)}")
        bound = {b["slot"]: b["instance"] for b in created["bindings"]}
        check(bound.get("main") == lobby and "Theme" in bound, f"bindings: {created['bindings']}")
        await client.expect_error({"type": "createStateMachine", "file": "demo", "name": target, "artboard": "Lobby"}, "target_exists")
        await client.expect_error({"type": "createStateMachine", "file": "demo", "artboard": "Nope"}, "invalid_artboard")
        await client.expect_error({"type": "bind", "target": target, "main": p1}, "incompatible_instance")

        # §7: subscribe to the whole target.
        snapshot = await client.request({"type": "subscribe", "target": target}, "snapshot")
        check(snapshot["target"] == target and snapshot["epoch"] == welcome["epoch"] and snapshot["seq"] == 0, f"snapshot: {text(snapshot)}")
        replica = Replica(snapshot)
        check(replica.bindings.get("main") == lobby, f"snapshot bindings: {snapshot['bindings']}")
        check(replica.values(lobby)["players"] == [], "a fresh lobby has no players")

        # §8: commands, one advance each, then several in one advance.
        await advance(client, replica, target, [{"type": "set", "target": target, "path": "title", "value": "Independent"}], ["set"])
        await advance(client, replica, target, [{"type": "listAppend", "target": target, "path": "players", "instance": p1}], ["listInsert"])
        await advance(client, replica, target, [{"type": "listInsert", "target": target, "path": "players", "index": 0, "instance": p2}], ["listInsert"])
        await advance(client, replica, target, [{"type": "listAppend", "target": target, "path": "players", "instance": p3}], ["listInsert"])
        check(replica.values(lobby)["players"] == [p2, p1, p3], f"players after inserts: {replica.values(lobby)['players']}")
        await advance(client, replica, target, [{"type": "listSwap", "target": target, "path": "players", "index": 0, "with": 2}], ["listSwap"])
        check(replica.values(lobby)["players"] == [p3, p1, p2], f"players after swap: {replica.values(lobby)['players']}")
        await advance(client, replica, target, [
            {"type": "set", "target": target, "path": "players/0/x", "value": 3.5},
            {"type": "set", "target": target, "path": "players/1/name", "value": "Ada"},
            {"type": "fire", "target": target, "path": "players/2/wave"},
            {"type": "fire", "target": target, "path": "players/2/wave"},
            {"type": "set", "target": target, "path": "players/1/color", "value": "#336699"},
        ], ["set", "set", "fire", "fire", "set"])
        await advance(client, replica, target, [{"type": "listRemoveAt", "target": target, "path": "players", "index": 1}], ["listRemove"])
        check(replica.values(lobby)["players"] == [p3, p2], f"players after removeAt: {replica.values(lobby)['players']}")
        await advance(client, replica, target, [
            {"type": "listAppend", "target": target, "path": "players", "instance": p3},
            {"type": "listRemove", "target": target, "path": "players", "instance": p3},
        ], ["listInsert", "listRemove", "listRemove"])
        check(replica.values(lobby)["players"] == [p2], f"players after remove: {replica.values(lobby)['players']}")
        await advance(client, replica, target, [{"type": "set", "target": target, "path": "host", "value": {"instance": host}}], ["set"])
        await advance(client, replica, target, [{"type": "set", "target": target, "path": "host/name", "value": "Host"},
                                                {"type": "fire", "target": target, "path": "host/wave"}], ["set", "fire"])
        await advance(client, replica, target, [{"type": "bind", "target": target, "globals": [{"name": "Theme", "instance": dark}]}], ["bind"])
        check(replica.bindings["Theme"] == dark, f"bindings after bind: {replica.bindings}")
        await advance(client, replica, target, [{"type": "set", "target": target, "path": "@Theme/mode", "value": "light"}], ["set"])
        # A command valid when sent but not when applied (the list is empty by then) gets an
        # error carrying the batch's seq; the commands around it still apply.
        await advance(client, replica, target, [
            {"type": "listRemove", "target": target, "path": "players", "instance": p2},
            ({"type": "listRemoveAt", "target": target, "path": "players", "index": 0}, "index_out_of_range"),
            {"type": "listAppend", "target": target, "path": "players", "instance": p1},
            {"type": "listAppend", "target": target, "path": "players", "instance": p3},
        ], ["listRemove", "listInsert", "listInsert"])
        check(replica.values(lobby)["players"] == [p1, p3], f"players at the end: {replica.values(lobby)['players']}")

        # Typed errors, checked when the request arrives; the connection stays usable.
        await client.expect_error({"type": "set", "target": target, "path": "title", "value": 5}, "type_mismatch")
        await client.expect_error({"type": "set", "target": target, "path": "titel", "value": "x"}, "no_such_property")
        await client.expect_error({"type": "set", "target": target, "path": "@Theme/mode", "value": "sepia"}, "invalid_enum_value")
        await client.expect_error({"type": "set", "target": target, "path": "title"}, "bad_message")
        await client.expect_error({"type": "listRemoveAt", "target": target, "path": "players", "index": 7}, "index_out_of_range")
        await client.expect_error({"type": "fire", "target": "nowhere", "path": "x"}, "unknown_target")
        await client.expect_error({"type": "advance", "target": "lobby"}, "not_manual")
        await client.expect_error({"type": "teleport"}, "unknown_type")
        await client.request({"type": "ping"}, "pong")

        # An auto target: the write is acked on its own (its batch goes to its subscribers).
        ack = await client.request({"type": "set", "target": "character", "path": "mood", "value": 4}, "ack")
        check(ack["target"] == "character" and ack["seq"] >= 1, f"ack: {text(ack)}")

        check(not [m for m in client.inbox if m["type"] == "batch"], f"batches left unread: {client.inbox}")

        # The replica against one-shot reads of every value of every reachable instance.
        reads = 0
        for slot, instance in replica.bindings.items():
            prefix = "" if slot == "main" else f"@{slot}/"
            for prop, value in replica.values(instance).items():
                got = await client.request({"type": "get", "target": target, "path": prefix + prop}, "value")
                check(got["value"] == value, f"{prefix}{prop}: the replica has {value!r}, get says {got['value']!r}")
                check(got["seq"] == replica.seq, f"get seq {got['seq']} != replica seq {replica.seq}")
                reads += 1
        players = replica.values(lobby)["players"]
        for index, item in enumerate(players):
            for prop, value in replica.values(item).items():
                got = await client.request({"type": "get", "target": target, "path": f"players/{index}/{prop}"}, "value")
                check(got["value"] == value, f"players/{index}/{prop}: the replica has {value!r}, get says {got['value']!r}")
                reads += 1
        for prop, value in replica.values(host).items():
            got = await client.request({"type": "get", "target": target, "path": f"host/{prop}"}, "value")
            check(got["value"] == value, f"host/{prop}: the replica has {value!r}, get says {got['value']!r}")
            reads += 1
        for instance in sorted(replica.reachable()):
            for prop, value in replica.values(instance).items():
                got = await client.request({"type": "get", "target": target, "path": f"#{instance}/{prop}"}, "value")
                check(got["value"] == value, f"#{instance}/{prop}: the replica has {value!r}, get says {got['value']!r}")
                reads += 1
        check(replica.values(host)["name"] == "Host" and replica.values(host)["wave"] == 1, f"host: {replica.values(host)}")
        check(replica.values(p1)["name"] == "Ada" and replica.values(p3)["x"] == 3.5, f"players: {replica.values(p1)} {replica.values(p3)}")
        await client.request({"type": "unsubscribe", "target": target}, "unsubscribed")
        print(f"independent client: {replica.seq} batches applied, {len(replica.reachable())} reachable instances, "
              f"{reads} values read back equal the replica")


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        asyncio.run(run(sys.argv[1]))
    except Failure as failure:
        print(f"FAILED: {failure}")
        return 1
    except (OSError, websockets.ConnectionClosed) as error:
        print(f"FAILED: connection: {error!r}")
        return 1
    print("independent_client.py: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
