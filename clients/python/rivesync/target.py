"""``RemoteTarget`` (path-based access to a state machine or published instance), its
subclass ``StateMachine``, ``Receipt``, the acknowledgement of a command, and ``Advanced``, the
answer to an advance."""

import dataclasses

from . import instance as _instance
from .errors import StateMachineError, ViewModelInstanceError
from .streams import BatchStream, ValueStream


@dataclasses.dataclass(frozen=True)
class Receipt:
    """The daemon's acknowledgement of a command: the batch ``seq`` that applied it. A
    transaction's lists every number in ``commands`` (``command`` is the first)."""
    target: str
    seq: int
    command: int
    commands: tuple = ()

    @classmethod
    def of(cls, ack):
        return cls(ack["target"], ack["seq"], ack["command"], tuple(ack.get("commands", (ack["command"],))))


@dataclasses.dataclass(frozen=True)
class Advanced:
    """A manual target's advance as the daemon answered it: the target's ``seq`` after it and
    whether its state machine is ``settled`` (needs no further advance, PROTOCOL.md §19)."""
    target: str
    seq: int
    settled: bool

    @classmethod
    def of(cls, reply):
        return cls(reply["target"], reply["seq"], reply.get("settled", True))


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

    async def transaction(self, commands):
        """Several commands in one advance, in their order, all or none (PROTOCOL.md §16):
        each a dict without ``target`` (``{"type": "set", "path": …, "value": …}``, ``fire``,
        list edits, ``bind``). Returns after the daemon applied them; raises the failing
        command's typed error, whose ``details["commandIndex"]`` names it (nothing applied)."""
        return await self._command({"type": "transaction", "commands": [dict(command) for command in commands]})

    async def set_value(self, path, value):
        """Sets a value (JSON form); returns after the daemon applied it."""
        return await self._command({"type": "set", "path": path, "value": _instance.wire(value)})

    async def fire(self, path):
        return await self._command({"type": "fire", "path": path})

    async def append_instance(self, instance, path):
        return await self._command({"type": "listAppend", "path": path, "instance": _instance.instance_id(instance)})

    async def insert_instance(self, instance, path, index):
        return await self._command({"type": "listInsert", "path": path, "index": index, "instance": _instance.instance_id(instance)})

    async def remove_instance(self, path, *, index=None, instance=None):
        """Removes the item at ``index``, or every occurrence of ``instance``."""
        if index is not None:
            return await self._command({"type": "listRemoveAt", "path": path, "index": index})
        return await self._command({"type": "listRemove", "path": path, "instance": _instance.instance_id(instance)})

    async def swap_instances(self, path, index, other):
        return await self._command({"type": "listSwap", "path": path, "index": index, "with": other})

    async def bind(self, main=None, globals=None):
        """Binds instances to slots (all names checked before anything is queued)."""
        message = {"type": "bind"}
        if main is not None:
            message["main"] = _instance.instance_id(main)
        if globals:
            message["globals"] = [{"name": key, "instance": _instance.instance_id(value)} for key, value in globals.items()]
        return await self._command(message)

    async def advance(self, elapsed=0):
        """Advances a manual target now, as Rive's ``advance(by:)``: applies its queued commands,
        then runs its state machine for ``elapsed`` seconds (0 to 60). Returns ``Advanced``
        (``seq`` after the advance, ``settled``). Commands sent to a manual target are
        acknowledged only by an advance: run the setter concurrently."""
        message = {"type": "advance", "target": self.name}
        if elapsed:
            message["elapsed"] = elapsed
        return Advanced.of(await self.session.request(message))

    async def advance_until_settled(self, step=1 / 60, limit=600):
        """Advances by ``step`` seconds until the state machine is settled (at most ``limit``
        advances, then ``StateMachineError`` ``not_settled``); returns the last ``Advanced``.
        The first advance runs 0 s when the state machine has never run (Rive's first
        ``advance(by: 0)``)."""
        advanced = await self.advance(0)
        for _ in range(limit):
            if advanced.settled:
                return advanced
            advanced = await self.advance(step)
        raise StateMachineError("not_settled", f"'{self.name}' did not settle in {limit} advances", {"target": self.name})

    async def value_stream(self, path, include_current=False):
        """An async iterator of the values at ``path`` from now on, one per batch that changes
        it (a trigger's value is its fire count); with ``include_current`` it starts with the
        current value. Raises at once for a path that does not resolve."""
        stream = ValueStream(self, path, include_current)
        await stream.start()
        return stream

    async def batches(self, include_current=False):
        """An async iterator of every ``Batch`` of the target from now on, in seq order with
        no gaps; a resync after a long disconnection is marked ``resync``. With
        ``include_current`` the first is a ``resync`` marker with the current seq."""
        stream = BatchStream(self, include_current)
        await stream.start()
        return stream

    async def bound_instance(self, slot="main"):
        replica = await self.replica()
        instance = replica.instance(slot)
        if instance is None:
            raise ViewModelInstanceError("null_instance", f"slot '{slot}' is empty", {"path": "" if slot == "main" else "@" + slot})
        state = replica.instances[instance]
        return _instance.ViewModelInstance(self.worker, await self.file_name(), instance, state["viewModel"], state["name"], self.name)


class StateMachine(RemoteTarget):
    """A state machine target: bind instances to it, advance it, get its bound instances back,
    read its layers' states."""

    async def layers(self):
        """Every layer's current state, ``{"layer", "name", "state", "kind", "animation"?}``,
        as the daemon lists it now (PROTOCOL.md §19)."""
        return (await self.info()).get("layers", [])

    async def settled(self):
        """Whether the state machine needs no further advance, as the daemon lists it now."""
        return (await self.info()).get("settled", True)

    async def inputs(self):
        """The state machine's legacy inputs in file order, ``{"name", "type": "number" |
        "boolean" | "trigger", "value"?}`` (no value for a trigger), as the daemon lists them
        now (PROTOCOL.md §19)."""
        return (await self.info()).get("inputs", [])

    async def set_input(self, name, value):
        """Sets a number or boolean input, as Rive's ``SMINumber.value`` / ``SMIBool.value``;
        returns the ``Receipt`` after the advance that applied it. An unknown input raises
        ``StateMachineError`` ``no_such_input``, one of another kind
        ``ViewModelInstanceError`` ``type_mismatch``."""
        return await self._command({"type": "setInput", "name": name, "value": value})

    async def fire_input(self, name):
        """Fires a trigger input, as Rive's ``SMITrigger.fire()``: the advance that applies it
        consumes it. Returns the ``Receipt`` after that advance."""
        return await self._command({"type": "fireInput", "name": name})

    async def bind_view_model_instances(self, main=None, globals=None):
        return await self.bind(main, globals)

    async def main_instance(self):
        return await self.bound_instance("main")

    async def global_instance(self, name):
        return await self.bound_instance(name)
