"""A target's presence (PROTOCOL.md §15): who is looking at it now, each with a small JSON
state (a name, a colour, a cursor). Ephemeral: never journaled, empty after a daemon restart.
A member whose connection drops stays for the daemon's grace period; this client joins again
with the same key when it reconnects, so it resumes its member instead of leaving."""

from __future__ import annotations

import asyncio
import builtins
import dataclasses
import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .mirror import Mirror

if TYPE_CHECKING:
    from .session import Session
    from .worker import Worker


@dataclasses.dataclass(frozen=True)
class PresenceMember:
    """One member of a target's presence: the daemon's name for it (``p-17``, the same for
    every client) and its state (a dict)."""
    member: str
    state: dict[str, Any]

    @classmethod
    def of(cls, entry: Mapping[str, Any]) -> PresenceMember:
        """The member of a ``{"member", "state"}`` entry."""
        return cls(entry["member"], entry["state"])


class Presence:
    """The presence of one target, from ``worker.presence(target)``: ``join``, ``update``,
    ``leave``, ``list``, and ``members()`` to observe the member list."""

    def __init__(self, worker: Worker, target: str) -> None:
        self.worker, self.target = worker, target

    @property
    def session(self) -> Session:
        """The worker's connection."""
        return self.worker.session

    def __repr__(self) -> str:
        return f"Presence({self.target!r})"

    async def join(self, state: dict[str, Any]) -> str:
        """Joins with ``state`` (a dict; anything else is the daemon's ``bad_message``), or
        replaces the state if this worker is a member already; returns the member's name
        (``p-17``). Needs ``publishPresence``."""
        joined = self.session.presence_joins.get(self.target)
        key = joined["key"] if joined else secrets.token_hex(16)
        reply = await self.session.request({"type": "presenceJoin", "target": self.target, "key": key, "state": state})
        self.session.presence_joins[self.target] = {"key": key, "state": state}
        member: str = reply["member"]
        return member

    async def update(self, state: dict[str, Any]) -> None:
        """Replaces this worker's member state (no merge); ``StateMachineError`` with code
        ``not_joined`` before a join."""
        await self.session.request({"type": "presenceUpdate", "target": self.target, "state": state})
        joined = self.session.presence_joins.get(self.target)
        if joined is not None:
            joined["state"] = state

    async def leave(self) -> None:
        """Leaves the target's presence (subscribers see a ``left`` leave); not rejoined after
        a reconnect any more."""
        self.session.presence_joins.pop(self.target, None)
        await self.session.request({"type": "presenceLeave", "target": self.target})

    async def list(self) -> builtins.list[PresenceMember]:
        """The members as the daemon has them now, in join order (needs ``seePresence``)."""
        reply = await self.session.request({"type": "presenceList", "target": self.target})
        return [PresenceMember.of(entry) for entry in reply["members"]]

    async def current_members(self) -> builtins.list[PresenceMember]:
        """The member list as of the last presence message this worker applied (the target is
        subscribed to if it was not; empty without ``seePresence``)."""
        mirror = await self.session.ensure_subscribed(self.target)
        return [PresenceMember.of(entry) for entry in mirror.presence]

    async def members(self) -> MemberStream:
        """An async iterator of the member list: now, then after every change this worker
        receives, in the daemon's order among the target's batches."""
        stream = MemberStream(self)
        await stream.start()
        return stream


class MemberStream:
    """The member lists of a target's presence (``Presence.members``)."""

    def __init__(self, presence: Presence) -> None:
        self.presence = presence
        # The member lists, or the error that ended the mirror.
        self.queue: asyncio.Queue[list[dict[str, Any]] | BaseException] = asyncio.Queue()
        self.mirror: Mirror | None = None
        self.listener_id = 0

    def __aiter__(self) -> MemberStream:
        return self

    async def start(self) -> None:
        """Subscribes (if needed) and starts listening."""
        session = self.presence.session
        mirror = await session.ensure_subscribed(self.presence.target)
        self.queue.put_nowait(mirror.presence)

        def listener(members: list[dict[str, Any]] | BaseException) -> None:
            self.queue.put_nowait(members)  # a list, or the error that ended the mirror

        self.mirror = mirror
        self.listener_id = next(session.listener_ids)
        mirror.presence_listeners[self.listener_id] = listener

    async def __anext__(self) -> list[PresenceMember]:
        item = await self.queue.get()
        if isinstance(item, BaseException):
            raise item
        return [PresenceMember.of(entry) for entry in item]

    async def aclose(self) -> None:
        """Stops the stream."""
        if self.mirror is not None:
            self.mirror.presence_listeners.pop(self.listener_id, None)
