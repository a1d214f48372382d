"""The public API: ``Worker`` (a connection to a daemon, in the role of Rive's Worker),
``File``, ``Artboard``, ``StateMachine``, ``ViewModelInstance`` and ``RemoteTarget`` — the
concepts and names of the Swift client (``RiveSyncClient``), in Python style. Writes return
after the daemon's acknowledgement (a ``Receipt``) or raise the typed error; reads come from
the local replica, consistent with the last batch applied."""

import asyncio
import base64
import dataclasses

from .errors import StateMachineError, ViewModelInstanceError
from .session import Batch, Session

DEFAULT_URL = "ws://127.0.0.1:7420"


@dataclasses.dataclass(frozen=True)
class Receipt:
    """The daemon's acknowledgement of a command: the batch ``seq`` that applied it."""
    target: str
    seq: int
    command: int

    @classmethod
    def of(cls, ack):
        return cls(ack["target"], ack["seq"], ack["command"])


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


class File:
    """A file loaded in the daemon, with Rive's ``File`` queries."""

    def __init__(self, worker, name, schema):
        self.worker, self.name, self.schema = worker, name, schema

    def _request(self, message):
        return self.worker.session.request(dict(message, file=self.name))

    async def get_view_model_names(self):
        return (await self._request({"type": "viewModelNames"}))["names"]

    async def get_global_view_model_names(self):
        return (await self._request({"type": "globalViewModelNames"}))["names"]

    async def get_instance_names(self, view_model):
        return (await self._request({"type": "instanceNames", "viewModel": view_model}))["names"]

    async def get_properties(self, view_model):
        """``[{"name", "type", "metaData"}]``."""
        return (await self._request({"type": "properties", "viewModel": view_model}))["properties"]

    async def get_enums(self):
        return (await self._request({"type": "enums"}))["enums"]

    async def get_artboard_names(self):
        return (await self._request({"type": "artboardNames"}))["names"]

    async def default_view_model_info(self, artboard=None):
        message = {"type": "defaultViewModelInfo"}
        if artboard is not None:
            message["artboard"] = artboard
        reply = await self._request(message)
        return reply["viewModel"], reply["instance"]

    async def create_artboard(self, name=None):
        """The artboard ``name`` (default: the file's default artboard)."""
        names = await self.get_artboard_names()
        if name is not None and name not in names:
            from .errors import ArtboardError
            raise ArtboardError("invalid_artboard", f"no artboard '{name}'", {"name": name})
        return Artboard(self, name)

    async def create_view_model_instance(self, view_model=None, *, artboard=None, name=None, index=None, blank=False,
                                         publish=None):
        """A new instance, as Rive's sources: the view model's default (``view_model="Player"``,
        or ``artboard="Lobby"`` for an artboard's default view model), ``blank=True``, a copy of
        an authored instance by ``name`` or ``index``. ``publish`` shares it as a target."""
        of = {"viewModel": view_model} if view_model is not None else {"artboard": artboard}
        if blank:
            source = {"blank": of}
        elif name is not None:
            source = dict(of, name=name)
        elif index is not None:
            source = dict(of, index=index)
        else:
            source = {"default": of}
        message = {"type": "createInstance", "source": source}
        if publish is not None:
            message["publish"] = publish
        reply = await self._request(message)
        anchor = publish
        if publish is not None:
            self.worker.session.files[publish] = self.name
        return ViewModelInstance(self.worker, self.name, reply["instance"], reply["viewModel"], reply["name"], anchor)

    async def publish(self, instance, name):
        """Shares an existing instance as the target ``name``."""
        await self.worker.session.request({"type": "publish", "instance": instance.id, "name": name})
        self.worker.session.files[name] = self.name
        instance.anchor = instance.anchor or name
        return RemoteTarget(self.worker, name)


class Artboard:
    def __init__(self, file, name):
        self.file, self.name = file, name

    async def get_state_machine_names(self):
        message = {"type": "stateMachineNames"}
        if self.name is not None:
            message["artboard"] = self.name
        return (await self.file._request(message))["names"]

    async def create_state_machine(self, state_machine=None, *, binding=None, globals=None, manual=False, rate=None,
                                   target_name=None):
        """Creates a state machine target. ``binding``: the main instance; ``globals``:
        ``{"Theme": instance}``; ``manual``: advance only on ``advance()``. Without a
        ``target_name`` the target is private to this worker and deleted by ``close()``."""
        session = self.file.worker.session
        name = target_name or f"~py{session.tag}.m{next(session.names)}"
        message = {"type": "createStateMachine", "name": name, "mode": "manual" if manual else "auto"}
        if self.name is not None:
            message["artboard"] = self.name
        if state_machine is not None:
            message["stateMachine"] = state_machine
        if binding is not None:
            message["main"] = binding.id
        if globals:
            message["globals"] = [{"name": key, "instance": value.id} for key, value in globals.items()]
        if rate is not None:
            message["rate"] = rate
        await self.file._request(message)
        session.files[name] = self.file.name
        if target_name is None:
            session.private_targets.add(name)
        return StateMachine(self.file.worker, name)


