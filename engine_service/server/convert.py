"""Protobuf <-> rules-core conversion, used only at the service boundary.

Conventions of the contract:

* colours: proto ``Color`` value = core colour index + 1 (``COLOR_UNSPECIFIED`` is never valid);
  the colours of a TAKE_GEM decision travel in ``colors``, not in the id ``options``;
* modules: proto ``MODULE_TRADING_POSTS`` <-> core name ``"trading_posts"``;
* enums shared by name (``DecisionKind``, ``EndReason``, ``CardSource``), never by number;
* derived output-only fields (``round``, ``winners``) are filled on output and ignored on input;
* a module's state (``cities``, ``trading_posts``, ``strongholds``, ``orient``: the core's names)
  is present exactly when its module is enabled, with one entry per seat in each per-seat list.

Incoming messages are untrusted: anything the core cannot represent raises a
``RuleViolation`` (``INVALID_STATE`` with the offending ``field`` relative to the
converted message, ``UNKNOWN_ACTION`` or ``INVALID_COLOR``), and a converted state
then goes through ``validate_state``. Nothing here may raise anything else.

This is the hot path of ApplyAction (and of every call carrying a state): reading
does few attribute reads and no per-item work it can leave to C (``[:]`` copies,
full market rows read from their wire form), and the response patches a copy of
the request's state rather than writing a whole state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from google.protobuf.internal.containers import RepeatedCompositeFieldContainer, RepeatedScalarFieldContainer
from splendor.v1 import (
    actions_pb2,
    cities_pb2,
    common_pb2,
    config_pb2,
    orient_pb2,
    state_pb2,
    strongholds_pb2,
    trading_posts_pb2,
    view_pb2,
)

from engine_service.rules import (
    CARDS,
    Action,
    ChooseCity,
    ChooseNoble,
    DecisionKind,
    EndReason,
    GameConfig,
    GameState,
    GameView,
    Pass,
    PendingDecision,
    PlayerState,
    PurchaseCard,
    Reason,
    ReserveCard,
    ReserveFromDeck,
    ReturnTokens,
    RuleViolation,
    Standing,
    TakeGems,
    TakeTwoGems,
    action_from_id,
    validate_state,
)
from engine_service.rules.action_ids import MAX_DECKS
from engine_service.rules.actions import (
    Decline,
    PairCard,
    PlaceStronghold,
    RemoveStronghold,
    ReserveNoble,
    TakeFreeCard,
    TakeGem,
)
from engine_service.rules.game_setup import MARKET_SLOTS
from engine_service.rules.modules.cities import CitiesState
from engine_service.rules.modules.orient import OrientState
from engine_service.rules.modules.strongholds import StrongholdsState
from engine_service.rules.modules.trading_posts import TradingPostsState

# Proto Color value -> core colour index; anything else (0, or unknown numbers) is invalid.
_CORE_COLOR: Final[dict[int, int]] = {value: value - 1 for value in range(1, 7)}

_MODULE_NAMES: Final[dict[int, str]] = {
    value.number: value.name.removeprefix("MODULE_").lower()
    for value in config_pb2.Module.DESCRIPTOR.values
    if value.number != config_pb2.MODULE_UNSPECIFIED
}
_MODULE_VALUES: Final[dict[str, int]] = {name: number for number, name in _MODULE_NAMES.items()}

DECISION_KINDS: Final[dict[int, DecisionKind]] = {
    state_pb2.DecisionKind.Value(f"DECISION_KIND_{kind.name}"): kind for kind in DecisionKind
}
DECISION_VALUES: Final[dict[DecisionKind, state_pb2.DecisionKind.ValueType]] = {
    kind: state_pb2.DecisionKind.ValueType(value) for value, kind in DECISION_KINDS.items()
}
END_REASONS: Final[dict[int, EndReason]] = {
    state_pb2.EndReason.Value(f"END_REASON_{reason.name}"): reason for reason in EndReason
}
END_VALUES: Final[dict[EndReason, state_pb2.EndReason.ValueType]] = {
    reason: state_pb2.EndReason.ValueType(value) for value, reason in END_REASONS.items()
}


Market = tuple[tuple[int | None, ...], ...]


_DECK_OF: Final = tuple(card.deck for card in CARDS)
_CARD_COUNT: Final = len(CARDS)


def invalid_state(field: str, message: str) -> RuleViolation:
    return RuleViolation(Reason.INVALID_STATE, message, field=field)


# --- tokens and colours -------------------------------------------------------------------------


def tokens_from_proto(counts: common_pb2.TokenCounts) -> tuple[int, ...]:
    return (counts.white, counts.blue, counts.green, counts.red, counts.black, counts.gold)


def gems_from_proto(counts: common_pb2.GemCounts) -> tuple[int, ...]:
    return (counts.white, counts.blue, counts.green, counts.red, counts.black)


def fill_tokens(out: common_pb2.TokenCounts, counts: Sequence[int]) -> None:
    out.white, out.blue, out.green, out.red, out.black, out.gold = counts


def fill_gems(out: common_pb2.GemCounts, counts: Sequence[int]) -> None:
    out.white, out.blue, out.green, out.red, out.black = counts


def color_from_proto(value: int, field: str) -> int:
    color = _CORE_COLOR.get(value)
    if color is None:
        raise RuleViolation(Reason.INVALID_COLOR, f"{value} is not a colour", field=field, color=str(value))
    return color


def color_to_proto(color: int) -> common_pb2.Color.ValueType:
    return common_pb2.Color.ValueType(color + 1)


# --- configuration ------------------------------------------------------------------------------


def config_from_proto(msg: config_pb2.GameConfig, field: str = "config") -> GameConfig:
    """The core config; ``validate_config`` (called by the caller) checks the values."""
    names = []
    for index, value in enumerate(msg.modules):
        name = _MODULE_NAMES.get(value)
        if name is None:
            raise RuleViolation(
                Reason.UNKNOWN_MODULE, f"{value} is not a module", field=f"{field}.modules[{index}]", module=str(value)
            )
        names.append(name)
    return GameConfig(
        num_players=msg.num_players,
        seed=msg.seed,
        first_seat=msg.first_seat if msg.HasField("first_seat") else None,
        modules=frozenset(names),
        turn_limit=msg.turn_limit,
    )


def fill_config(out: config_pb2.GameConfig, config: GameConfig) -> None:
    out.num_players = config.num_players
    out.seed = config.seed
    if config.first_seat is None:
        out.ClearField("first_seat")
    else:
        out.first_seat = config.first_seat
    del out.modules[:]
    out.modules.extend(modules_to_proto(config.modules))
    out.turn_limit = config.turn_limit


def modules_to_proto(modules: frozenset[str]) -> list[config_pb2.Module.ValueType]:
    return [config_pb2.Module.ValueType(_MODULE_VALUES[name]) for name in sorted(modules)]


# --- game state ---------------------------------------------------------------------------------


_tuple_new: Final = tuple.__new__
_NO_RESERVE: Final[tuple[tuple[int, ...], tuple[bool, ...]]] = ((), ())
_NO_MODULES: Final[frozenset[str]] = frozenset()
# A market row of n occupied slots, each id below 128, serializes as n records of 4 bytes:
# tag of field 1 (LEN), length 2, tag of card_id, the id. By the byte length of such a row,
# the bytes at offsets 0, 1 and 2 of its records, for rows of 1 to MARKET_SLOTS slots (a base
# row has MARKET_SLOTS, an Orient row 2).
_ROW_PATTERNS: Final[dict[int, tuple[bytes, bytes, bytes]]] = {
    4 * slots: (b"\x0a" * slots, b"\x02" * slots, b"\x08" * slots) for slots in range(1, MARKET_SLOTS + 1)
}


def state_from_proto(msg: state_pb2.GameState) -> GameState:
    """The core state of an incoming message, checked with ``validate_state``.

    The hot path of every call that carries a state: one pass, few attribute reads,
    repeated scalars copied with ``[:]`` (a C-level list copy) and the small records
    built with ``tuple.__new__`` (skipping their Python-level ``__new__``).
    """
    # [:] on a repeated message field makes all the element wrappers in one call.
    decks = tuple([tuple(deck.card_ids[:]) for deck in msg.decks[:]])
    if not 0 < len(decks) <= MAX_DECKS:
        raise invalid_state("decks", f"{len(decks)} decks: a game has one per card level")
    rows = msg.market
    if len(rows) != len(decks):
        raise invalid_state("market", f"{len(rows)} market rows for {len(decks)} decks: one row per deck")
    market = tuple([_row_from_proto(row) for row in rows[:]])
    players = []
    for seat, player in enumerate(msg.players[:]):
        tokens = player.tokens
        bonuses = player.bonuses
        reserved_cards = player.reserved[:]
        reserved, blind = _reserved_from_proto(seat, reserved_cards) if reserved_cards else _NO_RESERVE
        players.append(
            _tuple_new(
                PlayerState,
                (
                    (tokens.white, tokens.blue, tokens.green, tokens.red, tokens.black, tokens.gold),
                    (bonuses.white, bonuses.blue, bonuses.green, bonuses.red, bonuses.black),
                    player.prestige,
                    tuple(player.purchased_card_ids[:]),
                    reserved,
                    blind,
                    tuple(player.noble_ids[:]),
                ),
            )
        )
    pending = _pending_from_proto(msg.pending_decision) if msg.HasField("pending_decision") else None
    config = _config_from_proto(msg.config)
    module_states = _NO_MODULE_STATES
    # A base game costs four cheap presence tests (a stray module state is refused).
    if (
        config.modules
        or msg.HasField("cities")
        or msg.HasField("trading_posts")
        or msg.HasField("strongholds")
        or msg.HasField("orient")
    ):
        module_states = _module_states_from_proto(msg, config.modules)
    end_reason = None
    if msg.end_reason:
        end_reason = END_REASONS.get(msg.end_reason)
        if end_reason is None:
            raise invalid_state("end_reason", f"unknown end reason {msg.end_reason}")
    ranking = msg.ranking
    bank = msg.bank
    # Positional arguments: keyword construction of NamedTuples is measurably slower here.
    state = GameState(
        config,
        (bank.white, bank.blue, bank.green, bank.red, bank.black, bank.gold),
        decks,
        market,
        tuple(msg.noble_ids[:]),
        tuple(players),
        msg.first_seat,
        msg.seat,
        msg.turn,
        pending,
        msg.final_round,
        msg.passes_in_a_row,
        end_reason,
        tuple([Standing(s.seat, s.place, s.prestige, s.purchased_cards) for s in ranking]) if ranking else (),
        *module_states,
    )
    try:
        validate_state(state)
    except RuleViolation as violation:
        if pending is not None and pending.kind is DecisionKind.TAKE_GEM:
            _point_at_colors(violation)
        raise
    return state


def _point_at_colors(violation: RuleViolation) -> None:
    """The core names a gem choice's colours ``options``; the contract carries them in ``colors``."""
    if violation.details.get("field") in ("pending.options", "pending_decision.options"):
        violation.details["field"] = "pending_decision.colors"


