"""The modules the engine knows, and everything assembled from them: the action-id layout, kinds, records.

The built-in modules register themselves, one line each, in ``modules/__init__.py``;
a test can register its own module and unregister it afterwards (``registered``).
The core and the service iterate what is registered here and never name a module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Final

from .action_ids import BASE_ID_COUNT, BASE_RANGES, IdLayout, IdRange
from .actions import ChooseNoble, Decline, ReturnTokens
from .decisions import forget_decision_kind, remember_decision_kind
from .plugin import Module

_MODULES: Final[dict[str, Module]] = {}
_ON_CHANGE: Final[list[Callable[[], None]]] = []  # caches built from the registry, cleared on change
_BASE_ANSWERS: Final = (ReturnTokens, ChooseNoble, Decline)


class _Assembled:
    """What is built from the registered modules, replaced as a whole when they change."""

    def __init__(self) -> None:
        self.layout = IdLayout(BASE_RANGES)
        self.answers: frozenset[type] = frozenset(_BASE_ANSWERS)


_ASSEMBLED: Final = _Assembled()


def register(module: Module) -> None:
    """Add a module; raises ValueError if it clashes with a registered one (name, slot, ids, kinds)."""
    if module.name in _MODULES:
        raise ValueError(f"module {module.name} is already registered")
    taken = {other.state.index for other in _MODULES.values() if other.state is not None}
    if module.state is not None and module.state.index in taken:
        raise ValueError(f"module {module.name}: state slot {module.state.index} is taken")
    candidate = {**_MODULES, module.name: module}
    layout = IdLayout(BASE_RANGES + tuple(r for each in candidate.values() for r in each.action_ids))  # checks ids
    for kind in module.decisions:
        remember_decision_kind(kind)
    _MODULES[module.name] = module
    _rebuild(layout)


def unregister(name: str) -> None:
    """Remove a module registered earlier, with the decision kinds it declared."""
    module = _MODULES.pop(name)
    for kind in module.decisions:
        forget_decision_kind(kind)
    _rebuild(IdLayout(BASE_RANGES + tuple(r for each in _MODULES.values() for r in each.action_ids)))


@contextmanager
def registered(module: Module) -> Iterator[Module]:
    """The module registered for the duration of a ``with`` block (tests)."""
    register(module)
    try:
        yield module
    finally:
        unregister(module.name)


def on_change(callback: Callable[[], None]) -> None:
    """Call ``callback`` whenever the registered modules change (to drop caches built from them)."""
    _ON_CHANGE.append(callback)


def _rebuild(layout: IdLayout) -> None:
    _ASSEMBLED.layout = layout
    _ASSEMBLED.answers = frozenset(_BASE_ANSWERS).union(*[module.actions for module in _MODULES.values()])
    for callback in _ON_CHANGE:
        callback()


def registered_modules() -> tuple[Module, ...]:
    """The registered modules, by name."""
    return tuple(_MODULES[name] for name in sorted(_MODULES))


def module_named(name: str) -> Module:
    return _MODULES[name]


def known_modules() -> frozenset[str]:
    return frozenset(_MODULES)


def id_layout() -> IdLayout:
    """The action-id layout of the base game and every registered module."""
    return _ASSEMBLED.layout


def modules_using(id_range: IdRange) -> frozenset[str]:
    """The modules whose games use ``id_range``: none for the base game's (every game uses them), its module
    for a module's own, and every module for an answer the modules share (``decline``)."""
    if id_range.offset < BASE_ID_COUNT:
        return frozenset()
    owners = frozenset(module.name for module in _MODULES.values() if id_range.offset in _offsets(module))
    return owners or frozenset(_MODULES)


def _offsets(module: Module) -> frozenset[int]:
    return frozenset(id_range.offset for id_range in module.action_ids)


def action_id(action: Any) -> int:
    """The id of an action (a purchase's explicit payment is not part of its id)."""
    return _ASSEMBLED.layout.action_id(action)


def action_from_id(value: int) -> Any:
    """The action with this id (purchases with the default payment)."""
    return _ASSEMBLED.layout.action_from_id(value)


def is_answer(action: object) -> bool:
    """Whether ``action`` answers a pending decision (the base game's answers and the modules')."""
    return type(action) in _ASSEMBLED.answers
