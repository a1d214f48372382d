"""Helpers for tests: ``wait_for`` a value, and ``Daemon``, a ``rivesyncd`` process on a free
port (what the pytest plugin's fixtures use; usable without pytest too)."""

import asyncio
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading

_MISSING = object()


class WaitTimeout(AssertionError):
    """``wait_for`` saw no matching value in time; ``last`` is the last value it saw."""

    def __init__(self, path, last, timeout):
        seen = "no value" if last is _MISSING else f"last value {last!r}"
        super().__init__(f"'{path}': no matching value within {timeout:g} s ({seen})")
        self.path, self.last, self.timeout = path, None if last is _MISSING else last, timeout


async def wait_for(source, path, predicate=None, timeout=5.0):
    """Waits until the value at ``path`` of ``source`` (a target or an instance) satisfies
    ``predicate`` — a callable, or a value to compare with; None: any value — and returns it.
    The current value counts. Raises ``WaitTimeout`` with the last value seen."""
    if predicate is None:
        matches = lambda value: True  # noqa: E731
    elif callable(predicate):
        matches = predicate
    else:
        matches = lambda value: value == predicate  # noqa: E731
    stream = await source.value_stream(path, include_current=True)
    last = _MISSING

    async def watch():
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


def find_rivesyncd(explicit=None):
    """The ``rivesyncd`` binary: ``explicit``, ``$RIVESYNCD``, one on PATH, or a SwiftPM
    build (``.build/debug`` or ``.build/release``) of the repository this package is in."""
    for candidate in (explicit, os.environ.get("RIVESYNCD")):
        if candidate:
            return candidate
    on_path = shutil.which("rivesyncd")
    if on_path:
        return on_path
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.normpath(os.path.join(here, "..", "..", ".."))
    for build in ("debug", "release"):
        path = os.path.join(root, ".build", build, "rivesyncd")
        if os.access(path, os.X_OK):
            return path
    raise FileNotFoundError("rivesyncd not found: pass --rivesyncd, set RIVESYNCD, or put it on PATH")


class Daemon:
    """A ``rivesyncd`` started on a free loopback port. ``file`` is a ``.riv`` or a JSON
    schema (loaded under ``file_name``, default the file's stem); without ``file`` and
    ``config`` it runs ``--demo``. ``config``: extra configuration keys (``stateMachines``,
    ``instances``, ``limits``, ``auth`` …). ``state_dir`` keeps state across ``restart()``."""

    def __init__(self, binary, file=None, *, file_name=None, config=None, state_dir=None, arguments=(), start_timeout=30):
        self.binary, self.state_dir, self.start_timeout = binary, state_dir, start_timeout
        self.directory = tempfile.mkdtemp(prefix="rivesyncd-")
        self.arguments = list(arguments)
        if file is None and config is None:
            self.arguments.append("--demo")
        else:
            document = {"listen": {"host": "127.0.0.1"}, "auth": {"allowAnonymous": "loopback"}}
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
        self.process = None
        self.stderr_lines = []
        self.start()

    @property
    def url(self):
        return f"ws://127.0.0.1:{self.port}/"

    @property
    def stderr(self):
        return "".join(self.stderr_lines)

    def start(self):
        """Starts the process (on the same port after a ``stop()``) and waits for ``listening on``."""
        self.process = subprocess.Popen(
            [self.binary, *self.arguments, "--port", str(self.port)], stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        listening = threading.Event()
        process = self.process

        def pump():
            for line in process.stderr:
                self.stderr_lines.append(line)
                match = re.search(r"listening on \S+:(\d+)", line)
                if match and not listening.is_set():
                    self.port = int(match.group(1))
                    listening.set()
            listening.set()

        threading.Thread(target=pump, daemon=True).start()
        if not listening.wait(self.start_timeout) or self.process.poll() is not None:
            self.stop()
            raise RuntimeError(f"rivesyncd did not start ({self.binary} {' '.join(self.arguments)}):\n{self.stderr}")

    def stop(self, timeout=30):
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
        status, self.process = self.process.returncode, None
        return status

    def restart(self):
        """Stops and starts again on the same port (keeps state with a ``state_dir``)."""
        self.stop()
        self.start()

    def close(self):
        self.stop()
        shutil.rmtree(self.directory, ignore_errors=True)
