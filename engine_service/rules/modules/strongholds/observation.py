"""The Strongholds' slices of the observation vector: each seat's strongholds on the face-up cards."""

from __future__ import annotations

from ...market import MARKET_SLOTS
from ...observation import BASE_DECKS, ObservationPart, register_part, seat_order
from ...views import GameView
from .rules import NAME, STRONGHOLDS_PER_PLAYER
from .state import STATE, StrongholdsState

SLOTS = BASE_DECKS * MARKET_SLOTS


def _slices(num_players: int) -> list[tuple[str, int, str]]:
    return [
        (
            "strongholds",
            num_players * (SLOTS + 1),
            "per seat (seat-relative): its strongholds on each face-up slot (row by row), then those in its supply",
        )
    ]


def _encode(view: GameView, seat: int) -> list[float]:
    own = view.module_states[STATE.index]
    assert isinstance(own, StrongholdsState)
    cards = [card for row in view.market[:BASE_DECKS] for card in row]
    cards += [None] * (SLOTS - len(cards))
    out: list[float] = []
    for other in seat_order(seat, view.num_players):
        placed = own.placed[other]
        out += [float(placed.count(card)) if card is not None else 0.0 for card in cards[:SLOTS]]
        out.append(STRONGHOLDS_PER_PLAYER - len(placed))
    return out


register_part(NAME, ObservationPart(_slices, _encode))
