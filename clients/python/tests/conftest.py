"""The suite runs against real daemons started by the plugin's fixtures (``-p
rivesync.pytest_plugin`` when the package is not installed). After a full run it checks that
the client sent every request type of protocol/schemas/client."""

import os

import pytest


SCHEMAS = os.path.join(os.path.dirname(__file__), "..", "..", "..", "protocol", "schemas", "client")
SENT = set()
DESELECTED = []


@pytest.fixture
def connect(connect):
    """The plugin's ``connect``, recording the request types each worker sent."""
    yield connect
    for worker in connect.workers:
        SENT.update(worker.session.sent_types)


def pytest_deselected(items):
    DESELECTED.extend(items)


def pytest_sessionfinish(session, exitstatus):
    whole = not DESELECTED and all(os.path.isdir(argument) for argument in session.config.args)
    if exitstatus != 0 or not whole:
        return  # a partial run need not cover everything
    every = {name.split(".")[0] for name in os.listdir(SCHEMAS) if name.endswith(".schema.json")}
    missing = sorted(every - SENT)
    if missing:
        print(f"\nrequest types the suite never sent: {missing}")
        session.exitstatus = 1
