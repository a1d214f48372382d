"""Typed errors. Every error the daemon reports carries its protocol code (PROTOCOL.md §13)
in ``code``, its human text in ``message`` and its fields in ``details``; the class says which
family it belongs to, with the family names of the Swift client (and of Rive's runtime)."""

from __future__ import annotations

from typing import Any


class RiveSyncError(Exception):
    """Base of every error of this package."""

    def __init__(self, code: str, message: str = "", details: dict[str, Any] | None = None) -> None:
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message
        self.details: dict[str, Any] = details or {}


class WorkerError(RiveSyncError):
    """The connection itself: unreachable, refused, dropped, closed, or a protocol-level error."""


class ConnectionFailed(WorkerError):
    """The WebSocket connection could not be opened (or the hello timed out)."""

    def __init__(self, message: str) -> None:
        super().__init__("connection_failed", message)


class Disconnected(WorkerError):
    """The connection dropped before the reply came. For a command the outcome is unknown:
    the replica shows whether it applied once the worker has resumed."""

    def __init__(self, message: str = "the connection dropped") -> None:
        super().__init__("disconnected", message)


class Closed(WorkerError):
    """The worker was closed with ``close()``."""

    def __init__(self) -> None:
        super().__init__("closed", "the worker was closed")


class Unauthorized(WorkerError):
    """The daemon refused or revoked the token (``unauthorized``)."""


class Forbidden(WorkerError):
    """The token lacks a permission the request needs (``forbidden``; ``details["scope"]``)."""


class LimitExceeded(WorkerError):
    """A limit was hit (``limit_exceeded``, ``rate_limited``; ``details["limit"]``)."""


class FileError(RiveSyncError):
    """File-level requests: unknown file, name taken, bad content, unknown view model or asset."""


class ArtboardError(RiveSyncError):
    """An unknown artboard or state machine."""


class StateMachineError(RiveSyncError):
    """Targets, bindings and instances by id: unknown target, name taken, wrong slot, a presence
    update or leave without a join (``not_joined``), …"""


class TargetDeleted(StateMachineError):
    """The target was deleted: its streams ended, and commands still queued on it never applied."""


class WrongNode(WorkerError):
    """A cluster node that does not serve the shard of the file or target asked for
    (``wrong_node``, protocol/CLUSTER.md §6): ``shard`` names it and ``nodes`` lists the URLs of
    the nodes that serve it; connect to one of them and ask again."""

    @property
    def shard(self) -> str:
        return str(self.details.get("shard", ""))

    @property
    def nodes(self) -> list[str]:
        return [str(url) for url in self.details.get("nodes", [])]


class ViewModelInstanceError(RiveSyncError):
    """Paths and values: no such property, type mismatch, bad enum value, index out of range, …"""


_FAMILIES: dict[type[RiveSyncError], list[str]] = {
    WorkerError: [
        "bad_json", "too_deep", "bad_message", "unknown_type", "hello_required", "internal", "storage_failed",
        "unsupported_version",
    ],
    Unauthorized: ["unauthorized"],
    Forbidden: ["forbidden"],
    LimitExceeded: ["limit_exceeded", "rate_limited"],
    WrongNode: ["wrong_node"],
    FileError: [
        "unknown_file", "file_exists", "invalid_file", "invalid_data", "invalid_view_model",
        "invalid_view_model_instance", "invalid_asset", "invalid_asset_data",
    ],
    ArtboardError: ["invalid_artboard", "invalid_state_machine"],
    StateMachineError: [
        "invalid_global_view_model_name", "duplicate_global_view_model_instance", "unknown_target",
        "target_exists", "unknown_instance", "wrong_worker", "not_manual", "not_joined", "no_such_input",
        "no_such_data_bind",
    ],
    TargetDeleted: ["target_deleted"],
    ViewModelInstanceError: [
        "invalid_path", "no_such_slot", "no_such_property", "type_mismatch", "invalid_enum_value",
        "index_out_of_range", "null_instance", "instance_not_in_list", "incompatible_instance", "invalid_value",
    ],
}
_CLASS_BY_CODE = {code: family for family, codes in _FAMILIES.items() for code in codes}


def from_reply(reply: dict[str, Any]) -> RiveSyncError:
    """The typed error for an ``error`` message. Unknown codes (a newer daemon) are a plain
    ``RiveSyncError`` with their code, as PROTOCOL.md §14 asks."""
    code = reply.get("code") or "internal"
    family = _CLASS_BY_CODE.get(code, RiveSyncError)
    return family(code, reply.get("message") or "", reply.get("details") or {})