def _row_from_proto(row: state_pb2.MarketRow) -> tuple[int | None, ...]:
    """One market row, None for an empty slot.

    The usual full row is read from its wire form in a few C calls, instead of
    visiting each slot message; anything else (empty slots, unknown fields, large
    ids) takes the per-slot path.
    """
    raw = row.SerializeToString()
    pattern = _ROW_PATTERNS.get(len(raw))
    if pattern is not None and raw[2::4] == pattern[2] and raw[0::4] == pattern[0] and raw[1::4] == pattern[1]:
        return tuple(raw[3::4])
    # HasField only when the id reads 0: an absent id and card 0 both read 0.
    return tuple([(c if (c := slot.card_id) or slot.HasField("card_id") else None) for slot in row.slots])


def _config_from_proto(msg: config_pb2.GameConfig) -> GameConfig:
    """``config_from_proto`` for a state's config: the same result, faster for the usual one."""
    if msg.modules:
        return config_from_proto(msg)
    first_seat = msg.first_seat if msg.HasField("first_seat") else None
    return _tuple_new(GameConfig, (msg.num_players, msg.seed, first_seat, _NO_MODULES, msg.turn_limit))


def _reserved_from_proto(seat: int, cards: list[state_pb2.ReservedCard]) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    ids = []
    blind = []
    for card in cards:
        card_id = card.card_id
        # Card 0 reads like an absent id; the deck is derived from the card, and a wrong one
        # would be echoed back otherwise (an id outside the catalog is refused later).
        if (not card_id and not card.HasField("card_id")) or (card_id < _CARD_COUNT and _DECK_OF[card_id] != card.deck):
            raise _reserved_fault(seat, cards)
        ids.append(card_id)
        blind.append(card.blind)
    return tuple(ids), tuple(blind)


