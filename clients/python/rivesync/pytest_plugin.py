"""pytest plugin (entry point ``rivesync``): runs ``async def`` tests on a fresh event loop
(unless pytest-asyncio is installed, which then runs them), and gives fixtures:

- ``rivesyncd``: a ``Daemon`` on ``--demo`` for the test;
- ``rivesyncd_factory(file=None, **options)``: starts daemons with a schema or ``.riv``
  (options as ``rivesync.testing.Daemon``); all are stopped after the test;
- ``connect``: ``await connect(daemon_or_url, token=None, **options)`` opens a ``Worker``,
  closed when the test ends;
- ``wait_for``: ``rivesync.testing.wait_for``.

The binary comes from ``--rivesyncd PATH``, ``$RIVESYNCD``, PATH, or the repository's build."""

import asyncio
import inspect

import pytest

from .testing import Daemon, find_rivesyncd
from .worker import Worker
from .testing import wait_for as _wait_for


def pytest_addoption(parser):
    parser.addoption("--rivesyncd", default=None, help="path of the rivesyncd binary the rivesync fixtures start")


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    if not inspect.iscoroutinefunction(pyfuncitem.obj) or pyfuncitem.config.pluginmanager.hasplugin("asyncio"):
        return None
    arguments = {name: pyfuncitem.funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}

    async def run():
        try:
            await pyfuncitem.obj(**arguments)
        finally:
            for value in pyfuncitem.funcargs.values():
                if isinstance(value, Connector):
                    await value.close_all()

    asyncio.run(run())
    return True


class Connector:
    """The ``connect`` fixture: opens workers and closes them when the test ends."""

    def __init__(self):
        self.workers = []

    async def __call__(self, daemon, token=None, **options):
        worker = await Worker.connect(getattr(daemon, "url", daemon), token, **options)
        self.workers.append(worker)
        return worker

    async def close_all(self):
        for worker in self.workers:
            await worker.close()


@pytest.fixture(scope="session")
def rivesyncd_binary(request):
    return find_rivesyncd(request.config.getoption("--rivesyncd"))


@pytest.fixture
def rivesyncd_factory(rivesyncd_binary, request):
    daemons = []

    def start(file=None, **options):
        daemon = Daemon(rivesyncd_binary, file, **options)
        daemons.append(daemon)
        return daemon

    yield start
    for daemon in daemons:
        daemon.close()
    if getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed:
        for daemon in daemons:
            print(f"--- rivesyncd stderr ---\n{daemon.stderr}")


@pytest.fixture
def rivesyncd(rivesyncd_factory):
    return rivesyncd_factory()


@pytest.fixture
def connect():
    return Connector()


@pytest.fixture
def wait_for():
    return _wait_for


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, "rep_" + report.when, report)
