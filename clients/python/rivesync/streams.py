"""Value and batch streams: async iterators fed by a target's mirror after each batch."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Generic, TypeVar, Union

from .errors import ViewModelInstanceError
from .mirror import Batch, Mirror
from .replica import Replica

if TYPE_CHECKING:
    from .target import RemoteTarget

Item = TypeVar("Item")


class _Stream(Generic[Item]):
    """An async iterator fed by a target's mirror; ``aclose()`` stops it."""

    def __init__(self, target: RemoteTarget, include_current: bool) -> None:
        self.target, self.include_current = target, include_current
        # The items, or the error that ended the mirror.
        self.queue: asyncio.Queue[Union[Item, BaseException]] = asyncio.Queue()
        self.mirror: Mirror | None = None
        self.listener_id = 0

    def __aiter__(self) -> _Stream[Item]:
        return self

    async def __anext__(self) -> Item:
        item = await self.queue.get()
        if isinstance(item, BaseException):
            raise item
        return item

    async def aclose(self) -> None:
        """Stops the stream."""
        if self.mirror is not None:
            self.mirror.listeners.pop(self.listener_id, None)


class ValueStream(_Stream[Any]):
    """The values at a path, one per batch that changes it (``RemoteTarget.value_stream``)."""

    def __init__(self, target: RemoteTarget, path: str, include_current: bool) -> None:
        super().__init__(target, include_current)
        self.path = path

    async def start(self) -> None:
        """Subscribes (if needed) and starts listening; raises now for a bad path."""
        session = self.target.session
        mirror = await session.ensure_subscribed(self.target.name)
        assert mirror.replica is not None
        last = mirror.replica.resolve(self.path)[3]  # raises now for a bad path
        if self.include_current:
            self.queue.put_nowait(last)
        state = {"last": last}

        def listener(replica: Replica | None, batch: Batch | BaseException) -> None:
            if replica is None:
                self.queue.put_nowait(batch)  # the error that ended the mirror
                return
            try:
                value = replica.resolve(self.path)[3]
            except ViewModelInstanceError:
                return  # not reachable now (an item removed above it); may come back
            if value != state["last"]:
                state["last"] = value
                self.queue.put_nowait(value)

        self.mirror, self.listener_id = mirror, session.add_listener(mirror, listener)


class BatchStream(_Stream[Batch]):
    """Every batch of a target (``RemoteTarget.batches``)."""

    async def start(self) -> None:
        """Subscribes (if needed) and starts listening."""
        session = self.target.session
        mirror = await session.ensure_subscribed(self.target.name)
        assert mirror.replica is not None
        if self.include_current:
            self.queue.put_nowait(Batch(self.target.name, mirror.replica.seq, resync=True))
        self.mirror = mirror
        self.listener_id = session.add_listener(mirror, lambda replica, batch: self.queue.put_nowait(batch))