def _reserved_fault(seat: int, cards: list[state_pb2.ReservedCard]) -> RuleViolation:
    """The refusal of the first reserved card ``_reserved_from_proto`` cannot take."""
    for index, card in enumerate(cards):
        card_id = card.card_id
        if not card_id and not card.HasField("card_id"):
            return invalid_state(f"players[{seat}].reserved[{index}].card_id", "a reserved card in a state has its id")
        if card_id < _CARD_COUNT and _DECK_OF[card_id] != card.deck:
            return invalid_state(f"players[{seat}].reserved[{index}].deck", f"card {card_id} is not from that deck")
    raise AssertionError("no reserved card at fault")


def _pending_from_proto(msg: state_pb2.PendingDecision) -> PendingDecision | None:
    kind = DECISION_KINDS.get(msg.kind)
    options = tuple(msg.options)
    colors = msg.colors
    if msg.kind == state_pb2.DECISION_KIND_UNSPECIFIED and not (msg.seat or msg.amount or options or colors):
        return None  # an empty message some clients send for "no decision"
    if kind is None:
        raise invalid_state("pending_decision.kind", f"unknown decision kind {msg.kind}")
    # Each kind uses one of amount/options/colors; the others must stay empty so the state is canonical.
    if kind == DecisionKind.RETURN_TOKENS:
        if options:
            raise invalid_state("pending_decision.options", "returning tokens has no options")
    elif msg.amount:
        raise invalid_state("pending_decision.amount", f"{kind.name} has no amount")
    if kind == DecisionKind.TAKE_GEM:
        if options:
            raise invalid_state("pending_decision.options", "the colours of a gem choice are in colors")
        path = "pending_decision.colors"
        options = tuple([_state_color(color, f"{path}[{index}]") for index, color in enumerate(colors)])
    elif colors:
        raise invalid_state("pending_decision.colors", f"{kind.name} has no colours")
    return PendingDecision(kind, msg.seat, msg.amount, options)