class RemoteTarget:
    """Path-based access to a target (a state machine or a published instance). Paths are
    relative to it: ``mood``, ``@Theme/background``, ``players/0/x``, ``#17/x``."""

    def __init__(self, worker, name):
        self.worker, self.name = worker, name

    @property
    def session(self):
        return self.worker.session

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r})"

    async def info(self):
        for info in await self.session.target_list():
            if info["name"] == self.name:
                return info
        raise StateMachineError("unknown_target", f"no target '{self.name}'", {"target": self.name})

    async def file_name(self):
        return await self.session.file_of_target(self.name)

    async def replica(self):
        """The local replica (subscribing first if needed)."""
        return (await self.session.ensure_subscribed(self.name)).replica

    async def value(self, path):
        """The value at ``path`` as of the last batch applied (JSON form, PROTOCOL.md §4)."""
        return (await self.replica()).resolve(path)[3]

    async def value_type(self, path):
        return (await self.replica()).resolve(path)[2]

    async def get(self, path):
        """The daemon's current value at ``path`` (a ``get`` request, not the replica)."""
        return (await self.session.request({"type": "get", "target": self.name, "path": path}))["value"]

    async def seq(self):
        return (await self.replica()).seq

    async def state(self):
        """The whole state: bindings and every reachable instance, as a snapshot has them."""
        return (await self.replica()).state()

    async def digest(self):
        """The replica's state digest (equal to ``daemon_digest()`` at the same seq)."""
        return (await self.replica()).digest

    async def daemon_digest(self):
        """``(seq, digest)`` as the daemon computes them now."""
        reply = await self.session.request({"type": "digest", "target": self.name})
        return reply["seq"], reply["digest"]

    async def wait_for_seq(self, seq):
        """Returns once this client has applied the target's batch ``seq``."""
        await self.session.wait_for_seq(self.name, seq)

    async def _command(self, message):
        return Receipt.of(await self.session.request(dict(message, target=self.name)))

    async def set_value(self, path, value):
        """Sets a value (JSON form); returns after the daemon applied it."""
        return await self._command({"type": "set", "path": path, "value": _wire(value)})

    async def fire(self, path):
        return await self._command({"type": "fire", "path": path})

    async def append_instance(self, instance, path):
        return await self._command({"type": "listAppend", "path": path, "instance": _id(instance)})

    async def insert_instance(self, instance, path, index):
        return await self._command({"type": "listInsert", "path": path, "index": index, "instance": _id(instance)})

    async def remove_instance(self, path, *, index=None, instance=None):
        """Removes the item at ``index``, or every occurrence of ``instance``."""
        if index is not None:
            return await self._command({"type": "listRemoveAt", "path": path, "index": index})
        return await self._command({"type": "listRemove", "path": path, "instance": _id(instance)})

    async def swap_instances(self, path, index, other):
        return await self._command({"type": "listSwap", "path": path, "index": index, "with": other})

    async def bind(self, main=None, globals=None):
        """Binds instances to slots (all names checked before anything is queued)."""
        message = {"type": "bind"}
        if main is not None:
            message["main"] = _id(main)
        if globals:
            message["globals"] = [{"name": key, "instance": _id(value)} for key, value in globals.items()]
        return await self._command(message)

    async def advance(self):
        """Advances a manual target now; returns its seq after the advance. Commands sent to
        a manual target are acknowledged only by an advance: run the setter concurrently."""
        return (await self.session.request({"type": "advance", "target": self.name}))["seq"]

    async def value_stream(self, path, include_current=False):
        """An async iterator of the values at ``path`` from now on, one per batch that changes
        it (a trigger's value is its fire count); with ``include_current`` it starts with the
        current value. Raises at once for a path that does not resolve."""
        stream = _ValueStream(self, path, include_current)
        await stream.start()
        return stream

    async def batches(self, include_current=False):
        """An async iterator of every ``Batch`` of the target from now on, in seq order with
        no gaps; a resync after a long disconnection is marked ``resync``. With
        ``include_current`` the first is a ``resync`` marker with the current seq."""
        stream = _BatchStream(self, include_current)
        await stream.start()
        return stream

    async def bound_instance(self, slot="main"):
        replica = await self.replica()
        instance = replica.instance(slot)
        if instance is None:
            raise ViewModelInstanceError("null_instance", f"slot '{slot}' is empty", {"path": "" if slot == "main" else "@" + slot})
        state = replica.instances[instance]
        return ViewModelInstance(self.worker, await self.file_name(), instance, state["viewModel"], state["name"], self.name)


