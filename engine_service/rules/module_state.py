"""Where a module keeps its own part of the game state: one slot of ``GameState.module_states``.

Each module owns a fixed slot index, like a field number: the built-in modules
0-3 in the order their fields had when the state named them (so digests of
existing games are unchanged), a new module the next free one. A slot holds
the module's state (an immutable NamedTuple) or None, and the tuple has no
trailing None, so a game without modules carries ``()``.
"""

from __future__ import annotations

from typing import Generic, Protocol, TypeVar

from .errors import Reason, RuleViolation
from .state import GameState, with_module_states

T = TypeVar("T")


class HasModuleStates(Protocol):
    """A game state or a view of one (``views.GameView``): both carry the modules' slots.

    A Protocol rather than ``GameState``: compiled code reads a NamedTuple's fields by
    position, which would read the wrong field of a view.
    """

    @property
    def module_states(self) -> tuple[object, ...]: ...


class ModuleStateSlot(Generic[T]):
    """A module's slot: typed access to its state in a ``GameState``."""

    __slots__ = ("index", "missing", "name", "state_type")

    def __init__(self, index: int, state_type: type[T], name: str, missing: str) -> None:
        self.index = index
        self.state_type = state_type
        self.name = name  # the module's name, also the field named in INVALID_STATE refusals
        self.missing = missing  # the refusal's message when a game of the module lacks its state

    def find(self, state: HasModuleStates) -> T | None:
        """The module's state, or None when it is absent (in a state or in a view)."""
        states = state.module_states
        value = states[self.index] if self.index < len(states) else None
        if value is None or type(value) is self.state_type:
            return value  # checked: None or the slot's type
        raise RuleViolation(
            Reason.INVALID_STATE, f"slot {self.index} does not hold a {self.name} state", field=self.name
        )

    def of(self, state: GameState) -> T:
        """The module's state; a game of the module without one is refused (INVALID_STATE)."""
        try:  # read the slot at once (this runs several times a step); a missing slot is refused as a wrong one
            value = state.module_states[self.index]
        except IndexError:
            value = None
        if type(value) is self.state_type:
            return value  # checked: the slot's type
        raise RuleViolation(Reason.INVALID_STATE, self.missing, field=self.name)

    def put(self, state: GameState, value: T | None) -> GameState:
        """``state`` with the module's state replaced."""
        return with_module_states(state, with_slot(state.module_states, self.index, value), state.pending)

    def put_answered(self, state: GameState, value: T | None) -> GameState:
        """``state`` with the module's state replaced and its pending decision answered (none left pending)."""
        return with_module_states(state, with_slot(state.module_states, self.index, value), None)


def with_slot(states: tuple[object, ...], index: int, value: object) -> tuple[object, ...]:
    """``states`` with one slot replaced, padded with None before it and with no trailing None."""
    if value is not None and index == len(states) - 1:  # the usual case: the last slot, the one module played
        return states[:index] + (value,)
    if index < len(states):
        states = states[:index] + (value,) + states[index + 1 :]
    elif value is not None:
        states = states + (None,) * (index - len(states)) + (value,)
    while states and states[-1] is None:
        states = states[:-1]
    return states