def _state_color(value: int, field: str) -> int:
    """A colour inside a state: a bad one makes the state invalid (INVALID_STATE, not INVALID_COLOR)."""
    color = _CORE_COLOR.get(value)
    if color is None:
        raise invalid_state(field, f"{value} is not a colour")
    return color


def state_to_proto(state: GameState) -> state_pb2.GameState:
    out = state_pb2.GameState()
    fill_state(out, state)
    return out


def fill_state(out: state_pb2.GameState, state: GameState) -> None:
    """Write ``state`` into an empty message."""
    fill_config(out.config, state.config)
    fill_tokens(out.bank, state.bank)
    out_decks = out.decks
    for pile in state.decks:
        out_decks.add().card_ids.extend(pile)
    _fill_market(out.market, state.market)
    out.noble_ids.extend(state.nobles)
    out_players = out.players
    for player in state.players:
        _fill_player(out_players.add(), player)
    out.first_seat = state.first_seat
    out.seat = state.seat
    out.turn = state.turn
    out.round = state.round
    if state.pending is not None:
        fill_pending(out.pending_decision, state.pending)
    out.final_round = state.final_round
    out.passes_in_a_row = state.passes_in_a_row
    if state.end_reason is not None:
        out.end_reason = end_reason_to_proto(state.end_reason)
        fill_standings(out.ranking, state.ranking)
        out.winners.extend(state.winners)
    _fill_module_states(out, state.cities, state.trading_posts, state.strongholds, state.orient)


def update_state(out: state_pb2.GameState, old: GameState, new: GameState) -> None:
    """Turn ``out``, a copy of the message ``old`` was read from, into the message of ``new``.

    Much cheaper than ``fill_state`` after one action: the core rebuilds only what
    changed and reuses the other tuples, so identity tells which parts to rewrite,
    and within them only the changed slots, counts and list ends are written.
    Input is canonical once read (``state_from_proto`` refuses what it could not
    write back identically), except for what is rewritten unconditionally here:
    derived fields, the pending decision, config modules and unknown fields.
    """
    old_decks = old.decks
    old_market = old.market
    old_players = old.players
    decks = new.decks
    market = new.market
    players = new.players
    if len(decks) != len(old_decks) or len(market) != len(old_market) or len(players) != len(old_players):
        out.Clear()
        fill_state(out, new)
        return
    out.DiscardUnknownFields()
    if new.config.modules or new.config is not old.config:
        fill_config(out.config, new.config)
    if new.bank is not old.bank:
        out_bank = out.bank
        out_bank.white, out_bank.blue, out_bank.green, out_bank.red, out_bank.black, out_bank.gold = new.bank
    if decks is not old_decks:
        for index, pile in enumerate(decks):
            if pile is not old_decks[index]:
                _update_ids(out.decks[index].card_ids, old_decks[index], pile)
    if market is not old_market:
        for index, row in enumerate(market):
            row_before = old_market[index]
            if row is not row_before:
                _update_row(out.market[index].slots, row_before, row)
    if new.nobles is not old.nobles:
        _update_ids(out.noble_ids, old.nobles, new.nobles)
    if players is not old_players:
        for seat, player in enumerate(players):
            if player is not old_players[seat]:
                _update_player(out.players[seat], old_players[seat], player)
    out.seat = new.seat
    turn = out.turn = new.turn
    out.round = turn // new.config.num_players  # derived: whatever came in is overwritten
    # Also clears the empty message some clients send for "no decision".
    out.ClearField("pending_decision")
    if new.pending is not None:
        fill_pending(out.pending_decision, new.pending)
    if new.final_round is not old.final_round:
        out.final_round = new.final_round
    out.passes_in_a_row = new.passes_in_a_row
    if new.end_reason is not old.end_reason:
        out.end_reason = end_reason_to_proto(new.end_reason)
    if new.ranking is not old.ranking:
        del out.ranking[:]
        fill_standings(out.ranking, new.ranking)
    winners = out.winners  # derived, like round
    if winners or new.ranking:
        del winners[:]
        winners.extend(new.winners)
    _update_module_states(out, old, new)


