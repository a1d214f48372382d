"""A whole-target subscription (``Mirror``: the replica, the presence members and who waits on
them) and ``Batch``, one advance as this client applied it."""

import asyncio

from .replica import Replica


class Batch:
    """One advance of a target as this client applied it: ``seq`` and the effects (PROTOCOL.md
    §7), or, with ``resync`` set, a fresh snapshot that replaced the batches up to ``seq``.

    The state machine's part of the advance (§19): ``elapsed`` (seconds it ran, 0 for none),
    ``events`` (the Rive events it reported, ``{"name", "delay", "properties"?}`` in order),
    ``layers`` (the layers whose state changed, ``{"layer", "name", "state", "kind",
    "animation"?}``) and ``settled`` (False while it needs further advances). Each effect
    made by the state machine has ``"by": "stateMachine"``; ``origins`` lists, per effect,
    ``"stateMachine"`` or ``"command"`` (a client's write)."""

    def __init__(self, target, seq, effects=(), commands=(), resync=False, authors=None, elapsed=0, events=(), layers=(),
                 settled=True):
        self.target, self.seq, self.effects, self.commands, self.resync = target, seq, list(effects), list(commands), resync
        # Who sent each command, ``{"client"?, "token"?}`` (PROTOCOL.md §17); None when the
        # daemon records no authors.
        self.authors = authors
        self.elapsed, self.events, self.layers, self.settled = elapsed, list(events), list(layers), settled

    @classmethod
    def of(cls, message):
        """The ``Batch`` of a ``batch`` message."""
        return cls(
            message["target"], message["seq"], message["effects"], message.get("commands", ()),
            authors=message.get("authors"), elapsed=message.get("elapsed", 0), events=message.get("events", ()),
            layers=message.get("layers", ()), settled=message.get("settled", True))

    @property
    def origins(self):
        """Who made each effect, in order: ``"stateMachine"`` or ``"command"``."""
        return [origin(effect) for effect in self.effects]

    def by_state_machine(self):
        """The effects the state machine made (listeners, binds, converters, transitions)."""
        return [effect for effect in self.effects if origin(effect) == "stateMachine"]

    def __repr__(self):
        return f"Batch({self.target!r}, seq={self.seq}, effects={len(self.effects)}, resync={self.resync})"


def origin(effect):
    """Who made an effect of a batch: ``"stateMachine"`` or ``"command"`` (PROTOCOL.md §7)."""
    return effect.get("by", "command")


class Mirror:
    """A whole-target subscription: the replica, the presence members and who waits on them."""

    def __init__(self, target, file, types):
        self.target, self.file, self.types = target, file, types
        self.replica = None
        self.ready = asyncio.get_running_loop().create_future()
        self.listeners = {}  # id -> callable(replica, batch): value streams and batch streams
        self.seq_waiters = []  # (seq, future)
        self.error = None
        self.presence = []  # the members, {"member", "state"}, in join order (PROTOCOL.md §15)
        self.presence_listeners = {}  # id -> callable(members): member streams

    def install(self, snapshot):
        resync = self.replica is not None
        self.replica = Replica(snapshot, self.types)
        self.set_presence(snapshot.get("presence", []))
        if not self.ready.done():
            self.ready.set_result(None)
        self._notify(Batch(self.target, self.replica.seq, resync=True), resync)

    def set_presence(self, members):
        """The whole member list, from a snapshot or a resumed ``subscribed`` (none without
        ``seePresence``); member streams hear of it when it differs."""
        members = [{"member": m["member"], "state": m["state"]} for m in members]
        if members != self.presence:
            self._tell_presence(members)

    def apply_presence(self, message):
        """A ``presence`` message: its joins, updates and leaves, in order."""
        members = list(self.presence)
        for change in message["changes"]:
            index = next((i for i, m in enumerate(members) if m["member"] == change["member"]), None)
            if change["op"] == "leave":
                if index is not None:
                    del members[index]
            elif index is not None:
                members[index] = {"member": change["member"], "state": change["state"]}
            else:
                members.append({"member": change["member"], "state": change["state"]})
        self._tell_presence(members)

    def _tell_presence(self, members):
        self.presence = members
        for listener in list(self.presence_listeners.values()):
            listener(members)

    def apply(self, message):
        if self.replica is None or message["seq"] <= self.replica.seq:
            return
        self.replica.apply(message)
        self._notify(Batch.of(message), True)

    def _notify(self, batch, tell):
        if tell:
            for listener in list(self.listeners.values()):
                listener(self.replica, batch)
        waiting = []
        for seq, future in self.seq_waiters:
            if seq <= self.replica.seq:
                if not future.done():
                    future.set_result(None)
            else:
                waiting.append((seq, future))
        self.seq_waiters = waiting

    def fail(self, error):
        self.error = error
        if not self.ready.done():
            self.ready.set_exception(error)
            self.ready.exception()  # retrieved: nobody may be waiting
        for listener in list(self.listeners.values()):
            listener(None, error)
        self.listeners = {}
        for listener in list(self.presence_listeners.values()):
            listener(error)
        self.presence_listeners = {}
        for _, future in self.seq_waiters:
            if not future.done():
                future.set_exception(error)
        self.seq_waiters = []
