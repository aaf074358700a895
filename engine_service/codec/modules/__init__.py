"""The protobuf adapters of the modules: one file each, ``<module name>.py``, registered below, one line each.

An adapter converts its module's state (the ``GameState``/``GameView`` field named
like the module) and writes its catalog part. Its actions and events need no
code: the generic codecs convert them by field name. ``adapter_for`` finds the
adapter of a registered module by its name. A module registered in the rules
without an adapter (a test's) plays in-process only: a server refuses to start
with one (``check_adapters``, called by both transports as they are built), rather
than leave its state out of every answer.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final, NamedTuple

from google.protobuf.message import Message

from engine_service.rules import Module, registered_modules

from . import cities, orient, strongholds, trading_posts
from .adapter import ModuleAdapter

__all__ = [
    "ModuleAdapter",
    "ModuleWithoutAdapter",
    "StateField",
    "adapter_for",
    "check_adapters",
    "module_state_fields",
    "register_adapter",
    "registered_adapter",
    "unregister_adapter",
]


class ModuleWithoutAdapter(RuntimeError):
    """A module the rules registered has no protobuf adapter: it cannot be served."""


_ADAPTERS: Final[dict[str, ModuleAdapter]] = {}


def register_adapter(name: str, adapter: ModuleAdapter) -> None:
    """The adapter of the module named ``name``; raises ValueError if it has one already."""
    if name in _ADAPTERS:
        raise ValueError(f"module {name} already has an adapter")
    _ADAPTERS[name] = adapter


def unregister_adapter(name: str) -> None:
    """Remove an adapter registered earlier."""
    del _ADAPTERS[name]


@contextmanager
def registered_adapter(name: str, adapter: ModuleAdapter) -> Iterator[ModuleAdapter]:
    """The adapter registered for the duration of a ``with`` block (tests)."""
    register_adapter(name, adapter)
    try:
        yield adapter
    finally:
        unregister_adapter(name)


def adapter_for(module: Module) -> ModuleAdapter | None:
    """The adapter of a module, None if it has none (it then plays in-process only)."""
    return _ADAPTERS.get(module.name)


def check_adapters() -> None:
    """Raise ``ModuleWithoutAdapter`` naming every registered module that has no adapter."""
    missing = [module.name for module in registered_modules() if module.name not in _ADAPTERS]
    if missing:
        raise ModuleWithoutAdapter(
            f"no protobuf adapter for module {', '.join(missing)}: write engine_service/codec/modules/<name>.py "
            "and register it in engine_service/codec/modules/__init__.py (docs/architecture.md, "
            "'Adding a game module'); a module without one plays in-process only"
        )


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


# The built-in modules' adapters, one line each.
register_adapter("cities", cities.ADAPTER)
register_adapter("trading_posts", trading_posts.ADAPTER)
register_adapter("strongholds", strongholds.ADAPTER)
register_adapter("orient", orient.ADAPTER)