# --- module states ------------------------------------------------------------------------------
# Every proto value has a core value: the module's ``validate`` (run by ``validate_state``) checks
# the contents (one entry per seat, known ids...) with the same field names as the contract.

ModuleStates = tuple[CitiesState | None, TradingPostsState | None, StrongholdsState | None, OrientState | None]

# The GameState (and GameView) fields of the module states, named like the core's fields and modules.
MODULE_STATE_FIELDS: Final = ("cities", "trading_posts", "strongholds", "orient")
_NO_MODULE_STATES: Final[ModuleStates] = (None, None, None, None)


def cities_from_proto(msg: cities_pb2.CitiesState) -> CitiesState:
    """The Cities module's state; ``validate_state`` checks its contents."""
    return CitiesState(tuple(msg.available_city_ids), tuple([tuple(held.city_ids) for held in msg.held]))


def fill_cities(out: cities_pb2.CitiesState, cities: CitiesState) -> None:
    out.available_city_ids.extend(cities.available)
    for held in cities.held:
        out.held.add().city_ids.extend(held)


def trading_posts_from_proto(msg: trading_posts_pb2.TradingPostsState) -> TradingPostsState:
    """The Trading Posts module's state; ``validate_state`` checks its contents."""
    return TradingPostsState(tuple([tuple(seat.post_ids) for seat in msg.shields]))


def fill_trading_posts(out: trading_posts_pb2.TradingPostsState, posts: TradingPostsState) -> None:
    for shields in posts.shields:
        out.shields.add().post_ids.extend(shields)


def strongholds_from_proto(msg: strongholds_pb2.StrongholdsState) -> StrongholdsState:
    """The Strongholds module's state; ``validate_state`` checks its contents."""
    return StrongholdsState(tuple([tuple(seat.card_ids) for seat in msg.placed]))


def fill_strongholds(out: strongholds_pb2.StrongholdsState, strongholds: StrongholdsState) -> None:
    for placed in strongholds.placed:
        out.placed.add().card_ids.extend(placed)


def orient_from_proto(msg: orient_pb2.OrientState) -> OrientState:
    """The Orient module's state; ``validate_state`` checks its contents."""
    return OrientState(
        tuple([tuple([(pair.card_id, pair.partner_card_id) for pair in seat.pairs]) for seat in msg.pairs]),
        tuple([tuple(seat.noble_ids) for seat in msg.reserved_nobles]),
        tuple([tuple(seat.card_ids) for seat in msg.discarded]),
    )


def fill_orient(out: orient_pb2.OrientState, orient: OrientState) -> None:
    for pairs in orient.pairs:
        out_pairs = out.pairs.add().pairs
        for card_id, partner in pairs:
            out_pairs.add(card_id=card_id, partner_card_id=partner)
    for nobles in orient.reserved_nobles:
        out.reserved_nobles.add().noble_ids.extend(nobles)
    for discarded in orient.discarded:
        out.discarded.add().card_ids.extend(discarded)


