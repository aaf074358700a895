"""A fixed-length numeric observation of the game for one seat, and its legal-action mask, for learning agents.

    obs = observe(state, seat)        # obs.values: floats, obs.legal_action_mask: one flag per action id
    layout = observation_layout(frozenset({"orient"}), 3)   # named slices: offsets, lengths, meanings

The values are written from ``view_for(state, seat)`` only, so they hold nothing the seat
may not see, and two states with the same view for the seat give the same values. They
are seat-relative: every per-seat slice starts with the observing seat ("seat0") and goes
on in playing order ("seat1" is the next seat). The length depends only on the ruleset
(module and player count). A module appends its own slices through ``register_part``
(its package's ``observation.py``); the base slices never move.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Final, NamedTuple

from .action_ids import MAX_DECKS
from .catalog import CARDS, NOBLES
from .colors import TOKEN_KINDS
from .config import MAX_PLAYERS, MIN_PLAYERS
from .legal import legal_actions
from .market import MARKET_SLOTS
from .registry import action_id, id_layout, module_named, on_change, registered_modules
from .reserve import RESERVE_LIMIT
from .state import GameState
from .views import GameView, view_for

BASE_DECKS: Final = 3
GEMS: Final = 5
# Pending decision kinds by number (DecisionKind.value v at index v - 1): room for the modules to come.
DECISION_KIND_SLOTS: Final = 16
CARD_FEATURES: Final = 14
CARD_MEANING: Final = (
    "per card: present, level, points, bonus one-hot (white, blue, green, red, black), bonus count, "
    "cost (white, blue, green, red, black)"
)
RESERVED_FEATURES: Final = CARD_FEATURES + 1 + MAX_DECKS
NOBLE_FEATURES: Final = 1 + 1 + GEMS


class ObservationSlice(NamedTuple):
    name: str
    offset: int
    length: int
    meaning: str


class ObservationLayout(NamedTuple):
    name: str  # "base/2p", "orient/3p"
    module: str | None
    num_players: int
    length: int
    slices: tuple[ObservationSlice, ...]


class Observation(NamedTuple):
    seat: int
    layout: str
    values: tuple[float, ...]
    legal_action_mask: tuple[bool, ...]  # one flag per action id


class ObservationPart(NamedTuple):
    """A module's slices: their (name, length, meaning) for a player count, and their values from a seat's view."""

    slices: Callable[[int], list[tuple[str, int, str]]]
    encode: Callable[[GameView, int], list[float]]


_PARTS: Final[dict[str, ObservationPart]] = {}


def register_part(module: str, part: ObservationPart) -> None:
    """Add a module's slices (called by the module's package when it is imported)."""
    _PARTS[module] = part


def seat_order(seat: int, num_players: int) -> list[int]:
    """The seats as the observing seat sees them: itself first, then in playing order."""
    return [(seat + offset) % num_players for offset in range(num_players)]


def market_shape(module: str | None) -> tuple[int, ...]:
    """Face-up slots per market row."""
    extra = () if module is None else tuple(spec.slots for spec in module_named(module).decks)
    return (MARKET_SLOTS,) * BASE_DECKS + extra


def _base_slices(module: str | None, num_players: int) -> list[tuple[str, int, str]]:
    shape = market_shape(module)
    slices = [
        ("bank", TOKEN_KINDS, "tokens in the bank: white, blue, green, red, black, gold"),
        ("deck_sizes", len(shape), "cards left in each deck, by deck id"),
        ("market", sum(shape) * CARD_FEATURES, f"the face-up slots row by row; {CARD_MEANING}"),
        ("nobles", (num_players + 1) * NOBLE_FEATURES, "noble slots: present, points, requirement (five colours)"),
        ("turn", 1, "turns completed"),
        ("flags", 3, "final round triggered, game over, passes in a row"),
        ("turn_seat", num_players, "one-hot, seat-relative: whose turn it is"),
        ("acting_seat", num_players, "one-hot, seat-relative: who must act (all zero once the game is over)"),
        ("pending", DECISION_KIND_SLOTS + 1, "pending decision kind one-hot (kind number v at v-1), tokens to return"),
    ]
    for index in range(num_players):
        prefix = f"seat{index}."
        slices += [
            (prefix + "tokens", TOKEN_KINDS, "tokens held: white, blue, green, red, black, gold"),
            (prefix + "bonuses", GEMS, "bonuses by colour"),
            (prefix + "counts", 3, "prestige, cards purchased, nobles"),
            (
                prefix + "reserved",
                RESERVE_LIMIT * RESERVED_FEATURES,
                f"reserved slots: {CARD_MEANING} (all zero when hidden), hidden flag, deck one-hot ({MAX_DECKS})",
            ),
        ]
    return slices


def layout_name(module: str | None, num_players: int) -> str:
    return f"{module or 'base'}/{num_players}p"


@cache
def observation_layout(modules: frozenset[str], num_players: int) -> ObservationLayout:
    """The layout of the ruleset (at most one module, as the rules allow)."""
    module = next(iter(sorted(modules)), None)
    named = _base_slices(module, num_players)
    part = _PARTS.get(module) if module is not None else None
    if part is not None:
        named += [(f"{module}.{name}", length, meaning) for name, length, meaning in part.slices(num_players)]
    slices = []
    offset = 0
    for name, length, meaning in named:
        slices.append(ObservationSlice(name, offset, length, meaning))
        offset += length
    return ObservationLayout(layout_name(module, num_players), module, num_players, offset, tuple(slices))


on_change(observation_layout.cache_clear)


def observation_layouts() -> tuple[ObservationLayout, ...]:
    """The layout of every ruleset: the base game, then each registered module, each for every player count."""
    rulesets: list[frozenset[str]] = [frozenset()] + [frozenset({module.name}) for module in registered_modules()]
    return tuple(
        observation_layout(modules, players) for modules in rulesets for players in range(MIN_PLAYERS, MAX_PLAYERS + 1)
    )


def _card_values(card_id: int) -> tuple[float, ...]:
    card = CARDS[card_id]
    bonus = [0.0] * GEMS
    if card.bonus is not None:
        bonus[card.bonus] = 1.0
    return tuple(float(value) for value in (1.0, card.level, card.points, *bonus, card.bonus_count, *card.cost))


# Each card's and noble's values computed once: an observation copies them (it is written at every learner step).
CARD_VALUES: Final = tuple(_card_values(card_id) for card_id in range(len(CARDS)))
_NO_CARD: Final = (0.0,) * CARD_FEATURES
NOBLE_VALUES: Final = tuple(
    tuple(float(value) for value in (1.0, noble.points, *noble.requirement)) for noble in NOBLES
)
_NO_NOBLE: Final = (0.0,) * NOBLE_FEATURES
_NO_RESERVED: Final = (0.0,) * RESERVED_FEATURES


def encode_view(view: GameView) -> tuple[float, ...]:
    """The observation values of a seat's view (``view.viewer`` must be a seat)."""
    seat = view.viewer
    if seat is None:
        raise ValueError("a spectator has no observation: observe a seat")
    players = view.num_players
    module = next(iter(sorted(view.modules)), None)
    order = seat_order(seat, players)
    relative = {actual: index for index, actual in enumerate(order)}
    out: list[float] = list(view.bank)
    shape = market_shape(module)
    sizes = list(view.deck_sizes) + [0] * len(shape)
    out += sizes[: len(shape)]
    for row, slots in enumerate(shape):
        cards = view.market[row] if row < len(view.market) else ()
        for slot in range(slots):
            card_id = cards[slot] if slot < len(cards) else None
            out += _NO_CARD if card_id is None else CARD_VALUES[card_id]
    for slot in range(players + 1):
        out += NOBLE_VALUES[view.nobles[slot]] if slot < len(view.nobles) else _NO_NOBLE
    over = view.end_reason is not None
    out += [view.turn, float(view.final_round), float(over), view.passes_in_a_row]
    turn_seat = [0.0] * players
    turn_seat[relative[view.seat]] = 1.0
    acting = [0.0] * players
    if not over:
        acting[relative[view.pending.seat if view.pending is not None else view.seat]] = 1.0
    pending = [0.0] * (DECISION_KIND_SLOTS + 1)
    if view.pending is not None:
        if 1 <= view.pending.kind.value <= DECISION_KIND_SLOTS:
            pending[view.pending.kind.value - 1] = 1.0
        pending[-1] = view.pending.amount
    out += turn_seat + acting + pending
    for actual in order:
        player = view.players[actual]
        out += [*player.tokens, *player.bonuses, player.prestige, len(player.purchased), len(player.nobles)]
        for slot in range(RESERVE_LIMIT):
            if slot < len(player.reserved):
                reserved = player.reserved[slot]
                out += _NO_CARD if reserved.card_id is None else CARD_VALUES[reserved.card_id]
                decks = [0.0] * MAX_DECKS
                decks[reserved.deck] = 1.0
                out += [float(reserved.card_id is None), *decks]
            else:
                out += _NO_RESERVED
    part = _PARTS.get(module) if module is not None else None
    if part is not None:
        out += part.encode(view, seat)
    return tuple(map(float, out))


