"""pytest plugin (entry point ``rivesync``), with or without pytest-asyncio (strict or auto
mode). It runs an ``async def`` test on a fresh event loop itself unless pytest-asyncio took
it (``asyncio_mode=auto``, or ``@pytest.mark.asyncio``), and gives fixtures:

- ``rivesyncd``: a ``Daemon`` on ``--demo`` for the test;
- ``rivesyncd_factory(file=None, **options)``: starts daemons with a schema or ``.riv``
  (options as ``rivesync.testing.Daemon``); all are stopped after the test;
- ``connect``: ``await connect(daemon_or_url, token=None, **options)`` opens a ``Worker``;
  every worker it opened is closed on the test's own event loop when the test ends (by
  pytest-asyncio's async fixture teardown, or by this plugin's runner);
- ``wait_for``: ``rivesync.testing.wait_for``.

The binary comes from ``--rivesyncd PATH``, ``$RIVESYNC_DAEMON``, ``PATH``, or the
repository's build (release first)."""

from __future__ import annotations

import asyncio
import importlib.util
import inspect
from collections.abc import AsyncIterator, Callable, Generator, Iterator
from typing import Any

import pytest

from .connector import Connector
from .testing import Daemon, find_rivesyncd
from .testing import wait_for as _wait_for

# Without it, this plugin's runner runs every async test.
HAS_PYTEST_ASYNCIO = importlib.util.find_spec("pytest_asyncio") is not None


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--rivesyncd", default=None, help="path of the rivesyncd binary the rivesync fixtures start")


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    # pytest-asyncio has replaced the function of a test it runs by a synchronous one by now.
    if not inspect.iscoroutinefunction(pyfuncitem.obj):
        return None
    test = pyfuncitem.obj
    arguments = {name: pyfuncitem.funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}

    async def run() -> None:
        try:
            await test(**arguments)
        finally:
            for value in pyfuncitem.funcargs.values():
                if isinstance(value, Connector):
                    await value.close_all()

    asyncio.run(run())
    return True


@pytest.fixture(scope="session")
def rivesyncd_binary(request: pytest.FixtureRequest) -> str:
    """The path of the ``rivesyncd`` the fixtures start."""
    return find_rivesyncd(request.config.getoption("--rivesyncd"))


@pytest.fixture
def rivesyncd_factory(rivesyncd_binary: str, request: pytest.FixtureRequest) -> Iterator[Callable[..., Daemon]]:
    """``start(file=None, **options)``: a new ``Daemon``; all are stopped after the test."""
    daemons: list[Daemon] = []

    def start(file: str | None = None, **options: Any) -> Daemon:
        daemon = Daemon(rivesyncd_binary, file, **options)
        daemons.append(daemon)
        return daemon

    yield start
    for daemon in daemons:
        daemon.close()
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        for daemon in daemons:
            print(f"--- rivesyncd stderr ---\n{daemon.stderr}")


@pytest.fixture
def rivesyncd(rivesyncd_factory: Callable[..., Daemon]) -> Daemon:
    """A daemon on ``--demo``."""
    return rivesyncd_factory()


if HAS_PYTEST_ASYNCIO:
    import pytest_asyncio

    @pytest_asyncio.fixture
    async def _rivesync_connector() -> AsyncIterator[Connector]:
        connector = Connector()
        try:
            yield connector
        finally:
            await connector.close_all()


@pytest.fixture
def connect(request: pytest.FixtureRequest) -> Connector:
    """``await connect(daemon_or_url, token=None, **options)``: a ``Worker``, closed when the test ends."""
    if HAS_PYTEST_ASYNCIO and request.config.pluginmanager.hasplugin("asyncio"):
        connector: Connector = request.getfixturevalue("_rivesync_connector")
        return connector
    return Connector()  # closed by pytest_pyfunc_call, on the loop the test ran on


@pytest.fixture
def wait_for() -> Callable[..., Any]:
    """``rivesync.testing.wait_for``."""
    return _wait_for


# An old-style wrapper: new-style ones (wrapper=True) need pluggy 1.2, newer than some pytests.
@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    outcome = yield
    report = outcome.get_result()
    setattr(item, "rep_" + report.when, report)