def _module_states_from_proto(msg: state_pb2.GameState, modules: frozenset[str]) -> ModuleStates:
    """The module states, in ``MODULE_STATE_FIELDS`` order; a state of a module not in play is refused.

    A missing state of a module in play is the module's ``validate`` to refuse.
    """
    for name in MODULE_STATE_FIELDS:
        if name not in modules and msg.HasField(name):
            raise invalid_state(name, f"the game does not play the {name} module: its state must be absent")
    return (
        cities_from_proto(msg.cities) if msg.HasField("cities") else None,
        trading_posts_from_proto(msg.trading_posts) if msg.HasField("trading_posts") else None,
        strongholds_from_proto(msg.strongholds) if msg.HasField("strongholds") else None,
        orient_from_proto(msg.orient) if msg.HasField("orient") else None,
    )


def _fill_module_states(
    out: state_pb2.GameState | view_pb2.GameView,
    cities: CitiesState | None,
    trading_posts: TradingPostsState | None,
    strongholds: StrongholdsState | None,
    orient: OrientState | None,
) -> None:
    """Write the module states present into an empty message."""
    if cities is not None:
        fill_cities(out.cities, cities)
    if trading_posts is not None:
        fill_trading_posts(out.trading_posts, trading_posts)
    if strongholds is not None:
        fill_strongholds(out.strongholds, strongholds)
    if orient is not None:
        fill_orient(out.orient, orient)


def _update_module_states(out: state_pb2.GameState, old: GameState, new: GameState) -> None:
    """Rewrite the module states a move replaced (they are small: a whole rewrite is cheap)."""
    if new.cities is not old.cities:
        out.ClearField("cities")
        if new.cities is not None:
            fill_cities(out.cities, new.cities)
    if new.trading_posts is not old.trading_posts:
        out.ClearField("trading_posts")
        if new.trading_posts is not None:
            fill_trading_posts(out.trading_posts, new.trading_posts)
    if new.strongholds is not old.strongholds:
        out.ClearField("strongholds")
        if new.strongholds is not None:
            fill_strongholds(out.strongholds, new.strongholds)
    if new.orient is not old.orient:
        out.ClearField("orient")
        if new.orient is not None:
            fill_orient(out.orient, new.orient)


def _update_ids(out: RepeatedScalarFieldContainer[int], old: tuple[int, ...], new: tuple[int, ...]) -> None:
    """Make ``out``, holding ``old``, hold ``new``: a move takes ids off the front or adds them at the end."""
    kept = len(old)
    if len(new) < kept and old[kept - len(new) :] == new:
        del out[: kept - len(new)]
    elif len(new) > kept and new[:kept] == old:
        out.extend(new[kept:])
    else:
        del out[:]
        out.extend(new)


def _update_row(
    out: RepeatedCompositeFieldContainer[state_pb2.MarketSlot], old: tuple[int | None, ...], new: tuple[int | None, ...]
) -> None:
    """Rewrite the slots that changed (a move empties or refills one or two)."""
    if len(new) != len(old):
        del out[:]
        _fill_slots(out, new)
        return
    for slot, card_id in enumerate(new):
        if card_id != old[slot]:
            if card_id is None:
                out[slot].ClearField("card_id")
            else:
                out[slot].card_id = card_id


def _update_player(out: state_pb2.PlayerState, old: PlayerState, new: PlayerState) -> None:
    """Like ``update_state``, for one seat: a move changes a few of its fields."""
    if new.tokens is not old.tokens:
        tokens = out.tokens
        tokens.white, tokens.blue, tokens.green, tokens.red, tokens.black, tokens.gold = new.tokens
    if new.bonuses is not old.bonuses:
        bonuses = out.bonuses
        bonuses.white, bonuses.blue, bonuses.green, bonuses.red, bonuses.black = new.bonuses
        out.prestige = new.prestige
    elif new.prestige != old.prestige:
        out.prestige = new.prestige
    if new.purchased is not old.purchased:
        _update_ids(out.purchased_card_ids, old.purchased, new.purchased)
    if new.reserved is not old.reserved or new.reserved_blind is not old.reserved_blind:
        _update_reserved(out.reserved, old, new)
    if new.nobles is not old.nobles:
        _update_ids(out.noble_ids, old.nobles, new.nobles)


def _update_reserved(
    out: RepeatedCompositeFieldContainer[state_pb2.ReservedCard], old: PlayerState, new: PlayerState
) -> None:
    """Make ``out``, holding ``old``'s reserve, hold ``new``'s: a move adds a card at the end or buys one."""
    before = tuple(zip(old.reserved, old.reserved_blind))
    after = tuple(zip(new.reserved, new.reserved_blind))
    start = len(before)
    if len(after) <= start or after[:start] != before:
        gone = next((index for index, (card, was) in enumerate(zip(after, before)) if card != was), len(after))
        if len(after) == start - 1 and after == before[:gone] + before[gone + 1 :]:
            del out[gone]
            return
        del out[:]
        start = 0
    for card_id, blind in after[start:]:
        out.add(card_id=card_id, deck=_DECK_OF[card_id], blind=blind)