# The rows ``state_features`` names: a card's id, then these (an empty or hidden card slot, the nobles, an empty
# noble slot), so that one table of CARD_FEATURES-wide rows can hold every card's and noble's values.
EMPTY_CARD_ROW: Final = len(CARDS)
FIRST_NOBLE_ROW: Final = len(CARDS) + 1
EMPTY_NOBLE_ROW: Final = FIRST_NOBLE_ROW + len(NOBLES)
_BASE_SHAPE: Final = (MARKET_SLOTS,) * BASE_DECKS
_DECK_FLAGS: Final = tuple([float(deck == index) for index in range(MAX_DECKS)] for deck in range(MAX_DECKS))
_EMPTY_RESERVED_FLAGS: Final = [0.0] * (1 + MAX_DECKS)


def state_features(state: GameState, seat: int) -> tuple[list[int], list[float]]:
    """The base slices of ``seat``'s observation read from the state, without building a view: (rows, scalars).

    ``rows``: the market's slots row by row, each seat's reserved slots (seat-relative order,
    RESERVE_LIMIT each), then the ``num_players + 1`` noble slots, each as a row number (a
    card id or EMPTY_CARD_ROW; FIRST_NOBLE_ROW + a noble id or EMPTY_NOBLE_ROW) whose
    CARD_VALUES / NOBLE_VALUES fill the slot's card or noble features. ``scalars``: every
    other value of the base slices, in layout order. Put in their places, they give the base
    slices of ``encode_view(view_for(state, seat))`` exactly (it hides the same: the other
    seats' blind reserves); a module's slices are not included.
    """
    players = len(state.players)
    modules = state.config.modules
    shape = _BASE_SHAPE if not modules else market_shape(next(iter(sorted(modules))))
    rows: list[int] = []
    market = state.market
    for row, slots in enumerate(shape):
        cards = market[row] if row < len(market) else ()
        for slot in range(slots):
            card_id = cards[slot] if slot < len(cards) else None
            rows.append(EMPTY_CARD_ROW if card_id is None else card_id)
    decks = state.decks
    scalars: list[float] = [float(count) for count in state.bank]
    scalars += [float(len(decks[index])) if index < len(decks) else 0.0 for index in range(len(shape))]
    over = state.end_reason is not None
    scalars += [float(state.turn), float(state.final_round), float(over), float(state.passes_in_a_row)]
    turn_seat = [0.0] * players
    turn_seat[(state.seat - seat) % players] = 1.0
    acting = [0.0] * players
    pending = state.pending
    if not over:
        acting[((pending.seat if pending is not None else state.seat) - seat) % players] = 1.0
    kinds = [0.0] * (DECISION_KIND_SLOTS + 1)
    if pending is not None:
        if 1 <= pending.kind.value <= DECISION_KIND_SLOTS:
            kinds[pending.kind.value - 1] = 1.0
        kinds[-1] = float(pending.amount)
    scalars += turn_seat + acting + kinds
    for offset in range(players):
        actual = (seat + offset) % players
        player = state.players[actual]
        scalars += [float(count) for count in player.tokens]
        scalars += [float(count) for count in player.bonuses]
        scalars += [float(player.prestige), float(len(player.purchased)), float(len(player.nobles))]
        reserved = player.reserved
        for slot in range(len(reserved)):
            card_id = reserved[slot]
            hidden = actual != seat and player.reserved_blind[slot]
            rows.append(EMPTY_CARD_ROW if hidden else card_id)
            scalars.append(1.0 if hidden else 0.0)
            scalars += _DECK_FLAGS[CARDS[card_id].deck]
        for _ in range(len(reserved), RESERVE_LIMIT):
            rows.append(EMPTY_CARD_ROW)
            scalars += _EMPTY_RESERVED_FLAGS
    nobles = state.nobles
    for slot in range(players + 1):
        rows.append(FIRST_NOBLE_ROW + nobles[slot] if slot < len(nobles) else EMPTY_NOBLE_ROW)
    return rows, scalars


