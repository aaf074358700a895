"""Checks of the Strongholds module's part of a state sent by a client."""

from __future__ import annotations

from ...errors import Reason, RuleViolation
from ...state import GameState
from .decisions import PLACE_STRONGHOLD
from .rules import (
    BASE_ROWS,
    STRONGHOLD_STEP,
    STRONGHOLDS_PER_PLAYER,
    conquerable,
    placed_of,
    placement_answers,
    placement_options,
)


def _invalid(field: str, message: str) -> RuleViolation:
    return RuleViolation(Reason.INVALID_STATE, message, field=field)


def validate(state: GameState) -> None:
    """A client's Strongholds state: at most three per seat, on face-up base cards, one seat per card."""
    placed = placed_of(state)
    if len(placed) != state.config.num_players:
        raise _invalid("strongholds.placed", "one tuple of placed strongholds per seat")
    face_up = {card for row in state.market[:BASE_ROWS] for card in row if card is not None}
    owners: dict[int, int] = {}
    for seat, cards in enumerate(placed):
        field = f"strongholds.placed[{seat}]"
        if len(cards) > STRONGHOLDS_PER_PLAYER:
            raise _invalid(field, f"a seat has {STRONGHOLDS_PER_PLAYER} strongholds")
        for card_id in cards:
            if card_id not in face_up:
                raise _invalid(field, f"a stronghold stands on card {card_id}, which is not a face-up base card")
            if owners.setdefault(card_id, seat) != seat:
                raise _invalid(field, f"card {card_id} holds strongholds of two seats")
    pending = state.pending
    if pending is None or pending.kind not in STRONGHOLD_STEP.decisions:
        return
    if pending.seat != state.seat:
        raise _invalid("pending_decision.seat", "only the acting seat places strongholds or conquers")
    if pending.kind is PLACE_STRONGHOLD:
        if pending.options != placement_options(state, pending.seat) or len(placement_answers(state, pending.seat)) < 2:
            raise _invalid(
                "pending_decision.options",
                "the placement options must be the cards a stronghold may go to, with two or more answers",
            )
        return
    conquest = conquerable(state, pending.seat)
    if conquest is None or pending.options != (conquest,):
        raise _invalid(
            "pending_decision.options", "the conquest option must be the affordable card under all three strongholds"
        )
    if any(None in row and pile for row, pile in zip(state.market, state.decks)):
        raise _invalid("market", "the conquest is offered once the market is refilled")
