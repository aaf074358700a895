"""The Trading Posts' slices of the observation vector: each seat's shields on the five posts."""

from __future__ import annotations

from typing import Final

from ...observation import ObservationPart, register_part, seat_order
from ...views import GameView
from .rules import NAME
from .state import STATE, TradingPostsState

POSTS: Final = 5


def _slices(num_players: int) -> list[tuple[str, int, str]]:
    return [("shields", num_players * POSTS, "per seat (seat-relative), a flag per post 0-4 holding its shield")]


def _encode(view: GameView, seat: int) -> list[float]:
    own = view.module_states[STATE.index]
    assert isinstance(own, TradingPostsState)
    out: list[float] = []
    for other in seat_order(seat, view.num_players):
        out += [float(post in own.shields[other]) for post in range(POSTS)]
    return out


register_part(NAME, ObservationPart(_slices, _encode))