def legal_action_ids(state: GameState, seat: int) -> tuple[int, ...]:
    """The ids of the legal actions of ``seat``, in increasing order (none unless it must act)."""
    if state.end_reason is not None or state.acting_seat != seat:
        return ()
    return tuple(sorted(action_id(action) for action in legal_actions(state)))


def legal_action_mask(state: GameState, seat: int) -> tuple[bool, ...]:
    """One flag per action id: the legal actions of ``seat`` (all false unless it must act)."""
    mask = [False] * id_layout().count
    for value in legal_action_ids(state, seat):
        mask[value] = True
    return tuple(mask)


def observation_values(state: GameState, seat: int) -> tuple[str, tuple[float, ...]]:
    """The name of the state's layout and ``seat``'s observation values: ``observe`` without the mask."""
    if not 0 <= seat < len(state.players):
        raise ValueError(f"seat {seat} is not a seat of a {len(state.players)}-player game")
    config = state.config
    name = layout_name(next(iter(sorted(config.modules)), None), config.num_players)
    return name, encode_view(view_for(state, seat))


def observe(state: GameState, seat: int) -> Observation:
    """The observation of ``seat``: its view as numbers, and its legal-action mask."""
    name, values = observation_values(state, seat)
    return Observation(seat, name, values, legal_action_mask(state, seat))
