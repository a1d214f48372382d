"""``RemoteTarget`` (path-based access to a state machine or published instance), its
subclass ``StateMachine``, ``Receipt``, the acknowledgement of a command, and ``Advanced``, the
answer to an advance."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from . import instance as _instance
from .errors import StateMachineError, ViewModelInstanceError
from .replica import Replica
from .streams import BatchStream, ValueStream

if TYPE_CHECKING:
    from .instance import InstanceRef
    from .session import Session
    from .worker import Worker


@dataclasses.dataclass(frozen=True)
class Receipt:
    """The daemon's acknowledgement of a command: the batch ``seq`` that applied it. A
    transaction's lists every number in ``commands`` (``command`` is the first)."""
    target: str
    seq: int
    command: int
    commands: tuple[int, ...] = ()

    @classmethod
    def of(cls, ack: Mapping[str, Any]) -> Receipt:
        """The receipt of an ``ack`` message."""
        return cls(ack["target"], ack["seq"], ack["command"], tuple(ack.get("commands", (ack["command"],))))


@dataclasses.dataclass(frozen=True)
class Advanced:
    """A manual target's advance as the daemon answered it: the target's ``seq`` after it and
    whether its state machine is ``settled`` (needs no further advance, PROTOCOL.md §19)."""
    target: str
    seq: int
    settled: bool

    @classmethod
    def of(cls, reply: Mapping[str, Any]) -> Advanced:
        """The answer of an ``advanced`` reply."""
        return cls(reply["target"], reply["seq"], reply.get("settled", True))


class RemoteTarget:
    """Path-based access to a target (a state machine or a published instance). Paths are
    relative to it: ``mood``, ``@Theme/background``, ``players/0/x``, ``#17/x``."""

    def __init__(self, worker: Worker, name: str) -> None:
        self.worker, self.name = worker, name

    @property
    def session(self) -> Session:
        """The worker's connection."""
        return self.worker.session

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    async def info(self) -> dict[str, Any]:
        """The target as ``listTargets`` lists it now (name, file, kind, mode, seq, bindings…)."""
        for info in await self.session.target_list():
            if info["name"] == self.name:
                return info
        raise StateMachineError("unknown_target", f"no target '{self.name}'", {"target": self.name})

    async def file_name(self) -> str:
        """The name of the file the target is of."""
        return await self.session.file_of_target(self.name)

    async def replica(self) -> Replica:
        """The local replica (subscribing first if needed)."""
        replica = (await self.session.ensure_subscribed(self.name)).replica
        assert replica is not None  # a mirror is ready once its snapshot is installed
        return replica

    async def value(self, path: str) -> Any:
        """The value at ``path`` as of the last batch applied (JSON form, PROTOCOL.md §4)."""
        return (await self.replica()).resolve(path)[3]

    async def value_type(self, path: str) -> str:
        """The type name of the property at ``path`` (``number``, ``list``, …)."""
        return (await self.replica()).resolve(path)[2]

    async def get(self, path: str) -> Any:
        """The daemon's current value at ``path`` (a ``get`` request, not the replica)."""
        return (await self.session.request({"type": "get", "target": self.name, "path": path}))["value"]

    async def seq(self) -> int:
        """The seq of the last batch the replica applied."""
        return (await self.replica()).seq

    async def state(self) -> dict[str, Any]:
        """The whole state: bindings and every reachable instance, as a snapshot has them."""
        return (await self.replica()).state()

    async def digest(self) -> str:
        """The replica's state digest (equal to ``daemon_digest()`` at the same seq)."""
        return (await self.replica()).digest

    async def daemon_digest(self) -> tuple[int, str]:
        """``(seq, digest)`` as the daemon computes them now."""
        reply = await self.session.request({"type": "digest", "target": self.name})
        return int(reply["seq"]), str(reply["digest"])

    async def wait_for_seq(self, seq: int) -> None:
        """Returns once this client has applied the target's batch ``seq``."""
        await self.session.wait_for_seq(self.name, seq)

    async def _command(self, message: Mapping[str, Any]) -> Receipt:
        return Receipt.of(await self.session.request(dict(message, target=self.name)))

    async def transaction(self, commands: Iterable[Mapping[str, Any]]) -> Receipt:
        """Several commands in one advance, in their order, all or none (PROTOCOL.md §16):
        each a dict without ``target`` (``{"type": "set", "path": …, "value": …}``, ``fire``,
        list edits, ``bind``). Returns after the daemon applied them; raises the failing
        command's typed error, whose ``details["commandIndex"]`` names it (nothing applied)."""
        return await self._command({"type": "transaction", "commands": [dict(command) for command in commands]})

    async def set_value(self, path: str, value: Any) -> Receipt:
        """Sets a value (JSON form); returns after the daemon applied it."""
        return await self._command({"type": "set", "path": path, "value": _instance.wire(value)})

    async def fire(self, path: str) -> Receipt:
        """Fires the trigger at ``path``; returns after the daemon applied it."""
        return await self._command({"type": "fire", "path": path})

    async def append_instance(self, instance: InstanceRef, path: str) -> Receipt:
        """Appends ``instance`` to the list at ``path``."""
        return await self._command({"type": "listAppend", "path": path, "instance": _instance.instance_id(instance)})

    async def insert_instance(self, instance: InstanceRef, path: str, index: int) -> Receipt:
        """Inserts ``instance`` at ``index`` of the list at ``path``."""
        return await self._command({"type": "listInsert", "path": path, "index": index, "instance": _instance.instance_id(instance)})

    async def remove_instance(self, path: str, *, index: int | None = None,
                              instance: InstanceRef | None = None) -> Receipt:
        """Removes the item at ``index``, or every occurrence of ``instance``."""
        if index is not None:
            return await self._command({"type": "listRemoveAt", "path": path, "index": index})
        return await self._command({"type": "listRemove", "path": path, "instance": _instance.instance_id(instance)})

    async def swap_instances(self, path: str, index: int, other: int) -> Receipt:
        """Swaps the items at ``index`` and ``other`` of the list at ``path``."""
        return await self._command({"type": "listSwap", "path": path, "index": index, "with": other})

    async def bind(self, main: InstanceRef | None = None, globals: Mapping[str, InstanceRef] | None = None) -> Receipt:
        """Binds instances to slots (all names checked before anything is queued)."""
        message: dict[str, Any] = {"type": "bind"}
        if main is not None:
            message["main"] = _instance.instance_id(main)
        if globals:
            message["globals"] = [{"name": key, "instance": _instance.instance_id(value)} for key, value in globals.items()]
        return await self._command(message)

    async def advance(self, elapsed: float = 0) -> Advanced:
        """Advances a manual target now, as Rive's ``advance(by:)``: applies its queued commands,
        then runs its state machine for ``elapsed`` seconds (0 to 60). Returns ``Advanced``
        (``seq`` after the advance, ``settled``). Commands sent to a manual target are
        acknowledged only by an advance: run the setter concurrently."""
        message: dict[str, Any] = {"type": "advance", "target": self.name}
        if elapsed:
            message["elapsed"] = elapsed
        return Advanced.of(await self.session.request(message))

    async def advance_until_settled(self, step: float = 1 / 60, limit: int = 600) -> Advanced:
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

    async def value_stream(self, path: str, include_current: bool = False) -> ValueStream:
        """An async iterator of the values at ``path`` from now on, one per batch that changes
        it (a trigger's value is its fire count); with ``include_current`` it starts with the
        current value. Raises at once for a path that does not resolve."""
        stream = ValueStream(self, path, include_current)
        await stream.start()
        return stream

    async def batches(self, include_current: bool = False) -> BatchStream:
        """An async iterator of every ``Batch`` of the target from now on, in seq order with
        no gaps; a resync after a long disconnection is marked ``resync``. With
        ``include_current`` the first is a ``resync`` marker with the current seq."""
        stream = BatchStream(self, include_current)
        await stream.start()
        return stream

    async def bound_instance(self, slot: str = "main") -> _instance.ViewModelInstance:
        """The instance bound in ``slot`` (``main`` or a global's name)."""
        replica = await self.replica()
        instance = replica.instance(slot)
        if instance is None:
            raise ViewModelInstanceError("null_instance", f"slot '{slot}' is empty", {"path": "" if slot == "main" else "@" + slot})
        state = replica.instances[instance]
        return _instance.ViewModelInstance(self.worker, await self.file_name(), instance, state["viewModel"], state["name"], self.name)


