"""The descriptor of a Cities of Splendor module: what it adds, and the points of the turn it plugs into.

A module lives in its own package (``modules/<name>/``) and owns everything of
its own: the registry (``registry.py``) collects these descriptors, and the core
and the service iterate them, never naming a module. What a module declares:

* ``state``: the slot of its part of the game state (``module_state.py``);
* ``decisions``: the kinds of pending decision it asks (``decisions.py``);
* ``actions`` and ``action_ids``: its answer records and their id ranges (``action_ids.py``);
* ``events``: its event records;
* ``view``: what a seat (or a spectator, None) may see of its state; None: all of it.

The points of the turn it may plug into (a module never adds branches to the base turn):

* ``setup``: change the freshly dealt game (add decks or tiles, remove the nobles...);
* ``decks``: the extra decks it deals (the Orient), with their face-up slots;
* ``check_main_action``: refuse a main action the module forbids (raise ``RuleViolation``);
* ``forbidden_cards``: the same refusals, for the legal-action list: the face-up or
  reserved cards the module forbids reserving or buying now, computed once per list
  (a module forbidding anything else leaves it None and its ``check_main_action``
  filters the list, action by action);
* ``extra_main_actions``: main actions the module adds to the legal list;
* ``payment``: replaces what a purchase may cost and how it is paid;
* ``after_main_action``: a step told which main action was just taken; it runs
  before the market is refilled and may ask decisions (answered through it);
* ``noble_visit``: replaces the base noble-visit step;
* ``end_of_turn``: steps run after the noble visit, before tokens above ten are returned;
* ``triggers_final_round`` and ``rank``: replace the base end condition and ranking;
* ``extra_holdings``: bonuses and prestige a seat owns beyond its cards and nobles;
* ``out_of_play``: cards the module took out of the game (the Orient's discards);
* ``validate``: checks of the module's own part of a state sent by a client.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

from .action_ids import IdRange
from .actions import MainAction, PurchaseCard
from .decisions import DecisionKind
from .events import Event
from .module_state import ModuleStateSlot
from .state import GameState, Standing
from .turn import TurnStep


class FollowUp(TurnStep, Protocol):
    """A turn step that also hears the main action, right after it is applied."""

    def follow(self, state: GameState, action: MainAction, events: list[Event]) -> GameState:
        """React to the main action just taken; set ``pending`` to ask a decision."""
        ...


class Price(NamedTuple):
    """What a purchase costs its buyer."""

    tokens: tuple[int, ...]  # six counts handed to the bank, gold last
    cards: tuple[int, ...] = ()  # owned cards given up (the Orient: gold cards, sacrificed bonus cards)


class PaymentRules(NamedTuple):
    """How purchases are paid when a module changes it (Trading Posts post 2, the Orient).

    ``affordable(state, seat, card_ids)`` keeps, in order, the face-up or reserved cards the
    seat may buy: some payment buys them, and the module's ``check_main_action`` allows
    them (the legal-action list leaves the cards its ``forbidden_cards`` names to this
    call; modules are played one at a time). It runs once per legal-action list, so what
    the seat can spend is worked out once.
    ``price(state, seat, action)`` checks the action's payment (its default when None)
    and returns the price, raising ``RuleViolation`` (CANNOT_AFFORD, PAYMENT_INVALID...).
    ``give_up(state, seat, price, events)`` applies the card part of the price; the
    purchase itself moves the tokens and the bought card.
    """

    affordable: Callable[[GameState, int, list[int]], list[int]]
    price: Callable[[GameState, int, PurchaseCard], Price]
    give_up: Callable[[GameState, int, Price, list[Event]], GameState]


class ForbiddenCards(NamedTuple):
    """The cards a module forbids the acting seat to reserve, or to buy, this turn."""

    reserve: frozenset[int] = frozenset()
    purchase: frozenset[int] = frozenset()


class DeckSpec(NamedTuple):
    """An extra deck a module deals, with its market row."""

    deck: int  # its id, following the base decks
    slots: int  # face-up cards beside the base ones


class Module(NamedTuple):
    """What a Cities of Splendor module changes, at the named points of the turn."""

    name: str
    state: ModuleStateSlot[Any] | None = None
    decisions: tuple[DecisionKind, ...] = ()
    actions: tuple[type, ...] = ()
    action_ids: tuple[IdRange, ...] = ()
    events: tuple[type, ...] = ()
    view: Callable[[Any, int | None], Any] | None = None
    setup: Callable[[GameState], GameState] | None = None
    decks: tuple[DeckSpec, ...] = ()
    check_main_action: Callable[[GameState, MainAction], None] | None = None
    forbidden_cards: Callable[[GameState], ForbiddenCards] | None = None
    extra_main_actions: Callable[[GameState], list[MainAction]] | None = None
    payment: PaymentRules | None = None
    after_main_action: FollowUp | None = None
    noble_visit: TurnStep | None = None
    end_of_turn: tuple[TurnStep, ...] = ()
    triggers_final_round: Callable[[GameState, int], bool] | None = None
    rank: Callable[[GameState], tuple[Standing, ...]] | None = None
    extra_holdings: Callable[[GameState, int], tuple[tuple[int, ...], int]] | None = None
    out_of_play: Callable[[GameState], tuple[int, ...]] | None = None
    validate: Callable[[GameState], None] | None = None


def new_price(*, tokens: tuple[int, ...], cards: tuple[int, ...]) -> Price:
    """A ``Price`` (see ``records.py``, "Building records")."""
    return tuple.__new__(Price, (tokens, cards))


def new_forbidden_cards(*, reserve: frozenset[int], purchase: frozenset[int]) -> ForbiddenCards:
    """A ``ForbiddenCards`` (see ``records.py``, "Building records")."""
    return tuple.__new__(ForbiddenCards, (reserve, purchase))
