"""The public API: ``Worker`` (a connection to a daemon, in the role of Rive's Worker),
``File``, ``Artboard``, ``StateMachine``, ``ViewModelInstance``, ``RemoteTarget`` and
``Presence`` — the concepts and names of the Swift client (``RiveSyncClient``), in Python
style. Writes return
after the daemon's acknowledgement (a ``Receipt``) or raise the typed error; reads come from
the local replica, consistent with the last batch applied."""

from __future__ import annotations

import base64
import ssl as _ssl
from types import TracebackType
from typing import Any

from .errors import ConnectionFailed, WrongNode
from .file import File
from .presence import Presence
from .session import Session
from .instance import ViewModelInstance
from .target import RemoteTarget, StateMachine

DEFAULT_URL = "ws://127.0.0.1:7420"


class Worker:
    """A connection to ``rivesyncd``. Use ``await Worker.connect(url)`` (or ``async with``).

    It reconnects by itself when the connection drops and resumes each subscription from its
    last batch, so replicas and streams go on without losing or repeating a change."""

    def __init__(self, session: Session) -> None:
        #: The connection (requests, mirrors, reconnecting); its counters are for tests.
        self.session = session

    @classmethod
    async def connect(cls, url: str = DEFAULT_URL, token: str | None = None, *, client_name: str = "rivesync-python",
                      reconnect: bool = True, connect_timeout: float = 5.0, request_timeout: float | None = None,
                      ssl: _ssl.SSLContext | None = None) -> Worker:
        """Connects and says hello. ``ssl``: an ``ssl.SSLContext`` for ``wss://`` with a
        private CA. Raises ``ConnectionFailed``, ``Unauthorized`` or ``WorkerError``."""
        session = Session(url, token, client_name, reconnect, connect_timeout, request_timeout, ssl)
        await session.start()
        return cls(session)

    @classmethod
    async def connect_serving(cls, url: str = DEFAULT_URL, token: str | None = None, *, target: str | None = None,
                              file: str | None = None, **options: Any) -> Worker:
        """Connects as ``connect`` does, to a node that serves ``target`` (or ``file``): a
        cluster node of other shards answers ``wrong_node`` naming the nodes of the right one
        (protocol/CLUSTER.md §6.3), and this follows it — once, to the first of them that
        answers. Raises ``WrongNode`` when none of them serves it. ``options``: those of
        ``connect``."""
        if (target is None) == (file is None):
            raise ValueError("give target or file")
        probe = {"type": "digest", "target": target} if target is not None else {"type": "describe", "file": file}
        refused: WrongNode | None = None
        candidates = [url]
        while candidates:
            node = candidates.pop(0)
            try:
                worker = await cls.connect(node, token, **options)
            except ConnectionFailed:
                if node == url:
                    raise
                continue
            try:
                await worker.request(probe)
                return worker
            except WrongNode as wrong:
                await worker.close()
                if refused is None:
                    candidates = list(wrong.nodes)
                refused = wrong
            except BaseException:
                await worker.close()
                raise
        assert refused is not None
        raise refused

    async def __aenter__(self) -> Worker:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        traceback: TracebackType | None) -> None:
        await self.close()

    @property
    def epoch(self) -> str:
        """The daemon's epoch (from its ``welcome``)."""
        return self.session.epoch

    @property
    def limits(self) -> dict[str, Any]:
        """The daemon's limits (from its ``welcome``)."""
        return dict((self.session.welcome or {}).get("limits", {}))

    async def close(self) -> None:
        """Closes the connection; targets only this worker knows (anchors of its instances)
        are deleted first. Pending calls and streams end with ``Closed``."""
        await self.session.close()

    async def request(self, message: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        """Any protocol request as a dict (without ``id``); returns the reply dict. Prefer the
        typed methods; a subscribe sent this way must not be for a target this worker mirrors."""
        return await self.session.request(message, timeout)

    async def ping(self) -> None:
        """A round trip to the daemon."""
        await self.session.request({"type": "ping"})

    async def get_file_names(self) -> list[str]:
        """The names of the files the daemon has loaded."""
        return [f["name"] for f in (await self.session.request({"type": "listFiles"}))["files"]]

    async def get_targets(self, page_size: int | None = None) -> list[dict[str, Any]]:
        """Every target as ``listTargets`` gives it (dicts with name, file, kind, mode, seq,
        bindings…), page by page (``page_size`` targets a request; default the daemon's)."""
        return await self.session.target_list(page_size)

    async def file(self, name: str) -> File:
        """The loaded file ``name`` (Rive: ``File(source:worker:)``)."""
        reply = await self.session.request({"type": "describe", "file": name})
        return File(self, name, reply["schema"])

    async def load_file(self, name: str, *, riv: bytes | None = None, schema: dict[str, Any] | None = None) -> File:
        """Loads a ``.riv`` (bytes) or a JSON schema (dict) under ``name``; returns the ``File``.
        A ``.riv`` whose base64 would not fit in the daemon's ``maxMessageBytes`` goes in parts
        (PROTOCOL.md §9)."""
        message: dict[str, Any] = {"type": "loadFile", "name": name}
        if riv is None:
            message["schema"] = schema
            await self.session.request(message)
            return await self.file(name)
        limits = self.session.welcome["limits"] if self.session.welcome else {}
        # base64 takes 4 characters for every 3 bytes; the rest of the message fits in 256
        # bytes besides the name (escaped at worst 6 characters a byte).
        part_bytes = max(3, (int(limits.get("maxMessageBytes", 1 << 20)) - 256 - 6 * len(name.encode())) // 4 * 3)
        if len(riv) <= part_bytes:
            await self.session.request({**message, "riv": base64.b64encode(riv).decode()})
        else:
            for offset in range(0, len(riv), part_bytes):
                part = base64.b64encode(riv[offset:offset + part_bytes]).decode()
                await self.session.request({**message, "riv": part, "offset": offset, "size": len(riv)})
        return await self.file(name)

    async def target(self, name: str) -> RemoteTarget:
        """Path-based access to any target."""
        await self.session.file_of_target(name)
        return RemoteTarget(self, name)

    async def state_machine(self, name: str) -> StateMachine:
        """A state machine that exists in the daemon (made by its configuration or another client)."""
        await self.session.file_of_target(name)
        return StateMachine(self, name)

    async def published_instance(self, name: str) -> ViewModelInstance:
        """The instance published under ``name`` (e.g. a shared ``theme``)."""
        return await RemoteTarget(self, name).bound_instance()

    def presence(self, target: str) -> Presence:
        """The presence of ``target`` (PROTOCOL.md §15): ``join`` on it to become a member,
        ``members()`` to observe who is there."""
        return Presence(self, target)

    async def delete_target(self, name: str) -> list[int]:
        """Deletes a target; returns the ids of the instances freed with it."""
        reply = await self.session.request({"type": "deleteTarget", "target": name})
        freed: list[int] = reply["freed"]
        return freed

    async def synchronize(self) -> None:
        """Returns once every target this worker mirrors has applied each batch the daemon had
        made when the call began (to see other clients' latest writes)."""
        for info in await self.session.target_list():
            if info["name"] in self.session.mirrors:
                await self.session.wait_for_seq(info["name"], info["seq"])

    async def decode_image(self, data: bytes, media_type: str | None = None) -> dict[str, Any]:
        """Uploads PNG, JPEG or WebP bytes; returns the asset reference to set."""
        return await self._upload("image", data, media_type)

    async def decode_font(self, data: bytes, media_type: str | None = None) -> dict[str, Any]:
        """Uploads font bytes; returns the asset reference to set."""
        return await self._upload("font", data, media_type)

    async def decode_blob(self, data: bytes, media_type: str | None = None) -> dict[str, Any]:
        """Uploads any bytes; returns the asset reference to set."""
        return await self._upload("blob", data, media_type)

    async def _upload(self, kind: str, data: bytes, media_type: str | None) -> dict[str, Any]:
        message = {"type": "upload", "kind": kind, "data": base64.b64encode(data).decode()}
        if media_type:
            message["mediaType"] = media_type
        asset: dict[str, Any] = (await self.session.request(message))["asset"]
        return asset

    async def drop_connection(self) -> None:
        """Test hook: drops the connection as a network failure would."""
        await self.session.drop_connection()
