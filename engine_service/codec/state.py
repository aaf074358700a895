"""The game state between the core and ``splendor.v1.GameState``: one field table for reading, writing, patching.

``FIELDS`` names the core ``GameState``'s fields in their order, each with how it is
read from the message, written into an empty message, and patched: ``patch``
turns the field of a message that holds ``old``'s form into ``new``'s, and runs
only for fields the move replaced (the core reuses the tuples it did not change,
so identity tells), or always for those marked so. ``state_from_proto``,
``fill_state`` and ``update_state`` are loops over that table; the derived
output-only fields (``round``, ``winners``) are written after it and ignored on
input. Module states travel through their adapters (``modules/``).

This is the hot path of ApplyAction: reading does few attribute reads and no
per-item work it can leave to C (``[:]`` copies, full market rows read from their
wire form), and the response patches a copy of the request's state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NamedTuple

from google.protobuf.internal.containers import RepeatedCompositeFieldContainer, RepeatedScalarFieldContainer
from splendor.v1 import state_pb2

from engine_service.rules import (
    CARDS,
    MARKET_SLOTS,
    MAX_DECKS,
    GameConfig,
    GameState,
    PendingDecision,
    PlayerState,
    RuleViolation,
    Standing,
    new_game_config,
    new_player_state,
    registry,
    validate_state,
)

from .bounds import check_bounds
from .common import (
    DECISION_KINDS,
    END_REASONS,
    config_from_proto,
    decision_value,
    end_reason_to_proto,
    fill_config,
    fill_gems,
    fill_tokens,
    invalid_state,
    state_color,
)
from .modules import StateField, module_state_fields
from .records import write_options

Market = tuple[tuple[int | None, ...], ...]

_DECK_OF: Final = tuple(card.deck for card in CARDS)
_CARD_COUNT: Final = len(CARDS)
_NO_RESERVE: Final[tuple[tuple[int, ...], tuple[bool, ...]]] = ((), ())
_NO_MODULES: Final[frozenset[str]] = frozenset()
# A market row of n occupied slots, each id below 128, serializes as n records of 4 bytes:
# tag of field 1 (LEN), length 2, tag of card_id, the id. By the byte length of such a row,
# the bytes at offsets 0, 1 and 2 of its records, for rows of 1 to MARKET_SLOTS slots (a base
# row has MARKET_SLOTS, an Orient row 2).
_ROW_PATTERNS: Final[dict[int, tuple[bytes, bytes, bytes]]] = {
    4 * slots: (b"\x0a" * slots, b"\x02" * slots, b"\x08" * slots) for slots in range(1, MARKET_SLOTS + 1)
}


class Field(NamedTuple):
    """One ``GameState`` field in the contract."""

    read: Callable[[state_pb2.GameState], Any]
    write: Callable[[state_pb2.GameState, Any], None]  # into an empty message
    patch: Callable[[state_pb2.GameState, Any, Any], None]  # (out holding old's form, old, new)
    always: bool = False  # patched even when the core kept the same value (canonical or derived output)


# --- config, bank, decks, market, nobles --------------------------------------------------------


def _read_config(msg: state_pb2.GameState) -> GameConfig:
    """``config_from_proto`` for a state's config: the same result, faster for the usual one."""
    config = msg.config
    if config.modules:
        return config_from_proto(config)
    first_seat = config.first_seat if config.HasField("first_seat") else None
    return new_game_config(
        num_players=config.num_players,
        seed=config.seed,
        first_seat=first_seat,
        modules=_NO_MODULES,
        turn_limit=config.turn_limit,
    )


def _patch_config(out: state_pb2.GameState, old: GameConfig, new: GameConfig) -> None:
    if new.modules or new is not old:  # modules are rewritten in their canonical order
        fill_config(out.config, new)


def _read_bank(msg: state_pb2.GameState) -> tuple[int, ...]:
    bank = msg.bank
    return (bank.white, bank.blue, bank.green, bank.red, bank.black, bank.gold)


def _write_bank(out: state_pb2.GameState, bank: tuple[int, ...]) -> None:
    fill_tokens(out.bank, bank)


def _patch_bank(out: state_pb2.GameState, old: tuple[int, ...], new: tuple[int, ...]) -> None:
    bank = out.bank
    bank.white, bank.blue, bank.green, bank.red, bank.black, bank.gold = new


def _read_decks(msg: state_pb2.GameState) -> tuple[tuple[int, ...], ...]:
    # [:] on a repeated message field makes all the element wrappers in one call.
    decks = tuple([tuple(deck.card_ids[:]) for deck in msg.decks[:]])
    if not 0 < len(decks) <= MAX_DECKS:
        raise invalid_state("decks", f"{len(decks)} decks: a game has one per card level")
    return decks


