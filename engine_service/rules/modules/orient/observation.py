"""The Orient's slices of the observation vector: each seat's paired cards, reserved nobles and discards."""

from __future__ import annotations

from ...observation import ObservationPart, register_part, seat_order
from ...views import GameView
from .rules import NAME
from .state import STATE, OrientState


def _slices(num_players: int) -> list[tuple[str, int, str]]:
    return [("holdings", num_players * 3, "per seat (seat-relative): paired cards, reserved nobles, discarded cards")]


def _encode(view: GameView, seat: int) -> list[float]:
    own = view.module_states[STATE.index]
    assert isinstance(own, OrientState)
    out: list[float] = []
    for other in seat_order(seat, view.num_players):
        out += [len(own.pairs[other]), len(own.reserved_nobles[other]), len(own.discarded[other])]
    return out


register_part(NAME, ObservationPart(_slices, _encode))
