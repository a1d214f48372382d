"""``Connector``: what the pytest plugin's ``connect`` fixture gives — opens workers, and closes
them all when the test ends."""

from __future__ import annotations

from typing import Any

from .worker import Worker


class Connector:
    """``await connector(daemon_or_url, token=None, **options)`` opens a ``Worker``
    (``options`` as ``Worker.connect``); ``close_all()`` closes every one it opened."""

    def __init__(self) -> None:
        self.workers: list[Worker] = []

    async def __call__(self, daemon: Any, token: str | None = None, **options: Any) -> Worker:
        """``daemon``: a ``rivesync.testing.Daemon`` (its ``url``) or a URL."""
        worker = await Worker.connect(getattr(daemon, "url", daemon), token, **options)
        self.workers.append(worker)
        return worker

    async def close_all(self) -> None:
        """Closes every worker opened (again: a no-op for those closed already)."""
        for worker in self.workers:
            await worker.close()
