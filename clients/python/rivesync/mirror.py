"""A whole-target subscription (``Mirror``: the replica, the presence members and who waits on
them) and ``Batch``, one advance as this client applied it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Optional, Union

from .digest import Types
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

    def __init__(self, target: str, seq: int, effects: Iterable[dict[str, Any]] = (), commands: Iterable[int] = (),
                 resync: bool = False, authors: list[dict[str, Any]] | None = None, elapsed: float = 0,
                 events: Iterable[dict[str, Any]] = (), layers: Iterable[dict[str, Any]] = (), settled: bool = True) -> None:
        self.target, self.seq, self.resync = target, seq, resync
        self.effects, self.commands = list(effects), list(commands)
        # Who sent each command, ``{"client"?, "token"?}`` (PROTOCOL.md §17); None when the
        # daemon records no authors.
        self.authors = authors
        self.elapsed, self.events, self.layers, self.settled = elapsed, list(events), list(layers), settled

    @classmethod
    def of(cls, message: Mapping[str, Any]) -> Batch:
        """The ``Batch`` of a ``batch`` message."""
        return cls(
            message["target"], message["seq"], message["effects"], message.get("commands", ()),
            authors=message.get("authors"), elapsed=message.get("elapsed", 0), events=message.get("events", ()),
            layers=message.get("layers", ()), settled=message.get("settled", True))

    @property
    def origins(self) -> list[str]:
        """Who made each effect, in order: ``"stateMachine"`` or ``"command"``."""
        return [origin(effect) for effect in self.effects]

    def by_state_machine(self) -> list[dict[str, Any]]:
        """The effects the state machine made (listeners, binds, converters, transitions)."""
        return [effect for effect in self.effects if origin(effect) == "stateMachine"]

    def __repr__(self) -> str:
        return f"Batch({self.target!r}, seq={self.seq}, effects={len(self.effects)}, resync={self.resync})"


#: Called with the replica and the ``Batch`` applied, or with None and the error that ended the mirror.
BatchListener = Callable[[Optional[Replica], Union["Batch", BaseException]], None]


def origin(effect: Mapping[str, Any]) -> str:
    """Who made an effect of a batch: ``"stateMachine"`` or ``"command"`` (PROTOCOL.md §7)."""
    by: str = effect.get("by", "command")
    return by


class Mirror:
    """A whole-target subscription: the replica, the presence members and who waits on them."""

    def __init__(self, target: str, file: str, types: Types) -> None:
        self.target, self.file, self.types = target, file, types
        self.replica: Replica | None = None
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        # id -> callable(replica, batch) (None and the error when the mirror ends): value and batch streams
        self.listeners: dict[int, BatchListener] = {}
        self.seq_waiters: list[tuple[int, asyncio.Future[None]]] = []
        self.error: BaseException | None = None
        self.presence: list[dict[str, Any]] = []  # the members, {"member", "state"}, in join order (PROTOCOL.md §15)
        # id -> callable(members, or the error that ended the mirror): member streams
        self.presence_listeners: dict[int, Callable[[list[dict[str, Any]] | BaseException], None]] = {}

    def install(self, snapshot: Mapping[str, Any]) -> None:
        resync = self.replica is not None
        replica = self.replica = Replica(snapshot, self.types)
        self.set_presence(snapshot.get("presence", []))
        if not self.ready.done():
            self.ready.set_result(None)
        self._notify(Batch(self.target, replica.seq, resync=True), resync)

    def set_presence(self, members: Iterable[Mapping[str, Any]]) -> None:
        """The whole member list, from a snapshot or a resumed ``subscribed`` (none without
        ``seePresence``); member streams hear of it when it differs."""
        listed = [{"member": m["member"], "state": m["state"]} for m in members]
        if listed != self.presence:
            self._tell_presence(listed)

    def apply_presence(self, message: Mapping[str, Any]) -> None:
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

    def _tell_presence(self, members: list[dict[str, Any]]) -> None:
        self.presence = members
        for listener in list(self.presence_listeners.values()):
            listener(members)

    def apply(self, message: Mapping[str, Any]) -> None:
        if self.replica is None or message["seq"] <= self.replica.seq:
            return
        self.replica.apply(message)
        self._notify(Batch.of(message), True)

    def _notify(self, batch: Batch, tell: bool) -> None:
        replica = self.replica
        assert replica is not None
        if tell:
            for listener in list(self.listeners.values()):
                listener(replica, batch)
        waiting = []
        for seq, future in self.seq_waiters:
            if seq <= replica.seq:
                if not future.done():
                    future.set_result(None)
            else:
                waiting.append((seq, future))
        self.seq_waiters = waiting

    def fail(self, error: BaseException) -> None:
        self.error = error
        if not self.ready.done():
            self.ready.set_exception(error)
            self.ready.exception()  # retrieved: nobody may be waiting
        for listener in list(self.listeners.values()):
            listener(None, error)
        self.listeners = {}
        for presence_listener in list(self.presence_listeners.values()):
            presence_listener(error)
        self.presence_listeners = {}
        for _, future in self.seq_waiters:
            if not future.done():
                future.set_exception(error)
        self.seq_waiters = []