def _write_decks(out: state_pb2.GameState, decks: tuple[tuple[int, ...], ...]) -> None:
    out_decks = out.decks
    for pile in decks:
        out_decks.add().card_ids.extend(pile)


def _patch_decks(out: state_pb2.GameState, old: tuple[tuple[int, ...], ...], new: tuple[tuple[int, ...], ...]) -> None:
    if len(new) != len(old):
        del out.decks[:]
        _write_decks(out, new)
        return
    for index, pile in enumerate(new):
        if pile is not old[index]:
            _update_ids(out.decks[index].card_ids, old[index], pile)


def _read_market(msg: state_pb2.GameState) -> Market:
    rows = msg.market
    if len(rows) != len(msg.decks):
        raise invalid_state("market", f"{len(rows)} market rows for {len(msg.decks)} decks: one row per deck")
    return tuple([row_from_proto(row) for row in rows[:]])


def row_from_proto(row: state_pb2.MarketRow) -> tuple[int | None, ...]:
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


def _fill_slots(out: RepeatedCompositeFieldContainer[state_pb2.MarketSlot], row: tuple[int | None, ...]) -> None:
    for card_id in row:
        if card_id is None:
            out.add()
        else:
            out.add(card_id=card_id)


def fill_market(out: RepeatedCompositeFieldContainer[state_pb2.MarketRow], market: Market) -> None:
    for row in market:
        _fill_slots(out.add().slots, row)


def _patch_market(out: state_pb2.GameState, old: Market, new: Market) -> None:
    if len(new) != len(old):
        del out.market[:]
        fill_market(out.market, new)
        return
    for index, row in enumerate(new):
        row_before = old[index]
        if row is not row_before:
            _update_row(out.market[index].slots, row_before, row)


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


# --- players ------------------------------------------------------------------------------------


def _read_players(msg: state_pb2.GameState) -> tuple[PlayerState, ...]:
    players = []
    for seat, player in enumerate(msg.players[:]):
        tokens = player.tokens
        bonuses = player.bonuses
        reserved_cards = player.reserved[:]
        reserved, blind = _reserved_from_proto(seat, reserved_cards) if reserved_cards else _NO_RESERVE
        players.append(
            new_player_state(
                tokens=(tokens.white, tokens.blue, tokens.green, tokens.red, tokens.black, tokens.gold),
                bonuses=(bonuses.white, bonuses.blue, bonuses.green, bonuses.red, bonuses.black),
                prestige=player.prestige,
                purchased=tuple(player.purchased_card_ids[:]),
                reserved=reserved,
                reserved_blind=blind,
                nobles=tuple(player.noble_ids[:]),
            )
        )
    return tuple(players)


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


def _write_players(out: state_pb2.GameState, players: tuple[PlayerState, ...]) -> None:
    out_players = out.players
    for player in players:
        fill_player(out_players.add(), player)


def fill_player(out: state_pb2.PlayerState, player: PlayerState) -> None:
    fill_tokens(out.tokens, player.tokens)
    fill_gems(out.bonuses, player.bonuses)
    out.prestige = player.prestige
    out.purchased_card_ids.extend(player.purchased)
    reserved = out.reserved
    for card_id, blind in zip(player.reserved, player.reserved_blind):
        reserved.add(card_id=card_id, deck=_DECK_OF[card_id], blind=blind)
    out.noble_ids.extend(player.nobles)


def _patch_players(out: state_pb2.GameState, old: tuple[PlayerState, ...], new: tuple[PlayerState, ...]) -> None:
    if len(new) != len(old):
        del out.players[:]
        _write_players(out, new)
        return
    for seat, player in enumerate(new):
        if player is not old[seat]:
            _patch_player(out.players[seat], old[seat], player)


def _patch_player(out: state_pb2.PlayerState, old: PlayerState, new: PlayerState) -> None:
    """One seat's fields that a move changed."""
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


# --- the turn: pending decision, end, ranking -----------------------------------------------------


def _read_pending(msg: state_pb2.GameState) -> PendingDecision | None:
    return pending_from_proto(msg.pending_decision) if msg.HasField("pending_decision") else None


