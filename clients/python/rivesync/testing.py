"""Helpers for tests: ``wait_for`` a value, and ``Daemon``, a ``rivesyncd`` process on a free
port (what the pytest plugin's fixtures use; usable without pytest too)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Callable, Protocol, Union

if TYPE_CHECKING:
    from .streams import ValueStream

_MISSING: Any = object()


class ValueSource(Protocol):
    """What ``wait_for`` watches: a ``RemoteTarget`` or a ``ViewModelInstance``."""

    async def value_stream(self, path: str, include_current: bool = False) -> ValueStream:
        """The values at ``path``."""
        ...


#: A callable the value must satisfy, a value to compare with, or None (any value).
Predicate = Union[Callable[[Any], bool], Any, None]


class WaitTimeout(AssertionError):
    """``wait_for`` saw no matching value in time; ``last`` is the last value it saw."""

    def __init__(self, path: str, last: Any, timeout: float) -> None:
        seen = "no value" if last is _MISSING else f"last value {last!r}"
        super().__init__(f"'{path}': no matching value within {timeout:g} s ({seen})")
        self.path, self.last, self.timeout = path, None if last is _MISSING else last, timeout


async def wait_for(source: ValueSource, path: str, predicate: Predicate = None, timeout: float = 5.0) -> Any:
    """Waits until the value at ``path`` of ``source`` (a target or an instance) satisfies
    ``predicate`` — a callable, or a value to compare with; None: any value — and returns it.
    The current value counts. Raises ``WaitTimeout`` with the last value seen."""
    matches: Callable[[Any], bool]
    if predicate is None:
        matches = lambda value: True  # noqa: E731
    elif callable(predicate):
        matches = predicate
    else:
        matches = lambda value: bool(value == predicate)  # noqa: E731
    stream = await source.value_stream(path, include_current=True)
    last = _MISSING

    async def watch() -> Any:
        nonlocal last
        async for value in stream:
            last = value
            if matches(value):
                return value

    try:
        return await asyncio.wait_for(watch(), timeout)
    except asyncio.TimeoutError:
        raise WaitTimeout(path, last, timeout) from None
    finally:
        await stream.aclose()


def find_rivesyncd(explicit: str | None = None, start: str | None = None) -> str:
    """The ``rivesyncd`` binary: ``explicit``, ``$RIVESYNC_DAEMON`` (or the older
    ``$RIVESYNCD``), one on ``PATH``, or a SwiftPM build of the repository around ``start``
    (default: the working directory) or around this package — ``.build/release`` first, then
    ``.build/debug``. Raises ``FileNotFoundError`` saying where it looked."""
    for candidate in (explicit, os.environ.get("RIVESYNC_DAEMON"), os.environ.get("RIVESYNCD")):
        if candidate:
            return candidate
    on_path = shutil.which("rivesyncd")
    if on_path:
        return on_path
    here = os.path.dirname(os.path.abspath(__file__))
    for directory in (os.path.abspath(start or os.getcwd()), here):
        root = _repository_around(directory)
        if root is None:
            continue
        for build in ("release", "debug"):
            path = os.path.join(root, ".build", build, "rivesyncd")
            if os.access(path, os.X_OK):
                return path
    raise FileNotFoundError(
        "rivesyncd not found: pass --rivesyncd, set RIVESYNC_DAEMON, put it on PATH, or build it in the "
        "repository (swift build -c release --product rivesyncd)")


def _repository_around(directory: str) -> str | None:
    """The nearest directory at or above ``directory`` with RiveSync's ``Package.swift``."""
    while True:
        if os.path.isfile(os.path.join(directory, "Package.swift")):
            return directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


class Daemon:
    """A ``rivesyncd`` started on a free loopback port. ``file`` is a ``.riv`` or a JSON
    schema (loaded under ``file_name``, default the file's stem); without ``file`` and
    ``config`` it runs ``--demo``. ``config``: extra configuration keys (``stateMachines``,
    ``instances``, ``limits``, ``auth`` …). ``state_dir`` keeps state across ``restart()``."""

    def __init__(self, binary: str, file: str | None = None, *, file_name: str | None = None,
                 config: dict[str, Any] | None = None, state_dir: str | None = None, arguments: Iterable[str] = (),
                 start_timeout: float = 30) -> None:
        self.binary, self.state_dir, self.start_timeout = binary, state_dir, start_timeout
        self.directory = tempfile.mkdtemp(prefix="rivesyncd-")
        self.arguments = list(arguments)
        if file is None and config is None:
            self.arguments.append("--demo")
        else:
            document: dict[str, Any] = {"listen": {"host": "127.0.0.1"}, "auth": {"allowAnonymous": "loopback"}}
            if file is not None:
                name = file_name or os.path.basename(file).split(".")[0]
                document["files"] = [{"name": name, "path": os.path.abspath(file)}]
            document.update(config or {})
            path = os.path.join(self.directory, "rivesyncd.json")
            with open(path, "w") as out:
                json.dump(document, out)
            self.arguments += ["--config", path]
        if state_dir is not None:
            self.arguments += ["--state-dir", state_dir]
        self.port = 0
        self.process: subprocess.Popen[str] | None = None
        self.stderr_lines: list[str] = []
        self.start()

    @property
    def url(self) -> str:
        """``ws://127.0.0.1:PORT/``."""
        return f"ws://127.0.0.1:{self.port}/"

    @property
    def stderr(self) -> str:
        """Everything the daemon wrote to stderr so far."""
        return "".join(self.stderr_lines)

    def start(self) -> None:
        """Starts the process (on the same port after a ``stop()``) and waits for ``listening on``."""
        self.process = subprocess.Popen(
            [self.binary, *self.arguments, "--port", str(self.port)], stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        listening = threading.Event()
        process = self.process

        def pump() -> None:
            assert process.stderr is not None
            for line in process.stderr:
                self.stderr_lines.append(line)
                match = re.search(r"listening on \S+:(\d+)", line)
                if match and not listening.is_set():
                    self.port = int(match.group(1))
                    listening.set()
            listening.set()

        self._pump = threading.Thread(target=pump, daemon=True)
        self._pump.start()
        if not listening.wait(self.start_timeout) or process.poll() is not None:
            self.stop()
            raise RuntimeError(f"rivesyncd did not start ({self.binary} {' '.join(self.arguments)}):\n{self.stderr}")

    def stop(self, timeout: float = 30) -> int | None:
        """SIGTERM, then waits (SIGKILL after ``timeout``). Returns the exit status."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._pump.join(5)  # it reads stderr to its end, which comes with the exit
        if self.process.stderr is not None:
            self.process.stderr.close()
        status, self.process = self.process.returncode, None
        return status

    def restart(self) -> None:
        """Stops and starts again on the same port (keeps state with a ``state_dir``)."""
        self.stop()
        self.start()

    def close(self) -> None:
        """Stops the daemon and removes its scratch directory."""
        self.stop()
        shutil.rmtree(self.directory, ignore_errors=True)
