"""``File`` and ``Artboard``: a loaded file's queries, and creating instances and state machines."""

from .errors import ArtboardError
from .instance import ViewModelInstance
from .target import RemoteTarget, StateMachine


class File:
    """A file loaded in the daemon, with Rive's ``File`` queries."""

    def __init__(self, worker, name, schema):
        self.worker, self.name, self.schema = worker, name, schema

    def _request(self, message):
        return self.worker.session.request(dict(message, file=self.name))

    async def get_view_model_names(self):
        return (await self._request({"type": "viewModelNames"}))["names"]

    async def get_global_view_model_names(self):
        return (await self._request({"type": "globalViewModelNames"}))["names"]

    async def get_instance_names(self, view_model):
        return (await self._request({"type": "instanceNames", "viewModel": view_model}))["names"]

    async def get_properties(self, view_model):
        """``[{"name", "type", "metaData"}]``."""
        return (await self._request({"type": "properties", "viewModel": view_model}))["properties"]

    async def get_enums(self):
        return (await self._request({"type": "enums"}))["enums"]

    async def get_artboard_names(self):
        return (await self._request({"type": "artboardNames"}))["names"]

    async def default_view_model_info(self, artboard=None):
        message = {"type": "defaultViewModelInfo"}
        if artboard is not None:
            message["artboard"] = artboard
        reply = await self._request(message)
        return reply["viewModel"], reply["instance"]

    async def create_artboard(self, name=None):
        """The artboard ``name`` (default: the file's default artboard)."""
        names = await self.get_artboard_names()
        if name is not None and name not in names:
            raise ArtboardError("invalid_artboard", f"no artboard '{name}'", {"name": name})
        return Artboard(self, name)

    async def create_view_model_instance(self, view_model=None, *, artboard=None, name=None, index=None, blank=False,
                                         publish=None):
        """A new instance, as Rive's sources: the view model's default (``view_model="Player"``,
        or ``artboard="Lobby"`` for an artboard's default view model), ``blank=True``, a copy of
        an authored instance by ``name`` or ``index``. ``publish`` shares it as a target."""
        of = {"viewModel": view_model} if view_model is not None else {"artboard": artboard}
        if blank:
            source = {"blank": of}
        elif name is not None:
            source = dict(of, name=name)
        elif index is not None:
            source = dict(of, index=index)
        else:
            source = {"default": of}
        message = {"type": "createInstance", "source": source}
        if publish is not None:
            message["publish"] = publish
        reply = await self._request(message)
        anchor = publish
        if publish is not None:
            self.worker.session.files[publish] = self.name
        return ViewModelInstance(self.worker, self.name, reply["instance"], reply["viewModel"], reply["name"], anchor)

    async def publish(self, instance, name):
        """Shares an existing instance as the target ``name``."""
        await self.worker.session.request({"type": "publish", "instance": instance.id, "name": name})
        self.worker.session.files[name] = self.name
        instance.anchor = instance.anchor or name
        return RemoteTarget(self.worker, name)


class Artboard:
    def __init__(self, file, name):
        self.file, self.name = file, name

    async def get_state_machine_names(self):
        message = {"type": "stateMachineNames"}
        if self.name is not None:
            message["artboard"] = self.name
        return (await self.file._request(message))["names"]

    async def create_state_machine(self, state_machine=None, *, binding=None, globals=None, manual=False, rate=None,
                                   target_name=None, bind_defaults=True):
        """Creates a state machine target. ``binding``: the main instance; ``globals``:
        ``{"Theme": instance}``; ``manual``: advance only on ``advance()``; ``bind_defaults``
        False leaves the slots not given empty until a ``bind``. Without a ``target_name`` the
        target is private to this worker and deleted by ``close()``."""
        session = self.file.worker.session
        name = target_name or f"~py{session.tag}.m{next(session.names)}"
        message = {"type": "createStateMachine", "name": name, "mode": "manual" if manual else "auto"}
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