def pending_from_proto(msg: state_pb2.PendingDecision) -> PendingDecision | None:
    kind = DECISION_KINDS.by_value.get(msg.kind)
    options = tuple(msg.options)
    colors = msg.colors
    if msg.kind == state_pb2.DECISION_KIND_UNSPECIFIED and not (msg.seat or msg.amount or options or colors):
        return None  # an empty message some clients send for "no decision"
    if kind is None:
        raise invalid_state("pending_decision.kind", f"unknown decision kind {msg.kind}")
    # Each kind uses one of amount/options/colors; the others must stay empty so the state is canonical.
    if kind.name == "RETURN_TOKENS":
        if options:
            raise invalid_state("pending_decision.options", "returning tokens has no options")
    elif msg.amount:
        raise invalid_state("pending_decision.amount", f"{kind.name} has no amount")
    if kind.colors:
        if options:
            raise invalid_state("pending_decision.options", "the colours of a gem choice are in colors")
        path = "pending_decision.colors"
        options = tuple([state_color(color, f"{path}[{index}]") for index, color in enumerate(colors)])
    elif colors:
        raise invalid_state("pending_decision.colors", f"{kind.name} has no colours")
    return PendingDecision(kind, msg.seat, msg.amount, options)


def fill_pending(out: state_pb2.PendingDecision, pending: PendingDecision) -> None:
    out.kind = decision_value(pending.kind)
    out.seat = pending.seat
    out.amount = pending.amount
    write_options(out, pending.kind, pending.options)


def _write_pending(out: state_pb2.GameState, pending: PendingDecision | None) -> None:
    if pending is not None:
        fill_pending(out.pending_decision, pending)


def _patch_pending(out: state_pb2.GameState, old: PendingDecision | None, new: PendingDecision | None) -> None:
    out.ClearField("pending_decision")  # also clears the empty message some clients send for "no decision"
    _write_pending(out, new)


def _read_end_reason(msg: state_pb2.GameState) -> Any:
    if not msg.end_reason:
        return None
    end_reason = END_REASONS.get(msg.end_reason)
    if end_reason is None:
        raise invalid_state("end_reason", f"unknown end reason {msg.end_reason}")
    return end_reason


def _write_end_reason(out: state_pb2.GameState, reason: Any) -> None:
    if reason is not None:
        out.end_reason = end_reason_to_proto(reason)


def _read_ranking(msg: state_pb2.GameState) -> tuple[Standing, ...]:
    ranking = msg.ranking
    return tuple([Standing(s.seat, s.place, s.prestige, s.purchased_cards) for s in ranking]) if ranking else ()


def fill_standings(out: RepeatedCompositeFieldContainer[state_pb2.Standing], ranking: tuple[Standing, ...]) -> None:
    for standing in ranking:
        out.add(
            seat=standing.seat,
            place=standing.place,
            prestige=standing.prestige,
            purchased_cards=standing.purchased_cards,
        )


def _patch_ranking(out: state_pb2.GameState, old: tuple[Standing, ...], new: tuple[Standing, ...]) -> None:
    del out.ranking[:]
    fill_standings(out.ranking, new)


# --- module states ------------------------------------------------------------------------------


class _ModuleFields:
    """The module state fields of GameState, from the registry (rebuilt when modules change)."""

    def __init__(self) -> None:
        self.fields: tuple[StateField, ...] = ()
        self.rebuild()
        registry.on_change(self.rebuild)

    def rebuild(self) -> None:
        self.fields = module_state_fields(state_pb2.GameState)


MODULE_FIELDS: Final = _ModuleFields()


def _read_module_states(msg: state_pb2.GameState) -> tuple[object, ...]:
    """The module states by slot; a state of a module not in play is refused.

    A missing state of a module in play is the module's ``validate`` to refuse.
    A base game costs one cheap presence test per module.
    """
    fields = MODULE_FIELDS.fields
    present = [field for field in fields if msg.HasField(field.name)]  # type: ignore[arg-type]
    if not present:
        return ()
    modules = _read_config(msg).modules
    states: list[object] = []
    for field in present:
        if field.module not in modules:
            raise invalid_state(
                field.name, f"the game does not play the {field.module} module: its state must be absent"
            )
        states += [None] * (field.slot + 1 - len(states))
        states[field.slot] = field.adapter.read(getattr(msg, field.name))
    while states and states[-1] is None:
        states.pop()
    return tuple(states)


def write_module_states(out: Any, states: tuple[object, ...]) -> None:
    """Write the module states present into an empty GameState or GameView."""
    if not states:
        return
    for field in MODULE_FIELDS.fields:
        value = states[field.slot] if field.slot < len(states) else None
        if value is not None:
            field.adapter.write(getattr(out, field.name), value)


def _patch_module_states(out: state_pb2.GameState, old: tuple[object, ...], new: tuple[object, ...]) -> None:
    """Rewrite the module states a move replaced (they are small: a whole rewrite is cheap)."""
    for field in MODULE_FIELDS.fields:
        before = old[field.slot] if field.slot < len(old) else None
        after = new[field.slot] if field.slot < len(new) else None
        if after is not before:
            out.ClearField(field.name)  # type: ignore[arg-type]
            if after is not None:
                field.adapter.write(getattr(out, field.name), after)


