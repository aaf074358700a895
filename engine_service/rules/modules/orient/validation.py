"""Checks of the Orient module's part of a state sent by a client."""

from __future__ import annotations

from typing import Final

from ...catalog import CardKind, is_known_noble
from ...state import GameState
from .cards import BONUS, IS_PAIRED, KIND, face_up, orient_of, partners
from .decisions import PAIR_CARD, RESERVE_NOBLE, TAKE_FREE_CARD
from .rules import fail
from .state import OrientState


def validate(state: GameState) -> None:
    """A client's Orient state: pairs, nobles in one place each, and a pending decision the rules could ask."""
    orient = orient_of(state)
    num_players = state.config.num_players
    for name, per_seat in zip(OrientState._fields, orient):
        if len(per_seat) != num_players:
            raise fail(f"orient.{name}", "one entry per seat")
    pending = state.pending
    for seat, player in enumerate(state.players):
        paired = [card for card, _ in orient.pairs[seat]]
        if len(set(paired)) != len(paired):
            raise fail("orient.pairs", "a card is paired twice")
        owned = set(player.purchased)
        for card, partner in orient.pairs[seat]:
            if card not in owned or partner not in owned:
                raise fail("orient.pairs", f"seat {seat} pairs cards it does not own")
            if not IS_PAIRED[card] or BONUS[partner] is None:
                raise fail("orient.pairs", f"card {card} cannot be paired with card {partner}")
        being_paired = None
        if pending is not None and pending.kind == PAIR_CARD and pending.seat == seat:
            being_paired = player.purchased[-1] if player.purchased else None
        unpaired = [card for card in player.purchased if IS_PAIRED[card] and card not in paired]
        if unpaired and unpaired != [being_paired]:
            raise fail("orient.pairs", f"card {unpaired[0]} of seat {seat} is not paired")
    _check_nobles(state)
    if pending is not None and pending.kind in _OPTIONS:
        _check_pending(state)


def _check_nobles(state: GameState) -> None:
    orient = orient_of(state)
    everywhere = list(state.nobles) + [noble for player in state.players for noble in player.nobles]
    everywhere += [noble for nobles in orient.reserved_nobles for noble in nobles]
    if not all(is_known_noble(noble) for noble in everywhere):
        raise fail("orient.reserved_nobles", "unknown noble id")
    if len(set(everywhere)) != len(everywhere):
        raise fail("orient.reserved_nobles", "a noble is in two places")
    if len(everywhere) > state.config.num_players + 1:
        raise fail("orient.reserved_nobles", "more nobles than the game deals")


def _pair_options(state: GameState, seat: int) -> tuple[int, ...] | None:
    purchased = state.players[seat].purchased
    return partners(purchased) if purchased and IS_PAIRED[purchased[-1]] else None


def _free_card_options(state: GameState, seat: int) -> tuple[int, ...] | None:
    purchased = state.players[seat].purchased
    kind = KIND[purchased[-1]] if purchased else None
    if kind is CardKind.TAKE_LEVEL2:
        return face_up(state, 2)
    if kind is CardKind.PAIRED_TAKE_LEVEL1 and purchased[-1] in dict(orient_of(state).pairs[seat]):
        return face_up(state, 1)
    return None


def _noble_options(state: GameState, seat: int) -> tuple[int, ...] | None:
    purchased = state.players[seat].purchased
    return state.nobles if purchased and KIND[purchased[-1]] is CardKind.RESERVE_NOBLE else None


# Per decision, the options the rules offer, or None when the seat's last card asks no such decision.
_OPTIONS: Final = {
    PAIR_CARD: _pair_options,
    TAKE_FREE_CARD: _free_card_options,
    RESERVE_NOBLE: _noble_options,
}


def _check_pending(state: GameState) -> None:
    pending = state.pending
    assert pending is not None
    expected = _OPTIONS[pending.kind](state, pending.seat)
    if expected is None:
        raise fail("pending.kind", f"the seat's last acquired card asks no {pending.kind.name} decision")
    options = pending.options
    if len(options) < 2 or len(set(options)) != len(options) or set(options) != set(expected) or pending.amount:
        raise fail("pending.options", f"the {pending.kind.name} options must be the two or more the rules offer")
