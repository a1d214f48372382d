"""``ViewModelInstance``: a live instance, addressed by its id through a target that reaches it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Union

from . import target as _target
from .errors import ViewModelInstanceError

if TYPE_CHECKING:
    from .streams import ValueStream
    from .target import Receipt
    from .worker import Worker

#: An instance given as a ``ViewModelInstance`` or its id.
InstanceRef = Union["ViewModelInstance", int]


class ViewModelInstance:
    """A live instance, addressed by its id through a target that reaches it (``#id/path``)."""

    def __init__(self, worker: Worker, file: str, instance_id: int, view_model: str, name: str,
                 anchor: str | None = None) -> None:
        self.worker, self.file, self.id, self.view_model, self.name = worker, file, instance_id, view_model, name
        #: The target it is reached through (published for it when None, on first use).
        self.anchor = anchor

    def __repr__(self) -> str:
        return f"ViewModelInstance(#{self.id}, {self.view_model!r}, {self.name!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ViewModelInstance) and other.id == self.id

    def __hash__(self) -> int:
        return hash(self.id)

    async def _target(self) -> _target.RemoteTarget:
        if self.anchor is None:
            session = self.worker.session
            name = f"~py{session.tag}.i{self.id}"
            await session.request({"type": "publish", "instance": self.id, "name": name})
            session.files[name] = self.file
            session.private_targets.add(name)
            self.anchor = name
        return _target.RemoteTarget(self.worker, self.anchor)

    def _path(self, path: str) -> str:
        return f"#{self.id}/{path}"

    async def value(self, path: str) -> Any:
        """The value at ``path`` of this instance, from the replica."""
        return await (await self._target()).value(self._path(path))

    async def set_value(self, path: str, value: Any) -> Receipt:
        """As ``RemoteTarget.set_value``, for a path of this instance."""
        return await (await self._target()).set_value(self._path(path), value)

    async def fire(self, path: str) -> Receipt:
        """Fires the trigger at ``path`` of this instance."""
        return await (await self._target()).fire(self._path(path))

    async def append_instance(self, instance: InstanceRef, path: str) -> Receipt:
        """Appends ``instance`` to the list at ``path``."""
        return await (await self._target()).append_instance(instance, self._path(path))

    async def insert_instance(self, instance: InstanceRef, path: str, index: int) -> Receipt:
        """Inserts ``instance`` at ``index`` of the list at ``path``."""
        return await (await self._target()).insert_instance(instance, self._path(path), index)

    async def remove_instance(self, path: str, *, index: int | None = None,
                              instance: InstanceRef | None = None) -> Receipt:
        """Removes the item at ``index``, or every occurrence of ``instance``."""
        return await (await self._target()).remove_instance(self._path(path), index=index, instance=instance)

    async def swap_instances(self, path: str, index: int, other: int) -> Receipt:
        """Swaps the items at ``index`` and ``other`` of the list at ``path``."""
        return await (await self._target()).swap_instances(self._path(path), index, other)

    async def size(self, path: str) -> int:
        """The length of the list at ``path``."""
        return len(await self.value(path))

    async def instance(self, path: str, index: int | None = None) -> ViewModelInstance:
        """The nested instance at ``path`` (or the list item at ``index``)."""
        value = await self.value(path)
        instance = value[index] if index is not None else (value or {}).get("instance")
        if instance is None:
            raise ViewModelInstanceError("null_instance", f"'{path}' is null", {"path": path})
        replica = await (await self._target()).replica()
        state = replica.instances[instance]
        return ViewModelInstance(self.worker, self.file, instance, state["viewModel"], state["name"], self.anchor)

    async def value_stream(self, path: str, include_current: bool = False) -> ValueStream:
        """As ``RemoteTarget.value_stream``, for a path of this instance."""
        return await (await self._target()).value_stream(self._path(path), include_current)


def instance_id(instance: InstanceRef | None) -> int | None:
    """The id of an instance given as a ``ViewModelInstance`` or an id."""
    return instance.id if isinstance(instance, ViewModelInstance) else instance


def wire(value: Any) -> Any:
    """A value in its JSON form: an instance becomes ``{"instance": id}``."""
    return {"instance": value.id} if isinstance(value, ViewModelInstance) else value
