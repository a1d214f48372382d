"""The state digest of a target, byte for byte as the daemon computes it
(``StateDigest`` in RiveSyncModel): every binding (slot, instance id) in order, then every
instance reachable from the bindings in id order, with its view model, name and values
sorted by property name, each value in a fixed binary form; SHA-256, lower-case hex."""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Optional

#: ``[(slot, instance id or None)]``, in order.
Bindings = Sequence[tuple[str, Optional[int]]]
#: instance id → ``{"viewModel", "name", "values"}``.
Instances = Mapping[int, Mapping[str, Any]]
#: view model → property → type name.
Types = Mapping[str, Mapping[str, str]]

_TAGS = {
    "number": 1, "string": 2, "color": 5, "enum": 6, "trigger": 7, "viewModel": 8, "list": 9,
    "assetImage": 10, "assetFont": 10, "assetBlob": 10, "artboard": 11, "symbolListIndex": 12,
}


def _u64(value: int, out: bytearray) -> None:
    out += struct.pack(">Q", value & 0xFFFF_FFFF_FFFF_FFFF)


def _text(text: str, out: bytearray) -> None:
    data = text.encode("utf-8")
    _u64(len(data), out)
    out += data


def color_argb(value: int | str) -> int:
    """A color's 32-bit ARGB from its wire forms: ``"#AARRGGBB"``, ``"#RRGGBB"`` or an integer."""
    if isinstance(value, int):
        return value & 0xFFFF_FFFF
    digits = value[1:]
    argb = int(digits, 16)
    return argb | 0xFF00_0000 if len(digits) == 6 else argb


def _value(kind: str, value: Any, out: bytearray) -> None:
    if kind == "boolean":
        out.append(4 if value else 3)
        return
    tag = _TAGS.get(kind)
    if tag is None:
        raise ValueError(f"no digest form for a value of type {kind!r}")
    out.append(tag)
    if kind == "number":
        _u64(struct.unpack(">I", struct.pack(">f", float(value)))[0], out)
    elif kind in ("string", "enum"):
        _text(value, out)
    elif kind == "color":
        _u64(color_argb(value), out)
    elif kind in ("trigger", "symbolListIndex"):
        _u64(int(value), out)
    elif kind == "viewModel":
        _u64(value["instance"] if value else 0, out)
    elif kind == "list":
        _u64(len(value), out)
        for item in value:
            _u64(item, out)
    elif kind.startswith("asset"):
        _text(value["id"] if value else "", out)
        _u64(value["bytes"] if value else 0, out)
        _text(value["mediaType"] if value else "", out)
    elif kind == "artboard":
        _text(value or "", out)
        out.append(0 if value is None else 1)


def canonical_bytes(bindings: Bindings, instances: Instances, types: Types) -> bytes:
    """``bindings``: ``[(slot, id or None)]`` in order; ``instances``: id → ``{"viewModel",
    "name", "values"}``; ``types``: view model → property → type name."""
    out = bytearray()
    for slot, instance in bindings:
        _text(slot, out)
        _u64(instance or 0, out)
    for instance in sorted(reachable(bindings, instances)):
        state = instances[instance]
        _u64(instance, out)
        _text(state["viewModel"], out)
        _text(state["name"], out)
        properties = types[state["viewModel"]]
        for name in sorted(state["values"]):
            _text(name, out)
            _value(properties[name], state["values"][name], out)
    return bytes(out)


def digest(bindings: Bindings, instances: Instances, types: Types) -> str:
    """SHA-256 of the canonical bytes, lower-case hex: equal to the daemon's ``digest`` reply
    for the same state."""
    return hashlib.sha256(canonical_bytes(bindings, instances, types)).hexdigest()


def children(values: Mapping[str, Any]) -> Iterator[int]:
    """The instance ids a state's values refer to: nested view models and list items."""
    for value in values.values():
        if isinstance(value, dict) and isinstance(value.get("instance"), int):
            yield value["instance"]
        elif isinstance(value, list):
            yield from (item for item in value if isinstance(item, int))


def reachable(bindings: Bindings, instances: Instances) -> set[int]:
    """Every instance reachable from the bound ones that the store holds."""
    seen: set[int] = set()
    stack: list[int] = [instance for _, instance in bindings if instance is not None]
    while stack:
        instance = stack.pop()
        if instance in seen or instance not in instances:
            continue
        seen.add(instance)
        stack.extend(children(instances[instance]["values"]))
    return seen
