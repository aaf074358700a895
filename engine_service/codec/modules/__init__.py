"""The protobuf adapters of the modules: one file each, ``<module name>.py``, found through the registry.

An adapter converts its module's state (the ``GameState``/``GameView`` field named
like the module) and writes its catalog part. Its actions and events need no
code: the generic codecs convert them by field name. ``adapter_for`` finds the
adapter of a registered module by its name; a module without one (a test's)
plays in-process only.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Final, NamedTuple

from google.protobuf.message import Message
from splendor.v1 import catalog_pb2

from engine_service.rules import Module, registered_modules


class ModuleAdapter(NamedTuple):
    """How one module's state and components travel in the contract."""

    read: Callable[[Any], Any]  # the module's state message -> its core state (its ``validate`` checks it)
    write: Callable[[Any, Any], None]  # the core state -> the module's empty state message
    fill_catalog: Callable[[catalog_pb2.Catalog], None] | None = None  # its printed components


_ADAPTERS: Final[dict[str, ModuleAdapter | None]] = {}


def adapter_for(module: Module) -> ModuleAdapter | None:
    """The adapter of a module (``engine_service/codec/modules/<name>.py``), None if it has none."""
    if module.name not in _ADAPTERS:
        try:
            found = importlib.import_module(f"{__name__}.{module.name}")
        except ModuleNotFoundError:
            _ADAPTERS[module.name] = None
        else:
            adapter: ModuleAdapter = found.ADAPTER
            _ADAPTERS[module.name] = adapter
    return _ADAPTERS[module.name]


class StateField(NamedTuple):
    """A module's state in the contract: the message field, its slot and its adapter."""

    name: str  # the GameState/GameView field, the module's name
    module: str
    slot: int  # the module's state slot
    adapter: ModuleAdapter


def module_state_fields(message: type[Message]) -> tuple[StateField, ...]:
    """The module states ``message`` (GameState or GameView) carries, for the registered modules with an adapter."""
    fields = message.DESCRIPTOR.fields_by_name
    found = []
    for module in registered_modules():
        adapter = adapter_for(module)
        if adapter is not None and module.state is not None and module.name in fields:
            found.append(StateField(module.name, module.name, module.state.index, adapter))
    return tuple(found)
