"""The Orient module's part of the game state."""

from __future__ import annotations

from typing import Final, NamedTuple

from ...module_state import ModuleStateSlot, with_slot
from ...state import GameState, PendingDecision, PlayerState


class OrientState(NamedTuple):
    """What the Orient cards changed beyond the base holdings."""

    pairs: tuple[tuple[tuple[int, int], ...], ...]  # per seat, (paired card, the owned card it is attached to)
    reserved_nobles: tuple[tuple[int, ...], ...]  # per seat, nobles only that seat can be visited by
    discarded: tuple[tuple[int, ...], ...]  # per seat, its cards back in the box: spent gold cards, sacrificed cards


STATE: Final = ModuleStateSlot(3, OrientState, "orient", "an Orient game must carry its Orient state")


def with_orient(
    state: GameState,
    players: tuple[PlayerState, ...],
    orient: OrientState,
    pending: PendingDecision | None,
    nobles: tuple[int, ...] | None = None,
) -> GameState:
    """``state`` with the players, the Orient state, the pending decision (and the nobles) replaced, in one call.

    What the Orient's setup, abilities, discards and noble reservations change, spelt out as ``state.py``'s
    ``with_*`` transitions are (``records.py``, "Building records").
    """
    s = state
    nobles = s.nobles if nobles is None else nobles
    return tuple.__new__(GameState, (
        s.config, s.bank, s.decks, s.market, nobles, players, s.first_seat, s.seat, s.turn, pending,
        s.final_round, s.passes_in_a_row, s.end_reason, s.ranking, with_slot(s.module_states, STATE.index, orient),
    ))  # fmt: skip


def new_orient_state(
    *,
    pairs: tuple[tuple[tuple[int, int], ...], ...],
    reserved_nobles: tuple[tuple[int, ...], ...],
    discarded: tuple[tuple[int, ...], ...],
) -> OrientState:
    """An ``OrientState`` (see ``engine_service/rules/records.py``, "Building records")."""
    return tuple.__new__(OrientState, (pairs, reserved_nobles, discarded))
