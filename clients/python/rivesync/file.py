"""``File`` and ``Artboard``: a loaded file's queries, and creating instances and state machines."""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .errors import ArtboardError
from .instance import ViewModelInstance
from .target import RemoteTarget, StateMachine

if TYPE_CHECKING:
    from .worker import Worker


class File:
    """A file loaded in the daemon, with Rive's ``File`` queries."""

    def __init__(self, worker: Worker, name: str, schema: dict[str, Any]) -> None:
        self.worker, self.name, self.schema = worker, name, schema

    async def _request(self, message: Mapping[str, Any]) -> dict[str, Any]:
        return await self.worker.session.request(dict(message, file=self.name))

    async def _names(self, message: Mapping[str, Any]) -> list[str]:
        names: list[str] = (await self._request(message))["names"]
        return names

    async def get_view_model_names(self) -> list[str]:
        """The names of the file's view models."""
        return await self._names({"type": "viewModelNames"})

    async def get_global_view_model_names(self) -> list[str]:
        """The names of the view models bound as globals (``Theme``)."""
        return await self._names({"type": "globalViewModelNames"})

    async def get_instance_names(self, view_model: str) -> list[str]:
        """The names of the instances authored for ``view_model``."""
        return await self._names({"type": "instanceNames", "viewModel": view_model})

    async def get_properties(self, view_model: str) -> list[dict[str, Any]]:
        """``[{"name", "type", "metaData"}]``."""
        properties: list[dict[str, Any]] = (await self._request({"type": "properties", "viewModel": view_model}))["properties"]
        return properties

    async def get_enums(self) -> list[dict[str, Any]]:
        """The file's enums, ``{"name", "values"}``."""
        enums: list[dict[str, Any]] = (await self._request({"type": "enums"}))["enums"]
        return enums

    async def get_artboard_names(self) -> list[str]:
        """The names of the file's artboards."""
        return await self._names({"type": "artboardNames"})

    async def default_view_model_info(self, artboard: str | None = None) -> tuple[str, str]:
        """``(view model name, instance name)`` of the artboard's default (the default artboard's)."""
        message = {"type": "defaultViewModelInfo"}
        if artboard is not None:
            message["artboard"] = artboard
        reply = await self._request(message)
        return str(reply["viewModel"]), str(reply["instance"])

    async def create_artboard(self, name: str | None = None) -> Artboard:
        """The artboard ``name`` (default: the file's default artboard)."""
        names = await self.get_artboard_names()
        if name is not None and name not in names:
            raise ArtboardError("invalid_artboard", f"no artboard '{name}'", {"name": name})
        return Artboard(self, name)

    async def create_view_model_instance(self, view_model: str | None = None, *, artboard: str | None = None,
                                         instance_name: str | None = None, index: int | None = None,
                                         blank: bool = False, publish: str | None = None,
                                         name: str | None = None) -> ViewModelInstance:
        """A new instance, as Rive's sources: the view model's default (``view_model="Player"``,
        or ``artboard="Lobby"`` for an artboard's default view model), ``blank=True``, or a copy
        of the instance authored in the file under ``instance_name`` (Rive's
        ``instanceByName``) or at ``index``. ``publish`` shares it as a target. ``name`` is
        the former spelling of ``instance_name`` (deprecated)."""
        if name is not None:
            warnings.warn("create_view_model_instance(name=...) is deprecated: pass instance_name=...",
                          DeprecationWarning, stacklevel=2)
            if instance_name is not None and instance_name != name:
                raise TypeError("create_view_model_instance: give instance_name or name, not both")
            instance_name = name
        source: dict[str, Any]
        of = {"viewModel": view_model} if view_model is not None else {"artboard": artboard}
        if blank:
            source = {"blank": of}
        elif instance_name is not None:
            source = dict(of, name=instance_name)
        elif index is not None:
            source = dict(of, index=index)
        else:
            source = {"default": of}
        message: dict[str, Any] = {"type": "createInstance", "source": source}
        if publish is not None:
            message["publish"] = publish
        reply = await self._request(message)
        anchor = publish
        if publish is not None:
            self.worker.session.files[publish] = self.name
        return ViewModelInstance(self.worker, self.name, reply["instance"], reply["viewModel"], reply["name"], anchor)

    async def publish(self, instance: ViewModelInstance, name: str) -> RemoteTarget:
        """Shares an existing instance as the target ``name``."""
        await self.worker.session.request({"type": "publish", "instance": instance.id, "name": name})
        self.worker.session.files[name] = self.name
        instance.anchor = instance.anchor or name
        return RemoteTarget(self.worker, name)


class Artboard:
    """An artboard of a ``File`` (``name`` None: the file's default artboard)."""

    def __init__(self, file: File, name: str | None) -> None:
        self.file, self.name = file, name

    async def get_state_machine_names(self) -> list[str]:
        """The names of the artboard's state machines."""
        message = {"type": "stateMachineNames"}
        if self.name is not None:
            message["artboard"] = self.name
        return await self.file._names(message)

    async def create_state_machine(self, state_machine: str | None = None, *, binding: ViewModelInstance | None = None,
                                   globals: Mapping[str, ViewModelInstance] | None = None, manual: bool = False,
                                   rate: float | None = None, target_name: str | None = None,
                                   bind_defaults: bool = True) -> StateMachine:
        """Creates a state machine target. ``binding``: the main instance; ``globals``:
        ``{"Theme": instance}``; ``manual``: advance only on ``advance()``; ``bind_defaults``
        False leaves the slots not given empty until a ``bind``. Without a ``target_name`` the
        target is private to this worker and deleted by ``close()``."""
        session = self.file.worker.session
        name = target_name or f"~py{session.tag}.m{next(session.names)}"
        message: dict[str, Any] = {"type": "createStateMachine", "name": name, "mode": "manual" if manual else "auto"}
        if self.name is not None:
            message["artboard"] = self.name
        if state_machine is not None:
            message["stateMachine"] = state_machine
        if binding is not None:
            message["main"] = binding.id
        if globals:
            message["globals"] = [{"name": key, "instance": value.id} for key, value in globals.items()]
        if rate is not None:
            message["rate"] = rate
        if not bind_defaults:
            message["bindDefaults"] = False
        await self.file._request(message)
        session.files[name] = self.file.name
        if target_name is None:
            session.private_targets.add(name)
        return StateMachine(self.file.worker, name)
