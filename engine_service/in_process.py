"""The engine's public in-process API: what a client in the same Python may use, and nothing more.

>>> from engine_service import in_process as engine
>>> state = engine.deal(num_players=2, seed=7)
>>> legal = engine.legal_actions(state)  # the core's actions, for the acting seat
>>> len(legal), engine.action_id(legal[0])  # a stable action id (Catalog.action_id_ranges)
(30, 0)
>>> greedy = engine.make_policy("greedy", seed=1)
>>> while state.end_reason is None:
...     state = engine.play(state, greedy.choose(state))
>>> state.winners, engine.view_message(state, 0).num_players
((1,), 2)

``splendor_client`` reaches the engine through this module only (its envs, OpenSpiel
game and ``splendor-tournament --in-process``; ``tests/architecture`` checks it), so the
codec, the API layer and the bots' insides may change without breaking a client.

- **Hot path** (dealing, legal actions and their stable ids, applying, observations):
  the rules core's own immutable objects and functions, no protobuf, no copies.
- **Bots**: ``make_policy(name, seed)`` (``policy_names()``, the server's policies;
  ``ismcts:<iterations>``) and ``determinize`` for search tools that resample what a seat
  cannot see. ``POLICY_NAMES`` is a deprecated spelling of ``policy_names()``.
- **Contract messages** for rendering and for programs that speak the contract
  (``view_message``, ``legal_action_messages``, ``catalog_message``): written by the
  engine's codec, exactly as the server writes them.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from functools import cache

from splendor.v1 import actions_pb2, catalog_pb2, view_pb2

from engine_service.bots import Policy, determinize, make_policy, policy_names, policy_specs
from engine_service.codec import catalog, fill_view, legal_action_table
from engine_service.rules import (
    ACTION_ID_COUNT,
    Action,
    GameConfig,
    GameState,
    ObservationLayout,
    RuleViolation,
    action_from_id,
    action_id,
    apply,
    encode_view,
    id_layout,
    known_modules,
    legal_actions,
    modules_using,
    new_game,
    observation,
    observation_layout,
    view_for,
)
from engine_service.rules.observation import state_features

__all__ = [
    "ACTION_ID_COUNT",
    "Action",
    "GameState",
    "ObservationLayout",
    "ObservationTables",
    "Policy",
    "RuleViolation",
    "action_from_id",
    "action_id",
    "catalog_message",
    "deal",
    "determinize",
    "encode_observation",
    "legal_action_messages",
    "legal_actions",
    "make_policy",
    "observation_layout",
    "observation_tables",
    "play",
    "policy_names",
    "ruleset_action_ids",
    "state_features",
    "view_message",
]


def deal(
    num_players: int,
    seed: int,
    *,
    modules: frozenset[str] = frozenset(),
    turn_limit: int = 0,
    first_seat: int | None = None,
) -> GameState:
    """A freshly dealt game; ``RuleViolation`` names what is wrong with a bad ruleset or seed."""
    return new_game(GameConfig(num_players, seed, first_seat, frozenset(modules), turn_limit))[0]


def play(state: GameState, action: Action, seat: int | None = None) -> GameState:
    """The state after the acting seat's ``action`` (``seat``, when given, must be the acting seat)."""
    return apply(state, action, seat)[0]


def ruleset_action_ids(module: str | None) -> tuple[int, ...]:
    """The stable ids a ruleset can use, in order: the base game's, ``module``'s and the answers modules share
    (the ranges ``Catalog.action_id_ranges`` lists with no module or with ``module`` among its ``modules``)."""
    if module is not None and module not in known_modules():
        raise ValueError(f"unknown module {module!r}: use one of {', '.join(sorted(known_modules()))}")
    ranges = [id_range for id_range in id_layout().ranges if _in_ruleset(modules_using(id_range), module)]
    return tuple(i for id_range in ranges for i in range(id_range.offset, id_range.offset + id_range.size))


def _in_ruleset(modules: frozenset[str], module: str | None) -> bool:
    return not modules or module in modules


@dataclass(frozen=True)
class ObservationTables:
    """What writing ``state_features`` into a ruleset's observation vector takes, computed once per ruleset.

    ``state_features(state, seat)`` gives ``(rows, scalars)``: ``rows`` number the rows of one
    table, ``card_features`` wide (every card, the empty card slot, every noble from
    ``first_noble_row``, the empty noble slot at ``empty_noble_row``), listed as the market's
    ``market_slots`` slots, each seat's reserved slots (seat-relative), then the noble slots.
    ``scalars`` are the base slices' other values in layout order. A layout longer than its
    base slices (a module's own slices) is written whole by ``encode_observation``.
    """

    layout: ObservationLayout
    market_slots: int
    card_features: int
    noble_features: int
    reserved_features: int
    card_values: tuple[tuple[float, ...], ...]  # by card id
    noble_values: tuple[tuple[float, ...], ...]  # by noble id
    first_noble_row: int
    empty_noble_row: int


@cache
def observation_tables(modules: frozenset[str], num_players: int) -> ObservationTables:
    """The tables of the ruleset of ``modules`` (at most one) and ``num_players``."""
    layout = observation_layout(frozenset(modules), num_players)
    return ObservationTables(
        layout=layout,
        market_slots=sum(observation.market_shape(layout.module)),
        card_features=observation.CARD_FEATURES,
        noble_features=observation.NOBLE_FEATURES,
        reserved_features=observation.RESERVED_FEATURES,
        card_values=observation.CARD_VALUES,
        noble_values=observation.NOBLE_VALUES,
        first_noble_row=observation.FIRST_NOBLE_ROW,
        empty_noble_row=observation.EMPTY_NOBLE_ROW,
    )


def encode_observation(state: GameState, seat: int) -> tuple[float, ...]:
    """The seat's whole observation vector (the layout of its ruleset), from what the seat may see."""
    return encode_view(view_for(state, seat))


def view_message(state: GameState, seat: int) -> view_pb2.GameView:
    """The seat's view as the contract's ``GameView`` (what ``GetPlayerView`` answers)."""
    message = view_pb2.GameView()
    fill_view(message, view_for(state, seat))
    return message


def legal_action_messages(state: GameState, seat: int) -> list[actions_pb2.LegalAction]:
    """The seat's legal actions as the contract's ``LegalAction`` messages (none unless it must act)."""
    if state.end_reason is not None or state.acting_seat != seat:
        return []
    table = legal_action_table()
    legal = []
    for action in legal_actions(state):
        option = actions_pb2.LegalAction()
        option.CopyFrom(table[action_id(action)])  # a copy: the table is shared
        legal.append(option)
    return legal


def catalog_message() -> catalog_pb2.Catalog:
    """The contract's ``Catalog`` of these rules and policies (what ``GetCatalog`` answers; shared: never mutate
    it)."""
    return catalog(policy_specs())


def __getattr__(name: str) -> object:
    """The deprecated ``POLICY_NAMES``: the registered policies' names when asked (``policy_names()``)."""
    if name == "POLICY_NAMES":
        warnings.warn("POLICY_NAMES is deprecated: call policy_names()", DeprecationWarning, stacklevel=2)
        return policy_names()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
