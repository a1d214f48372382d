"""Names in paths (PROTOCOL.md §4): Rive allows any character in a name, ``/`` and ``~`` too,
so every name in a path is escaped as in a JSON Pointer (RFC 6901): ``~`` is ``~0`` and ``/`` is
``~1``. ``join("BG On/Off")`` is ``"BG On~1Off"``; names without either character are
unchanged, so plain paths still read as written."""

from __future__ import annotations

from .errors import ViewModelInstanceError


def escape(name: str) -> str:
    """One name as a path segment: ``~`` → ``~0``, then ``/`` → ``~1``."""
    return name.replace("~", "~0").replace("/", "~1")


def unescape(segment: str) -> str:
    """The name a path segment writes (the reverse of ``escape``). A ``~`` followed by
    anything but ``0`` or ``1`` raises ``ViewModelInstanceError`` ``invalid_path``, as the
    daemon answers."""
    if "~" not in segment:
        return segment
    name: list[str] = []
    index = 0
    while index < len(segment):
        character = segment[index]
        if character != "~":
            name.append(character)
            index += 1
            continue
        following = segment[index + 1:index + 2]
        if following not in ("0", "1"):
            raise ViewModelInstanceError("invalid_path", f"'~' escapes nothing in '{segment}'", {"path": segment})
        name.append("~" if following == "0" else "/")
        index += 2
    return "".join(name)


def join(*parts: str | int, slot: str | None = None, instance: int | None = None) -> str:
    """A path from names (escaped) and list indices (ints), from the main instance, a global
    ``slot`` (``@Theme``) or an ``instance`` id (``#17``): ``join("players", 0, "x/y")`` is
    ``"players/0/x~1y"``, ``join("background", slot="Look/Feel")`` is
    ``"@Look~1Feel/background"``."""
    segments = [str(part) if isinstance(part, int) else escape(part) for part in parts]
    if slot is not None:
        segments.insert(0, "@" + escape(slot))
    elif instance is not None:
        segments.insert(0, f"#{int(instance)}")
    return "/".join(segments)


def split(path: str) -> list[str]:
    """The names and indices (as strings) of a path, unescaped; the slot or instance segment
    (``@Theme``, ``#17``) is kept as it is written but with its name unescaped."""
    segments = path.split("/")
    names = []
    for position, segment in enumerate(segments):
        if position == 0 and segment[:1] in ("@", "#"):
            names.append(segment[0] + unescape(segment[1:]))
        else:
            names.append(unescape(segment))
    return names
