"""A copy of one target's state kept by applying its batches in seq order (PROTOCOL.md §7):
what reads, value streams and the digest of this client come from."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


import copy

from . import digest as _digest
from .digest import Types
from . import paths as _paths
from .errors import RiveSyncError, ViewModelInstanceError


class ReplicaError(RiveSyncError):
    """A batch does not follow or does not fit: the replica diverged and must start again."""


def schema_types(schema: Mapping[str, Any]) -> Types:
    """view model → property → type name, from a file's schema (``describe``)."""
    return {vm["name"]: {p["name"]: p["type"] for p in vm.get("properties", [])} for vm in schema.get("viewModels", [])}


class Replica:
    """Starts from a whole-target ``snapshot`` message; ``apply`` takes every later batch."""

    def __init__(self, snapshot: Mapping[str, Any], types: Types) -> None:
        self.target: str = snapshot["target"]
        self.epoch: str = snapshot.get("epoch", "")
        self.seq: int = snapshot["seq"]
        self.types = types
        self.bindings: list[tuple[str, int | None]] = [(b["slot"], b["instance"]) for b in snapshot["bindings"]]
        self.instances: dict[int, dict[str, Any]] = {}
        for state in snapshot["instances"]:
            self._upsert(state)

    def _upsert(self, state: Mapping[str, Any]) -> None:
        self.instances[state["id"]] = {
            "viewModel": state["viewModel"], "name": state["name"], "values": copy.deepcopy(state["values"])}

    def _values(self, instance: int, prop: str) -> dict[str, Any]:
        state = self.instances.get(instance)
        if state is None:
            raise ReplicaError("unknown_instance", f"a change names instance {instance}, which the replica does not hold")
        if prop not in state["values"]:
            raise ReplicaError("invalid_change", f"instance {instance} has no property '{prop}'")
        values: dict[str, Any] = state["values"]
        return values

    def apply(self, batch: Mapping[str, Any]) -> None:
        """Applies the next batch (seq one past the replica's) or raises ``ReplicaError`` and
        leaves the replica unchanged."""
        if batch["target"] != self.target:
            raise ReplicaError("wrong_target", f"a batch of '{batch['target']}' for the replica of '{self.target}'")
        if batch["seq"] != self.seq + 1:
            raise ReplicaError("out_of_order", f"batch {batch['seq']} after {self.seq}")
        instances, bindings = copy.deepcopy(self.instances), list(self.bindings)
        saved = self.instances, self.bindings
        self.instances, self.bindings = instances, bindings
        try:
            for effect in batch["effects"]:
                self._apply(effect)
        except (KeyError, IndexError, TypeError) as error:
            self.instances, self.bindings = saved
            raise ReplicaError("invalid_change", f"batch {batch['seq']} does not fit: {error!r}") from None
        except ReplicaError:
            self.instances, self.bindings = saved
            raise
        self.seq = batch["seq"]
        self.epoch = batch.get("epoch", self.epoch)

    def _apply(self, effect: Mapping[str, Any]) -> None:
        for state in effect.get("introduced", []):
            self._upsert(state)
        op = effect["op"]
        if op == "bind":
            if effect["instance"] not in self.instances:
                raise ReplicaError("unknown_instance", f"bind of instance {effect['instance']}, which the replica does not hold")
            for index, (slot, _) in enumerate(self.bindings):
                if slot == effect["slot"]:
                    self.bindings[index] = (slot, effect["instance"])
                    break
            else:
                self.bindings.append((effect["slot"], effect["instance"]))
            return
        prop = effect["property"]
        values = self._values(effect["instance"], prop)
        if op == "set":
            values[prop] = effect["value"]
        elif op == "fire":
            values[prop] = values[prop] + 1
        elif op == "listInsert":
            if not 0 <= effect["index"] <= len(values[prop]):
                raise ReplicaError("invalid_change", f"insert at {effect['index']} of {len(values[prop])}")
            values[prop].insert(effect["index"], effect["item"])
        elif op == "listRemove":
            del values[prop][effect["index"]]
        elif op == "listSwap":
            items, a, b = values[prop], effect["index"], effect["with"]
            items[a], items[b] = items[b], items[a]
        else:
            raise ReplicaError("invalid_change", f"unknown effect op {op!r}")

    @property
    def digest(self) -> str:
        """The state digest; equal to the daemon's ``digest`` at the same seq."""
        return _digest.digest(self.bindings, self.instances, self.types)

    def instance(self, slot: str = "main") -> int | None:
        """The id bound in ``slot`` (``main`` or a global's name), or None."""
        return next((instance for name, instance in self.bindings if name == slot), None)

    def state(self) -> dict[str, Any]:
        """The whole state in the shape of a snapshot: bindings and reachable instances."""
        return {
            "target": self.target, "epoch": self.epoch, "seq": self.seq,
            "bindings": [{"slot": slot, "instance": instance} for slot, instance in self.bindings],
            "instances": [dict(id=i, **copy.deepcopy(self.instances[i]))
                          for i in sorted(_digest.reachable(self.bindings, self.instances))],
        }

    def resolve(self, path: str) -> tuple[int, str, str, Any]:
        """``(instance id, property, type, value)`` at ``path`` (PROTOCOL.md §1), or a
        ``ViewModelInstanceError`` with the daemon's code. Names in ``path`` are escaped
        (``~0``, ``~1``: ``rivesync.paths``)."""
        if not path or any(not s for s in path.split("/")):
            raise ViewModelInstanceError("invalid_path", f"invalid path '{path}'", {"path": path})
        try:
            segments = _paths.split(path)
        except ViewModelInstanceError:
            raise ViewModelInstanceError("invalid_path", f"invalid path '{path}'", {"path": path}) from None
        first = segments[0]
        if first.startswith("@"):
            instance: int | None = self.instance(first[1:])
            if not any(slot == first[1:] for slot, _ in self.bindings):
                raise ViewModelInstanceError("no_such_slot", f"no slot '{first[1:]}'", {"path": path})
            segments = segments[1:]
        elif first.startswith("#"):
            try:
                instance = int(first[1:])
            except ValueError:
                raise ViewModelInstanceError("invalid_path", f"invalid path '{path}'", {"path": path}) from None
            if instance not in self.instances:
                raise ViewModelInstanceError("unknown_instance", f"no instance #{instance}", {"instance": instance})
            segments = segments[1:]
        else:
            instance = self.instance("main")
        if not segments:
            raise ViewModelInstanceError("invalid_path", f"'{path}' does not end at a property", {"path": path})
        walked: list[str] = []
        while True:
            if instance is None or instance not in self.instances:
                raise ViewModelInstanceError("null_instance", f"'{'/'.join(walked)}' is null", {"path": "/".join(walked)})
            state = self.instances[instance]
            prop = segments.pop(0)
            walked.append(_paths.escape(prop))
            kind = self.types[state["viewModel"]].get(prop)
            if kind is None:
                raise ViewModelInstanceError("no_such_property", f"no property at '{path}'", {"path": path})
            value = state["values"][prop]
            if not segments:
                return instance, prop, kind, copy.deepcopy(value)
            if kind == "viewModel":
                instance = value["instance"] if value else None
            elif kind == "list":
                text = segments.pop(0)
                walked.append(text)
                if not text.isdigit():
                    raise ViewModelInstanceError("invalid_path", f"'{text}' is not a list index", {"path": path})
                if int(text) >= len(value):
                    raise ViewModelInstanceError(
                        "index_out_of_range", f"index {text} of {len(value)}",
                        {"path": path, "index": int(text), "count": len(value)})
                instance = value[int(text)]
                if not segments:
                    raise ViewModelInstanceError("invalid_path", f"'{path}' does not end at a property", {"path": path})
            else:
                raise ViewModelInstanceError("no_such_property", f"no property at '{path}'", {"path": path})
