"""Value and batch streams: async iterators fed by a target's mirror after each batch."""

import asyncio

from .errors import ViewModelInstanceError
from .mirror import Batch


class ValueStream:
    """The values at a path, one per batch that changes it (``RemoteTarget.value_stream``)."""

    def __init__(self, target, path, include_current):
        self.target, self.path, self.include_current = target, path, include_current
        self.queue = asyncio.Queue()
        self.mirror = self.listener_id = None

    def __aiter__(self):
        return self

    async def start(self):
        session = self.target.session
        mirror = await session.ensure_subscribed(self.target.name)
        last = mirror.replica.resolve(self.path)[3]  # raises now for a bad path
        if self.include_current:
            self.queue.put_nowait(last)
        state = {"last": last}

        def listener(replica, batch):
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

    async def __anext__(self):
        item = await self.queue.get()
        if isinstance(item, BaseException):
            raise item
        return item

    async def aclose(self):
        """Stops the stream."""
        if self.mirror is not None:
            self.mirror.listeners.pop(self.listener_id, None)


class BatchStream(ValueStream):
    """Every batch of a target (``RemoteTarget.batches``)."""

    def __init__(self, target, include_current):
        super().__init__(target, None, include_current)

    async def start(self):
        session = self.target.session
        mirror = await session.ensure_subscribed(self.target.name)
        if self.include_current:
            self.queue.put_nowait(Batch(self.target.name, mirror.replica.seq, resync=True))
        self.mirror = mirror
        self.listener_id = session.add_listener(mirror, lambda replica, batch: self.queue.put_nowait(batch))