class StateMachine(RemoteTarget):
    """A state machine target: bind instances to it, advance it, get its bound instances back,
    read its layers' states."""

    async def layers(self) -> list[dict[str, Any]]:
        """Every layer's current state, ``{"layer", "name", "state", "kind", "animation"?}``,
        as the daemon lists it now (PROTOCOL.md §19)."""
        layers: list[dict[str, Any]] = (await self.info()).get("layers", [])
        return layers

    async def settled(self) -> bool:
        """Whether the state machine needs no further advance, as the daemon lists it now."""
        return bool((await self.info()).get("settled", True))

    async def inputs(self) -> list[dict[str, Any]]:
        """The state machine's legacy inputs in file order, ``{"name", "type": "number" |
        "boolean" | "trigger", "value"?}`` (no value for a trigger), as the daemon lists them
        now (PROTOCOL.md §19)."""
        inputs: list[dict[str, Any]] = (await self.info()).get("inputs", [])
        return inputs

    async def set_input(self, name: str, value: float | bool) -> Receipt:
        """Sets a number or boolean input, as Rive's ``SMINumber.value`` / ``SMIBool.value``;
        returns the ``Receipt`` after the advance that applied it. An unknown input raises
        ``StateMachineError`` ``no_such_input``, one of another kind
        ``ViewModelInstanceError`` ``type_mismatch``."""
        return await self._command({"type": "setInput", "name": name, "value": value})

    async def fire_input(self, name: str) -> Receipt:
        """Fires a trigger input, as Rive's ``SMITrigger.fire()``: the advance that applies it
        consumes it. Returns the ``Receipt`` after that advance."""
        return await self._command({"type": "fireInput", "name": name})

    async def set_bind_target(self, bind: int, value: float | bool | str) -> Receipt:
        """Writes the target side of the artboard's data bind number ``bind`` (as ``rivesync
        inspect --graph`` numbers them), as an interactive component would: a number, a
        boolean, a string or a color ``"#AARRGGBB"``, of the bound property's type (PROTOCOL.md
        §8 ``setBindTarget``). Two-way and to-source binds carry it to the view model; returns
        the ``Receipt`` after the advance that applied it. An unknown bind raises
        ``StateMachineError`` ``no_such_data_bind``, a value of another type
        ``ViewModelInstanceError`` ``type_mismatch``."""
        return await self._command({"type": "setBindTarget", "bind": bind, "value": value})

    async def bind_view_model_instances(self, main: InstanceRef | None = None,
                                        globals: Mapping[str, InstanceRef] | None = None) -> Receipt:
        """``bind``, in the Swift client's name."""
        return await self.bind(main, globals)

    async def main_instance(self) -> _instance.ViewModelInstance:
        """The instance bound in the main slot."""
        return await self.bound_instance("main")

    async def global_instance(self, name: str) -> _instance.ViewModelInstance:
        """The instance bound to the global slot ``name`` (``Theme``)."""
        return await self.bound_instance(name)
