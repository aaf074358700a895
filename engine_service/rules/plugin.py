"""The interface of a Cities of Splendor module: named points of the turn it plugs into.

A module never adds branches to the base turn; it supplies some of these:

* ``setup``: change the freshly dealt game (add decks or tiles, remove the nobles...);
* ``check_main_action``: refuse a main action the module forbids (raise ``RuleViolation``);
* ``extra_main_actions``: main actions the module adds to the legal list;
* ``after_purchase``: steps run after the main action, before the market is refilled;
* ``end_of_turn``: steps run after the noble visit, in the order listed;
* ``triggers_final_round`` and ``rank``: replace the base end condition and ranking;
* ``validate``: checks of the module's own part of a state sent by a client.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from .actions import MainAction
from .state import GameState, Standing
from .turn import TurnStep


class Module(NamedTuple):
    """What a Cities of Splendor module changes, at the named points of the turn."""

    name: str
    setup: Callable[[GameState], GameState] | None = None
    check_main_action: Callable[[GameState, MainAction], None] | None = None
    extra_main_actions: Callable[[GameState], list[MainAction]] | None = None
    after_purchase: tuple[TurnStep, ...] = ()
    end_of_turn: tuple[TurnStep, ...] = ()
    triggers_final_round: Callable[[GameState, int], bool] | None = None
    rank: Callable[[GameState], tuple[Standing, ...]] | None = None
    validate: Callable[[GameState], None] | None = None