def _fill_slots(out: RepeatedCompositeFieldContainer[state_pb2.MarketSlot], row: tuple[int | None, ...]) -> None:
    for card_id in row:
        if card_id is None:
            out.add()
        else:
            out.add(card_id=card_id)


def _fill_market(out: RepeatedCompositeFieldContainer[state_pb2.MarketRow], market: Market) -> None:
    for row in market:
        _fill_slots(out.add().slots, row)


def _fill_player(out: state_pb2.PlayerState, player: PlayerState) -> None:
    fill_tokens(out.tokens, player.tokens)
    fill_gems(out.bonuses, player.bonuses)
    out.prestige = player.prestige
    out.purchased_card_ids.extend(player.purchased)
    reserved = out.reserved
    for card_id, blind in zip(player.reserved, player.reserved_blind):
        reserved.add(card_id=card_id, deck=_DECK_OF[card_id], blind=blind)
    out.noble_ids.extend(player.nobles)


def fill_pending(out: state_pb2.PendingDecision, pending: PendingDecision) -> None:
    out.kind = DECISION_VALUES[pending.kind]
    out.seat = pending.seat
    out.amount = pending.amount
    if pending.kind is DecisionKind.TAKE_GEM:
        out.colors.extend([color_to_proto(color) for color in pending.options])
    else:
        out.options.extend(pending.options)


def end_reason_to_proto(reason: EndReason | None) -> state_pb2.EndReason.ValueType:
    if reason is None:
        return state_pb2.END_REASON_UNSPECIFIED
    return END_VALUES[reason]


def fill_standings(out: RepeatedCompositeFieldContainer[state_pb2.Standing], ranking: tuple[Standing, ...]) -> None:
    for standing in ranking:
        out.add(
            seat=standing.seat,
            place=standing.place,
            prestige=standing.prestige,
            purchased_cards=standing.purchased_cards,
        )


# --- actions ------------------------------------------------------------------------------------


def action_from_proto(msg: actions_pb2.Action) -> Action:
    """The core action; fields in errors are relative to the Action message."""
    kind = msg.WhichOneof("kind")
    if kind == "take_gems":
        colors = msg.take_gems.colors[:]
        if not colors or (min(colors) >= 1 and max(colors) <= len(_CORE_COLOR)):  # every value a colour
            return TakeGems(tuple([color - 1 for color in colors]))
        return TakeGems(tuple([color_from_proto(c, f"take_gems.colors[{i}]") for i, c in enumerate(colors)]))
    if kind == "take_two_gems":
        return TakeTwoGems(color_from_proto(msg.take_two_gems.color, "take_two_gems.color"))
    if kind == "reserve_card":
        return ReserveCard(msg.reserve_card.card_id)
    if kind == "reserve_from_deck":
        return ReserveFromDeck(msg.reserve_from_deck.deck)
    if kind == "purchase_card":
        purchase = msg.purchase_card
        payment = tokens_from_proto(purchase.payment) if purchase.HasField("payment") else None
        if purchase.HasField("cards_spent"):  # an empty list stays () and reads back as sent
            return PurchaseCard(purchase.card_id, payment, tuple(purchase.cards_spent.card_ids))
        return PurchaseCard(purchase.card_id, payment)
    if kind == "pass":
        return Pass()
    if kind == "return_tokens":
        return ReturnTokens(tokens_from_proto(msg.return_tokens.tokens))
    if kind == "choose_noble":
        return ChooseNoble(msg.choose_noble.noble_id)
    if kind == "choose_city":
        return ChooseCity(msg.choose_city.city_id)
    if kind == "action_id":
        try:
            return action_from_id(msg.action_id)
        except RuleViolation as violation:
            violation.details["field"] = "action_id"
            raise
    if kind == "take_gem":
        return TakeGem(color_from_proto(msg.take_gem.color, "take_gem.color"))
    if kind == "place_stronghold":
        place = msg.place_stronghold
        return PlaceStronghold(place.card_id, place.from_card_id if place.HasField("from_card_id") else None)
    if kind == "remove_stronghold":
        return RemoveStronghold(msg.remove_stronghold.card_id)
    if kind == "decline":
        return Decline()
    if kind == "pair_card":
        return PairCard(msg.pair_card.card_id)
    if kind == "take_free_card":
        return TakeFreeCard(msg.take_free_card.card_id)
    if kind == "reserve_noble":
        return ReserveNoble(msg.reserve_noble.noble_id)
    raise RuleViolation(Reason.UNKNOWN_ACTION, "the action is empty: set one kind of action", field="")


