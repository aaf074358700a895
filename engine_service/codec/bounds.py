"""Bounds of an incoming state, checked before it is read: counters that must still advance and
list lengths no game reaches, refused as INVALID_STATE naming the field.

``validate_state`` checks that a state is a game; this runs first so that an oversized list is
refused before it is copied, and a counter at the top of its protobuf type is refused before a
move tries to write it one higher (``turn`` + 1 must still be a uint32).
"""

from __future__ import annotations

from typing import Final

from splendor.v1 import state_pb2

from engine_service.rules import CARDS, MARKET_SLOTS, MAX_DECKS, NOBLES
from engine_service.rules.config import MAX_PLAYERS

from .common import invalid_state

UINT32_MAX: Final = 2**32 - 1
# The last turn a state may be at: a move writes turn + 1, which must fit a uint32.
MAX_TURN: Final = UINT32_MAX - 1
_CARD_COUNT: Final = len(CARDS)
_NOBLE_COUNT: Final = len(NOBLES)
_SEATS: Final = MAX_PLAYERS


def check_bounds(msg: state_pb2.GameState) -> None:
    """Refuse a state whose counters or lists are out of any game's range (cheap: lengths only)."""
    if msg.turn > MAX_TURN:
        raise invalid_state("turn", f"turn {msg.turn} cannot advance: a turn is at most {MAX_TURN}")
    players = msg.players
    if len(players) > _SEATS:
        raise invalid_state("players", f"{len(players)} players: a game has at most {_SEATS}")
    # The lengths compared first, the field named only for a state out of range: naming each one
    # on every call cost more than the comparisons.
    pending = msg.pending_decision
    lengths = [
        len(msg.decks) - MAX_DECKS,
        len(msg.market) - MAX_DECKS,
        len(msg.noble_ids) - _NOBLE_COUNT,
        len(msg.ranking) - _SEATS,
        len(msg.winners) - _SEATS,
        len(pending.options) - _CARD_COUNT,
        len(pending.colors) - _CARD_COUNT,
    ]
    lengths += [len(deck.card_ids) - _CARD_COUNT for deck in msg.decks]
    lengths += [len(row.slots) - MARKET_SLOTS for row in msg.market]
    for player in players:
        lengths += (
            len(player.purchased_card_ids) - _CARD_COUNT,
            len(player.reserved) - _CARD_COUNT,
            len(player.noble_ids) - _NOBLE_COUNT,
        )
    if max(lengths) > 0:
        _refuse_lists(msg)


def _refuse_lists(msg: state_pb2.GameState) -> None:
    """The refusal of the first list of ``msg`` longer than any game's."""
    _at_most(len(msg.decks), MAX_DECKS, "decks")
    _at_most(len(msg.market), MAX_DECKS, "market")
    for index, deck in enumerate(msg.decks):
        _at_most(len(deck.card_ids), _CARD_COUNT, f"decks[{index}].card_ids")
    for index, row in enumerate(msg.market):
        _at_most(len(row.slots), MARKET_SLOTS, f"market[{index}]")
    _at_most(len(msg.noble_ids), _NOBLE_COUNT, "noble_ids")
    for seat, player in enumerate(msg.players):
        _at_most(len(player.purchased_card_ids), _CARD_COUNT, f"players[{seat}].purchased_card_ids")
        _at_most(len(player.reserved), _CARD_COUNT, f"players[{seat}].reserved")
        _at_most(len(player.noble_ids), _NOBLE_COUNT, f"players[{seat}].noble_ids")
    _at_most(len(msg.ranking), _SEATS, "ranking")
    _at_most(len(msg.winners), _SEATS, "winners")
    pending = msg.pending_decision
    _at_most(len(pending.options), _CARD_COUNT, "pending_decision.options")
    _at_most(len(pending.colors), _CARD_COUNT, "pending_decision.colors")
    raise AssertionError("no list out of range")


def _at_most(length: int, bound: int, field: str) -> None:
    if length > bound:
        raise invalid_state(field, f"{length} entries: no game has more than {bound}")
