"""The connection behind a ``Worker``: requests and their replies, one mirror (replica and
streams) per subscribed target, and reconnecting with resume. Everything runs on the event
loop of the worker's creator; messages are handled in arrival order by one reader task, so a
snapshot is installed before any later batch is applied (PROTOCOL.md §10)."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import ssl as _ssl
from collections.abc import Coroutine, Mapping
from typing import Any, Union

import websockets
from websockets.typing import Subprotocol

from .errors import (Closed, ConnectionFailed, Disconnected, Forbidden, RiveSyncError, TargetDeleted, Unauthorized,
                     from_reply)
from .digest import Types
from .mirror import BatchListener, Mirror
from .replica import ReplicaError, schema_types

PROTOCOL_VERSIONS = [1]

#: What waits on a request id: the caller's future, or ``("subscription", target)`` or
#: ``("presence", target)`` for a subscribe or a presence rejoin the session sent itself.
Pending = Union["asyncio.Future[dict[str, Any]]", tuple[str, str]]


class Session:
    """One worker's connection: see the module's documentation."""

    def __init__(self, url: str, token: str | None = None, client_name: str = "rivesync-python", reconnect: bool = True,
                 connect_timeout: float = 5.0, request_timeout: float | None = None,
                 ssl: _ssl.SSLContext | None = None) -> None:
        self.url, self.token, self.client_name = url, token, client_name
        self.reconnect, self.connect_timeout, self.request_timeout, self.ssl = reconnect, connect_timeout, request_timeout, ssl
        self.tag = format(random.getrandbits(32), "x")
        self.phase = "connecting"
        self.ws: Any = None  # the websockets connection (its class differs between websockets versions)
        self.reader: asyncio.Task[None] | None = None
        self.generation = 0
        self.ids = itertools.count(1)
        self.pending: dict[int, Pending] = {}
        self.mirrors: dict[str, Mirror] = {}
        self.files: dict[str, str] = {}  # target -> file name
        self.types: dict[str, Types] = {}  # file -> view model -> property -> type
        self.welcome: dict[str, Any] | None = None
        self.ready_waiters: list[asyncio.Future[None]] = []
        self.private_targets: set[str] = set()
        self.presence_joins: dict[str, dict[str, Any]] = {}  # target -> {"key", "state"}: joined again after a reconnect
        self.listener_ids = itertools.count(1)
        self.names = itertools.count(1)  # of private state machines
        self.reconnect_task: asyncio.Future[None] | None = None
        self.background: set[asyncio.Future[None]] = set()  # sends started without awaiting (subscribes, rejoins); awaited by close()
        self.reconnect_hold: asyncio.Event | None = None  # test hook: an Event the reconnect loop waits for
        self.reading = asyncio.Event()  # test hook: cleared, incoming messages wait unread
        self.reading.set()
        # What the test suite checks: request types sent, resumes and resyncs seen.
        self.sent_types: set[str] = set()
        self.resumes = 0
        self.resyncs = 0
        self.rejoins = 0  # presence members resumed by a join after a reconnect

    @property
    def epoch(self) -> str:
        """The daemon's epoch, from its ``welcome``."""
        return str(self.welcome["epoch"]) if self.welcome else ""

    async def start(self) -> None:
        """Connects and says hello (``ConnectionFailed``, ``Unauthorized``, …)."""
        try:
            await self._open()
        except BaseException:
            self.phase = "closed"
            raise
        self.phase = "ready"

    async def _open(self) -> None:
        self.generation += 1
        generation = self.generation
        try:
            # Only a given context: websockets picks the default one for wss:// when none is passed.
            options: dict[str, Any] = {"ssl": self.ssl} if self.ssl is not None else {}
            ws = await asyncio.wait_for(
                websockets.connect(self.url, subprotocols=[Subprotocol("rivesync.v1")], max_size=None, open_timeout=None,
                                   ping_interval=None, **options),
                self.connect_timeout)
        except asyncio.TimeoutError:
            raise ConnectionFailed(f"{self.url}: no answer within {self.connect_timeout:g} s") from None
        except (OSError, websockets.exceptions.WebSocketException) as error:
            raise ConnectionFailed(f"{self.url}: {error}") from None
        self.ws = ws
        self.reader = asyncio.create_task(self._read(ws, generation))
        hello = {"type": "hello", "protocol": PROTOCOL_VERSIONS, "client": self.client_name}
        if self.token is not None:
            hello["token"] = self.token
        try:
            self.welcome = await asyncio.wait_for(self._send(hello), self.connect_timeout)
        except asyncio.TimeoutError:
            await ws.close()
            raise ConnectionFailed(f"{self.url}: no welcome within {self.connect_timeout:g} s") from None
        except Disconnected as error:
            raise ConnectionFailed(f"{self.url}: {error.message}") from None

    async def request(self, message: Mapping[str, Any], timeout: float | None = None) -> dict[str, Any]:
        """Sends a request once connected and returns its reply (an ``error`` raises)."""
        await self._ready()
        timeout = timeout if timeout is not None else self.request_timeout
        if timeout is None:
            return await self._send(message)
        return await asyncio.wait_for(self._send(message), timeout)

    async def _ready(self) -> None:
        if self.phase == "ready":
            return
        if self.phase == "closed":
            raise Closed()
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.ready_waiters.append(waiter)
        await waiter

    async def _send(self, message: Mapping[str, Any]) -> dict[str, Any]:
        ws = self.ws
        if ws is None:
            raise Disconnected()
        request_id = next(self.ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[request_id] = future
        self.sent_types.add(message["type"])
        try:
            await ws.send(json.dumps(dict(message, id=request_id)))
        except websockets.exceptions.ConnectionClosed:
            self.pending.pop(request_id, None)
            raise Disconnected() from None
        return await future

    def send_subscribe(self, target: str, cursor: dict[str, Any] | None) -> None:
        """Subscribes to ``target`` (from ``cursor``: resume) without waiting; the reply goes to its mirror."""
        if self.ws is None:
            return
        request_id = next(self.ids)
        self.pending[request_id] = ("subscription", target)
        message: dict[str, Any] = {"type": "subscribe", "target": target, "id": request_id}
        if cursor:
            message["cursor"] = cursor
        self.sent_types.add("subscribe")
        self._in_background(self._send_quietly(self.ws, message))

    def send_presence_rejoin(self, target: str, joined: Mapping[str, Any]) -> None:
        """After a reconnect: the join with the same key, which resumes the member (§15)."""
        request_id = next(self.ids)
        self.pending[request_id] = ("presence", target)
        self.sent_types.add("presenceJoin")
        message = {"type": "presenceJoin", "target": target, "key": joined["key"], "state": joined["state"], "id": request_id}
        self._in_background(self._send_quietly(self.ws, message))

    def _in_background(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coroutine)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def _send_quietly(self, ws: Any, message: Mapping[str, Any]) -> None:
        try:
            await ws.send(json.dumps(message))
        except websockets.exceptions.ConnectionClosed:
            pass  # the reconnect resubscribes

    async def _read(self, ws: Any, generation: int) -> None:
        try:
            async for raw in ws:
                await self.reading.wait()
                self._handle(json.loads(raw))
        except websockets.exceptions.ConnectionClosed:
            pass
        finally:
            if generation == self.generation:
                self._link_ended(ws)

    def _handle(self, message: dict[str, Any]) -> None:
        kind, request_id = message.get("type"), message.get("id")
        if request_id is not None and kind != "batch" and request_id in self.pending:
            entry = self.pending.pop(request_id)
            if isinstance(entry, tuple) and entry[0] == "presence":
                self._rejoin_reply(entry[1], message)
            elif isinstance(entry, tuple):
                self._subscription_reply(entry[1], message)
            elif entry.done():
                pass
            elif kind == "error":
                entry.set_exception(from_reply(message))
            else:
                entry.set_result(message)
            return
        target = message.get("target")
        mirror = self.mirrors.get(target) if isinstance(target, str) else None
        if kind == "batch" and mirror is not None:
            try:
                mirror.apply(message)
            except ReplicaError:
                mirror.replica = None
                self.send_subscribe(mirror.target, None)
        elif kind == "snapshot" and mirror is not None:
            self.resyncs += 1
            mirror.install(message)
        elif kind == "presence" and mirror is not None:
            mirror.apply_presence(message)
        elif kind == "unsubscribed" and mirror is not None:
            del self.mirrors[mirror.target]
            if message.get("reason") == "deleted":
                mirror.fail(TargetDeleted("target_deleted", f"target '{mirror.target}' was deleted", {"target": mirror.target}))
            else:
                mirror.fail(Forbidden("forbidden", f"no longer allowed to read '{mirror.target}'", {"target": mirror.target}))
        elif kind == "error" and message.get("code") == "unauthorized":
            self.phase = "closed"
            self._fail_everything(from_reply(message))

    def _subscription_reply(self, target: str, message: dict[str, Any]) -> None:
        mirror = self.mirrors.get(target)
        if mirror is None:
            return
        if message["type"] == "snapshot":
            if mirror.replica is not None:
                self.resyncs += 1
            mirror.install(message)
        elif message["type"] == "subscribed" and message.get("resumed"):
            self.resumes += 1
            mirror.set_presence(message.get("presence", []))
        elif message["type"] == "error":
            del self.mirrors[target]
            mirror.fail(from_reply(message))

    def _rejoin_reply(self, target: str, message: dict[str, Any]) -> None:
        if message["type"] == "presenceJoined":
            self.rejoins += message.get("resumed") is True
        else:
            # Refused now (e.g. a tokens reload took publishPresence away): no longer a member.
            self.presence_joins.pop(target, None)

    def _link_ended(self, ws: Any) -> None:
        if self.ws is ws:
            self.ws = None
        for request_id, entry in list(self.pending.items()):
            if not isinstance(entry, tuple) and not entry.done():
                entry.set_exception(Disconnected())
        self.pending = {}
        if self.phase in ("closed", "connecting"):
            return
        if not self.reconnect:
            self.phase = "closed"
            self._fail_everything(Disconnected())
            return
        if self.phase != "reconnecting":
            self.phase = "reconnecting"
            self.reconnect_task = asyncio.ensure_future(self._reconnect_loop())

    async def _reconnect_loop(self) -> None:
        delay = 0.05
        while self.phase == "reconnecting":
            if self.reconnect_hold is not None:
                await self.reconnect_hold.wait()
            try:
                await self._open()
            except Unauthorized as error:
                self.phase = "closed"
                self._fail_everything(error)
                return
            except (RiveSyncError, OSError):
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
                continue
            if self.phase != "reconnecting":
                return
            self.phase = "ready"
            for mirror in list(self.mirrors.values()):
                replica = mirror.replica
                cursor = {"epoch": replica.epoch, "seq": replica.seq} if replica else None
                self.send_subscribe(mirror.target, cursor)
            for target, joined in list(self.presence_joins.items()):
                self.send_presence_rejoin(target, joined)
            waiters, self.ready_waiters = self.ready_waiters, []
            for waiter in waiters:
                if not waiter.done():
                    waiter.set_result(None)

    def _fail_everything(self, error: BaseException) -> None:
        for entry in self.pending.values():
            if not isinstance(entry, tuple) and not entry.done():
                entry.set_exception(error)
        self.pending = {}
        for waiter in self.ready_waiters:
            if not waiter.done():
                waiter.set_exception(error)
        self.ready_waiters = []
        for mirror in list(self.mirrors.values()):
            mirror.fail(error)
        self.mirrors = {}

    async def close(self) -> None:
        """Deletes this worker's private targets, closes the connection, ends what waits with ``Closed``."""
        if self.phase == "closed":
            return
        was_ready = self.phase == "ready"
        self.phase = "closed"
        if self.reconnect_task is not None:
            self.reconnect_task.cancel()
            await asyncio.gather(self.reconnect_task, return_exceptions=True)
        ws = self.ws
        if ws is not None:
            if was_ready:
                for name in sorted(self.private_targets):
                    try:
                        await ws.send(json.dumps({"type": "deleteTarget", "target": name}))
                    except websockets.exceptions.ConnectionClosed:
                        break
            await ws.close()
        self._fail_everything(Closed())
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)
        await asyncio.gather(*self.background, return_exceptions=True)

    async def drop_connection(self) -> None:
        """Test hook: drops the connection as a network failure would (no close frame), and
        returns once the worker has noticed (it is reconnecting, or closed without reconnect)."""
        if self.ws is not None and self.reader is not None:
            self.ws.transport.abort()
            await asyncio.gather(self.reader, return_exceptions=True)

    # Targets, files and mirrors.

    async def file_of_target(self, target: str) -> str:
        """The file ``target`` is of (``unknown_target`` if the daemon has no such target)."""
        if target not in self.files:
            await self.target_list()
            if target not in self.files:
                from .errors import StateMachineError
                raise StateMachineError("unknown_target", f"no target '{target}'", {"target": target})
        return self.files[target]

    async def target_list(self, page_size: int | None = None) -> list[dict[str, Any]]:
        """Every target, following ``listTargets`` pages until a reply has no ``next``."""
        targets: list[dict[str, Any]] = []
        after: str | None = None
        while True:
            message: dict[str, Any] = {"type": "listTargets"}
            if page_size is not None:
                message["limit"] = page_size
            if after is not None:
                message["after"] = after
            reply = await self.request(message)
            targets += reply["targets"]
            if not isinstance(reply.get("next"), str) or reply["next"] == after:
                break
            after = reply["next"]
        for info in targets:
            self.files[info["name"]] = info["file"]
        return targets

    async def types_of(self, file: str) -> Types:
        """view model → property → type of ``file`` (asked once)."""
        if file not in self.types:
            reply = await self.request({"type": "describe", "file": file})
            self.types[file] = schema_types(reply["schema"])
        return self.types[file]

    async def ensure_subscribed(self, target: str) -> Mirror:
        """The mirror of ``target``, subscribed first if needed, once its snapshot is installed."""
        mirror = self.mirrors.get(target)
        if mirror is None:
            file = await self.file_of_target(target)
            types = await self.types_of(file)
            await self._ready()
            mirror = self.mirrors.get(target)
            if mirror is None:
                mirror = self.mirrors[target] = Mirror(target, file, types)
                self.send_subscribe(target, None)
        await asyncio.shield(mirror.ready)
        return mirror

    async def wait_for_seq(self, target: str, seq: int) -> None:
        """Returns once the mirror of ``target`` has applied batch ``seq``."""
        mirror = await self.ensure_subscribed(target)
        if mirror.replica is not None and mirror.replica.seq >= seq:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        mirror.seq_waiters.append((seq, future))
        await future

    def add_listener(self, mirror: Mirror, callback: BatchListener) -> int:
        """Adds a batch listener to ``mirror``; returns its id (to remove it)."""
        listener_id = next(self.listener_ids)
        mirror.listeners[listener_id] = callback
        return listener_id