class StateMachine(RemoteTarget):
    """A state machine target: bind instances to it, advance it, get its bound instances back."""

    async def bind_view_model_instances(self, main=None, globals=None):
        return await self.bind(main, globals)

    async def main_instance(self):
        return await self.bound_instance("main")

    async def global_instance(self, name):
        return await self.bound_instance(name)


class ViewModelInstance:
    """A live instance, addressed by its id through a target that reaches it (``#id/path``)."""

    def __init__(self, worker, file, instance_id, view_model, name, anchor=None):
        self.worker, self.file, self.id, self.view_model, self.name, self.anchor = \
            worker, file, instance_id, view_model, name, anchor

    def __repr__(self):
        return f"ViewModelInstance(#{self.id}, {self.view_model!r}, {self.name!r})"

    def __eq__(self, other):
        return isinstance(other, ViewModelInstance) and other.id == self.id

    def __hash__(self):
        return hash(self.id)

    async def _target(self):
        if self.anchor is None:
            session = self.worker.session
            name = f"~py{session.tag}.i{self.id}"
            await session.request({"type": "publish", "instance": self.id, "name": name})
            session.files[name] = self.file
            session.private_targets.add(name)
            self.anchor = name
        return RemoteTarget(self.worker, self.anchor)

    def _path(self, path):
        return f"#{self.id}/{path}"

    async def value(self, path):
        return await (await self._target()).value(self._path(path))

    async def set_value(self, path, value):
        return await (await self._target()).set_value(self._path(path), value)

    async def fire(self, path):
        return await (await self._target()).fire(self._path(path))

    async def append_instance(self, instance, path):
        return await (await self._target()).append_instance(instance, self._path(path))

    async def insert_instance(self, instance, path, index):
        return await (await self._target()).insert_instance(instance, self._path(path), index)

    async def remove_instance(self, path, *, index=None, instance=None):
        return await (await self._target()).remove_instance(self._path(path), index=index, instance=instance)

    async def swap_instances(self, path, index, other):
        return await (await self._target()).swap_instances(self._path(path), index, other)

    async def size(self, path):
        return len(await self.value(path))

    async def instance(self, path, index=None):
        """The nested instance at ``path`` (or the list item at ``index``)."""
        value = await self.value(path)
        instance = value[index] if index is not None else (value or {}).get("instance")
        if instance is None:
            raise ViewModelInstanceError("null_instance", f"'{path}' is null", {"path": path})
        replica = await (await self._target()).replica()
        state = replica.instances[instance]
        return ViewModelInstance(self.worker, self.file, instance, state["viewModel"], state["name"], self.anchor)

    async def value_stream(self, path, include_current=False):
        """As ``RemoteTarget.value_stream``, for a path of this instance."""
        return await (await self._target()).value_stream(self._path(path), include_current)


def _id(instance):
    return instance.id if isinstance(instance, ViewModelInstance) else instance


def _wire(value):
    return {"instance": value.id} if isinstance(value, ViewModelInstance) else value


class _ValueStream:
    def __init__(self, target, path, include_current):
        self.target, self.path, self.include_current = target, path, include_current
        self.queue = asyncio.Queue()
        self.mirror = self.listener_id = None

    def __aiter__(self):
        return self

    async def start(self):
        session = self.target.session
        mirror = await session.ensure_subscribed(self.target.name)
        last = mirror.replica.resolve(self.path)[3]  # raises now for a bad path
        if self.include_current:
            self.queue.put_nowait(last)
        state = {"last": last}

        def listener(replica, batch):
            if replica is None:
                self.queue.put_nowait(batch)  # the error that ended the mirror
                return
            try:
                value = replica.resolve(self.path)[3]
            except ViewModelInstanceError:
                return  # not reachable now (an item removed above it); may come back
            if value != state["last"]:
                state["last"] = value
                self.queue.put_nowait(value)

        self.mirror, self.listener_id = mirror, session.add_listener(mirror, listener)

    async def __anext__(self):
        item = await self.queue.get()
        if isinstance(item, BaseException):
            raise item
        return item

    async def aclose(self):
        """Stops the stream."""
        if self.mirror is not None:
            self.mirror.listeners.pop(self.listener_id, None)


class _BatchStream(_ValueStream):
    def __init__(self, target, include_current):
        super().__init__(target, None, include_current)

    async def start(self):
        session = self.target.session
        mirror = await session.ensure_subscribed(self.target.name)
        if self.include_current:
            self.queue.put_nowait(Batch(self.target.name, mirror.replica.seq, resync=True))
        self.mirror = mirror
        self.listener_id = session.add_listener(mirror, lambda replica, batch: self.queue.put_nowait(batch))