def _scalar(name: str) -> Field:
    return Field(
        lambda msg: getattr(msg, name),
        lambda out, value: setattr(out, name, value),
        lambda out, old, new: setattr(out, name, new),
    )


def _always(field: Field) -> Field:
    return field._replace(always=True)


def _ids(name: str) -> Field:
    return Field(
        lambda msg: tuple(getattr(msg, name)[:]),
        lambda out, value: getattr(out, name).extend(value),
        lambda out, old, new: _update_ids(getattr(out, name), old, new),
    )


# The table, by the core GameState's field names, in their order (checked below: the state is read positionally).
FIELDS: Final[dict[str, Field]] = {
    "config": Field(_read_config, lambda out, config: fill_config(out.config, config), _patch_config, always=True),
    "bank": Field(_read_bank, _write_bank, _patch_bank),
    "decks": Field(_read_decks, _write_decks, _patch_decks),
    "market": Field(_read_market, lambda out, market: fill_market(out.market, market), _patch_market),
    "nobles": _ids("noble_ids"),
    "players": Field(_read_players, _write_players, _patch_players),
    "first_seat": _scalar("first_seat"),
    "seat": _always(_scalar("seat")),
    "turn": _always(_scalar("turn")),
    "pending": Field(_read_pending, _write_pending, _patch_pending, always=True),
    "final_round": _scalar("final_round"),
    "passes_in_a_row": _always(_scalar("passes_in_a_row")),
    "end_reason": Field(
        _read_end_reason, _write_end_reason, lambda out, old, new: setattr(out, "end_reason", end_reason_to_proto(new))
    ),
    "ranking": Field(_read_ranking, lambda out, ranking: fill_standings(out.ranking, ranking), _patch_ranking),
    "module_states": Field(_read_module_states, write_module_states, _patch_module_states),
}
if tuple(FIELDS) != GameState._fields:
    raise TypeError("codec.state.FIELDS must name every GameState field, in the record's order")
_READERS: Final = tuple(field.read for field in FIELDS.values())
_PATCHES: Final = tuple((index, field.patch, field.always) for index, field in enumerate(FIELDS.values()))


def _write_derived(out: state_pb2.GameState, state: GameState) -> None:
    """The output-only fields: whatever came in is overwritten."""
    out.round = state.turn // state.config.num_players
    winners = out.winners
    if winners or state.ranking:
        del winners[:]
        winners.extend(state.winners)


def state_from_proto(msg: state_pb2.GameState) -> GameState:
    """The core state of an incoming message, checked with ``check_bounds`` and ``validate_state``.

    Every message is checked, an opened token's too (a leaked key must not let a forger crash a
    handler); the API skips the call for bytes it has checked before (``api/state_memo.py``).
    """
    check_bounds(msg)
    # Positional, from the readers in the record's field order (FIELDS is checked against it at import).
    state = tuple.__new__(GameState, [read(msg) for read in _READERS])
    try:
        validate_state(state)
    except RuleViolation as violation:
        pending = state.pending
        if pending is not None and pending.kind.colors:
            _point_at_colors(violation)
        raise
    return state


def _point_at_colors(violation: RuleViolation) -> None:
    """The core names a colour decision's colours ``options``; the contract carries them in ``colors``."""
    if violation.details.get("field") in ("pending.options", "pending_decision.options"):
        violation.details["field"] = "pending_decision.colors"


def state_to_proto(state: GameState) -> state_pb2.GameState:
    out = state_pb2.GameState()
    fill_state(out, state)
    return out


def fill_state(out: state_pb2.GameState, state: GameState) -> None:
    """Write ``state`` into an empty message."""
    for field, value in zip(FIELDS.values(), state):
        field.write(out, value)
    _write_derived(out, state)


def update_state(out: state_pb2.GameState, old: GameState, new: GameState, *, has_unknown: bool = True) -> None:
    """Turn ``out``, a copy of the message ``old`` was read from, into the message of ``new``.

    Much cheaper than ``fill_state`` after one action: only the fields the move
    replaced are patched, and within them only the changed slots, counts and list
    ends. Input is canonical once read (``state_from_proto`` refuses what it could
    not write back identically), except for the fields patched always.
    ``has_unknown=False``: the caller knows ``out`` carries no unknown fields (the service
    wrote it), which spares a walk over the whole message to drop them.
    """
    if has_unknown:
        out.DiscardUnknownFields()
    for index, patch, always in _PATCHES:
        after = new[index]
        if always or after is not old[index]:
            patch(out, old[index], after)
    _write_derived(out, new)
