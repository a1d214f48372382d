"""``ViewModelInstance``: a live instance, addressed by its id through a target that reaches it."""

from . import target as _target
from .errors import ViewModelInstanceError


class ViewModelInstance:
    """A live instance, addressed by its id through a target that reaches it (``#id/path``)."""

    def __init__(self, worker, file, instance_id, view_model, name, anchor=None):
        self.worker, self.file, self.id, self.view_model, self.name, self.anchor = \
            worker, file, instance_id, view_model, name, anchor

    def __repr__(self):
        return f"ViewModelInstance(#{self.id}, {self.view_model!r}, {self.name!r})"

    def __eq__(self, other):
        return isinstance(other, ViewModelInstance) and other.id == self.id

    def __hash__(self):
        return hash(self.id)

    async def _target(self):
        if self.anchor is None:
            session = self.worker.session
            name = f"~py{session.tag}.i{self.id}"
            await session.request({"type": "publish", "instance": self.id, "name": name})
            session.files[name] = self.file
            session.private_targets.add(name)
            self.anchor = name
        return _target.RemoteTarget(self.worker, self.anchor)

    def _path(self, path):
        return f"#{self.id}/{path}"

    async def value(self, path):
        return await (await self._target()).value(self._path(path))

    async def set_value(self, path, value):
        return await (await self._target()).set_value(self._path(path), value)

    async def fire(self, path):
        return await (await self._target()).fire(self._path(path))

    async def append_instance(self, instance, path):
        return await (await self._target()).append_instance(instance, self._path(path))

    async def insert_instance(self, instance, path, index):
        return await (await self._target()).insert_instance(instance, self._path(path), index)

    async def remove_instance(self, path, *, index=None, instance=None):
        return await (await self._target()).remove_instance(self._path(path), index=index, instance=instance)

    async def swap_instances(self, path, index, other):
        return await (await self._target()).swap_instances(self._path(path), index, other)

    async def size(self, path):
        return len(await self.value(path))

    async def instance(self, path, index=None):
        """The nested instance at ``path`` (or the list item at ``index``)."""
        value = await self.value(path)
        instance = value[index] if index is not None else (value or {}).get("instance")
        if instance is None:
            raise ViewModelInstanceError("null_instance", f"'{path}' is null", {"path": path})
        replica = await (await self._target()).replica()
        state = replica.instances[instance]
        return ViewModelInstance(self.worker, self.file, instance, state["viewModel"], state["name"], self.anchor)

    async def value_stream(self, path, include_current=False):
        """As ``RemoteTarget.value_stream``, for a path of this instance."""
        return await (await self._target()).value_stream(self._path(path), include_current)


def instance_id(instance):
    """The id of an instance given as a ``ViewModelInstance`` or an id."""
    return instance.id if isinstance(instance, ViewModelInstance) else instance


def wire(value):
    """A value in its JSON form: an instance becomes ``{"instance": id}``."""
    return {"instance": value.id} if isinstance(value, ViewModelInstance) else value