def fill_action(out: actions_pb2.Action, action: Action) -> None:
    """Write a core action (never by id) into an empty message."""
    if isinstance(action, TakeGems):
        out.take_gems.colors.extend([color_to_proto(color) for color in action.colors])
    elif isinstance(action, TakeTwoGems):
        out.take_two_gems.color = color_to_proto(action.color)
    elif isinstance(action, ReserveCard):
        out.reserve_card.card_id = action.card_id
    elif isinstance(action, ReserveFromDeck):
        out.reserve_from_deck.deck = action.deck
    elif isinstance(action, PurchaseCard):
        purchase = out.purchase_card
        purchase.card_id = action.card_id
        if action.payment is not None:
            fill_tokens(purchase.payment, action.payment)
        if action.cards_spent is not None:
            purchase.cards_spent.SetInParent()  # present even when empty, so () reads back as ()
            purchase.cards_spent.card_ids.extend(action.cards_spent)
    elif isinstance(action, Pass):
        getattr(out, "pass").SetInParent()  # "pass" is a Python keyword
    elif isinstance(action, ReturnTokens):
        fill_tokens(out.return_tokens.tokens, action.tokens)
    elif isinstance(action, ChooseNoble):
        out.choose_noble.noble_id = action.noble_id
    elif isinstance(action, ChooseCity):
        out.choose_city.city_id = action.city_id
    elif isinstance(action, TakeGem):
        out.take_gem.color = color_to_proto(action.color)
    elif isinstance(action, PlaceStronghold):
        place = out.place_stronghold
        place.card_id = action.card_id
        if action.from_card_id is not None:
            place.from_card_id = action.from_card_id
    elif isinstance(action, RemoveStronghold):
        out.remove_stronghold.card_id = action.card_id
    elif isinstance(action, Decline):
        out.decline.SetInParent()
    elif isinstance(action, PairCard):
        out.pair_card.card_id = action.card_id
    elif isinstance(action, TakeFreeCard):
        out.take_free_card.card_id = action.card_id
    else:
        out.reserve_noble.noble_id = action.noble_id


def action_to_proto(action: Action) -> actions_pb2.Action:
    out = actions_pb2.Action()
    fill_action(out, action)
    return out


def action_kind(msg: actions_pb2.Action) -> str | None:
    """The name of the Action oneof field that is set, for error field paths."""
    return msg.WhichOneof("kind")


# --- player views -------------------------------------------------------------------------------


def fill_view(out: view_pb2.GameView, view: GameView) -> None:
    """Write a core view (already redacted by ``view_for``) into an empty message."""
    if view.viewer is not None:
        out.viewer_seat = view.viewer
    out.num_players = view.num_players
    out.modules.extend(modules_to_proto(view.modules))
    out.turn_limit = view.turn_limit
    fill_tokens(out.bank, view.bank)
    out.deck_sizes.extend(view.deck_sizes)
    _fill_market(out.market, view.market)
    out.noble_ids.extend(view.nobles)
    for player in view.players:
        msg = out.players.add()
        fill_tokens(msg.tokens, player.tokens)
        fill_gems(msg.bonuses, player.bonuses)
        msg.prestige = player.prestige
        msg.purchased_card_ids.extend(player.purchased)
        for card in player.reserved:
            reserved = msg.reserved.add(deck=card.deck, blind=card.blind)
            if card.card_id is not None:
                reserved.card_id = card.card_id
        msg.noble_ids.extend(player.nobles)
    out.first_seat = view.first_seat
    out.seat = view.seat
    out.turn = view.turn
    out.round = view.turn // view.num_players
    if view.pending is not None:
        fill_pending(out.pending_decision, view.pending)
    out.final_round = view.final_round
    out.passes_in_a_row = view.passes_in_a_row
    out.end_reason = end_reason_to_proto(view.end_reason)
    fill_standings(out.ranking, view.ranking)
    out.winners.extend(standing.seat for standing in view.ranking if standing.place == 1)
    _fill_module_states(out, view.cities, view.trading_posts, view.strongholds, view.orient)
