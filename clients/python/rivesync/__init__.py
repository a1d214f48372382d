"""RiveSync for Python: a client of ``rivesyncd`` (protocol v1, PROTOCOL.md) with the concepts
and names of the Swift client — ``Worker``, ``File``, ``Artboard``, ``StateMachine``,
``ViewModelInstance``, ``RemoteTarget`` — in asyncio, plus a pytest plugin for QA."""

from .errors import (ArtboardError, Closed, ConnectionFailed, Disconnected, FileError, Forbidden, LimitExceeded,
                     RiveSyncError, StateMachineError, TargetDeleted, Unauthorized, ViewModelInstanceError,
                     WorkerError, WrongNode)
from .replica import Replica, ReplicaError
from .mirror import Batch
from . import paths
from .testing import WaitTimeout, wait_for
from .file import Artboard, File
from .instance import ViewModelInstance
from .presence import Presence, PresenceMember
from .target import Advanced, Receipt, RemoteTarget, StateMachine
from .worker import DEFAULT_URL, Worker

__version__ = "0.1.0"

__all__ = [
    "Advanced", "ArtboardError", "Artboard", "Batch", "Closed", "ConnectionFailed", "DEFAULT_URL", "Disconnected", "File",
    "FileError", "Forbidden", "LimitExceeded", "Presence", "PresenceMember", "Receipt", "RemoteTarget", "Replica",
    "ReplicaError", "RiveSyncError",
    "StateMachine", "StateMachineError", "TargetDeleted", "Unauthorized", "ViewModelInstance",
    "ViewModelInstanceError", "WaitTimeout", "Worker", "WorkerError", "WrongNode", "paths", "wait_for",
]
