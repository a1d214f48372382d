"""The public API: ``Worker`` (a connection to a daemon, in the role of Rive's Worker),
``File``, ``Artboard``, ``StateMachine``, ``ViewModelInstance``, ``RemoteTarget`` and
``Presence`` — the concepts and names of the Swift client (``RiveSyncClient``), in Python
style. Writes return
after the daemon's acknowledgement (a ``Receipt``) or raise the typed error; reads come from
the local replica, consistent with the last batch applied."""

import base64

from .file import File
from .presence import Presence
from .session import Session
from .target import RemoteTarget, StateMachine

DEFAULT_URL = "ws://127.0.0.1:7420"


class Worker:
    """A connection to ``rivesyncd``. Use ``await Worker.connect(url)`` (or ``async with``).

    It reconnects by itself when the connection drops and resumes each subscription from its
    last batch, so replicas and streams go on without losing or repeating a change."""

    def __init__(self, session):
        self.session = session

    @classmethod
    async def connect(cls, url=DEFAULT_URL, token=None, *, client_name="rivesync-python", reconnect=True,
                      connect_timeout=5.0, request_timeout=None, ssl=None):
        """Connects and says hello. ``ssl``: an ``ssl.SSLContext`` for ``wss://`` with a
        private CA. Raises ``ConnectionFailed``, ``Unauthorized`` or ``WorkerError``."""
        session = Session(url, token, client_name, reconnect, connect_timeout, request_timeout, ssl)
        await session.start()
        return cls(session)

    async def __aenter__(self):
        return self

    async def __aexit__(self, *_):
        await self.close()

    @property
    def epoch(self):
        return self.session.epoch

    @property
    def limits(self):
        return dict(self.session.welcome.get("limits", {}))

    async def close(self):
        """Closes the connection; targets only this worker knows (anchors of its instances)
        are deleted first. Pending calls and streams end with ``Closed``."""
        await self.session.close()

    async def request(self, message, timeout=None):
        """Any protocol request as a dict (without ``id``); returns the reply dict. Prefer the
        typed methods; a subscribe sent this way must not be for a target this worker mirrors."""
        return await self.session.request(message, timeout)

    async def ping(self):
        await self.session.request({"type": "ping"})

    async def get_file_names(self):
        return [f["name"] for f in (await self.session.request({"type": "listFiles"}))["files"]]

    async def get_targets(self, page_size=None):
        """Every target as ``listTargets`` gives it (dicts with name, file, kind, mode, seq,
        bindings…), page by page (``page_size`` targets a request; default the daemon's)."""
        return await self.session.target_list(page_size)

    async def file(self, name):
        """The loaded file ``name`` (Rive: ``File(source:worker:)``)."""
        reply = await self.session.request({"type": "describe", "file": name})
        return File(self, name, reply["schema"])

    async def load_file(self, name, *, riv=None, schema=None):
        """Loads a ``.riv`` (bytes) or a JSON schema (dict) under ``name``; returns the ``File``."""
        message = {"type": "loadFile", "name": name}
        if riv is not None:
            message["riv"] = base64.b64encode(riv).decode()
        else:
            message["schema"] = schema
        await self.session.request(message)
        return await self.file(name)

    async def target(self, name):
        """Path-based access to any target."""
        await self.session.file_of_target(name)
        return RemoteTarget(self, name)

    async def state_machine(self, name):
        """A state machine that exists in the daemon (made by its configuration or another client)."""
        await self.session.file_of_target(name)
        return StateMachine(self, name)

    async def published_instance(self, name):
        """The instance published under ``name`` (e.g. a shared ``theme``)."""
        return await RemoteTarget(self, name).bound_instance()

    def presence(self, target):
        """The presence of ``target`` (PROTOCOL.md §15): ``join`` on it to become a member,
        ``members()`` to observe who is there."""
        return Presence(self, target)

    async def delete_target(self, name):
        """Deletes a target; returns the ids of the instances freed with it."""
        reply = await self.session.request({"type": "deleteTarget", "target": name})
        return reply["freed"]

    async def synchronize(self):
        """Returns once every target this worker mirrors has applied each batch the daemon had
        made when the call began (to see other clients' latest writes)."""
        for info in await self.session.target_list():
            if info["name"] in self.session.mirrors:
                await self.session.wait_for_seq(info["name"], info["seq"])

    async def decode_image(self, data, media_type=None):
        """Uploads PNG, JPEG or WebP bytes; returns the asset reference to set."""
        return await self._upload("image", data, media_type)

    async def decode_font(self, data, media_type=None):
        return await self._upload("font", data, media_type)

    async def decode_blob(self, data, media_type=None):
        return await self._upload("blob", data, media_type)

    async def _upload(self, kind, data, media_type):
        message = {"type": "upload", "kind": kind, "data": base64.b64encode(data).decode()}
        if media_type:
            message["mediaType"] = media_type
        return (await self.session.request(message))["asset"]

    async def drop_connection(self):
        """Test hook: drops the connection as a network failure would."""
        await self.session.drop_connection()
