"""ApplyAction's audiences: the game after the move and its events as each listed seat (or a spectator) may see
them, so a platform that shows a move to every player makes one call.

Each audience is checked before the move is applied, as a GetPlayerView for it would be: a seat in the game,
listed once, and in sealed mode that seat's key (``seat_access.py``, the field at fault ``audiences[i]...``).
Each view is what GetPlayerView answers for that audience about the new game, its events the move's redacted
for it (``view_for`` and ``events_for`` through the same codec), and the legal actions of the seat that must act
next what ListLegalActions lists for it: tests/server/test_platform_calls.py checks all three, and the
non-interference suite that they depend on nothing the audience cannot see.
"""

from __future__ import annotations

from collections.abc import Sequence

from splendor.v1 import engine_service_pb2, state_pb2

from engine_service.codec import fill_events, fill_view_of_state
from engine_service.rules import Event, GameState, action_id, events_for, legal_actions

from .call import Call
from .errors import INVALID_SEAT, refusal
from .handlers import LEGAL_ACTIONS
from .sealed import acting_seat_of
from .seat_access import require_seat_key
from .source import Game, check_seat


def audiences_of(request: engine_service_pb2.ApplyActionRequest, game: Game, call: Call) -> list[int | None]:
    """The request's audiences as seats (None: a spectator), each checked and, when sealed, its key too."""
    audiences: list[int | None] = []
    num_players = game.state.config.num_players
    for index, audience in enumerate(request.audiences):
        seat = audience.seat if audience.HasField("seat") else None
        field = f"audiences[{index}]"
        check_seat(seat, num_players, field=f"{field}.seat")
        if seat in audiences:
            who = "the spectator" if seat is None else f"seat {seat}"
            message = f"{field} lists {who} again: list each audience once"
            raise refusal(INVALID_SEAT, message, field=field, metadata={"num_players": str(num_players)})
        require_seat_key(game, seat, audience.seat_key, call, field=f"{field}.seat_key")
        audiences.append(seat)
    return audiences


def fill_audience_views(
    response: engine_service_pb2.ApplyActionResponse,
    audiences: Sequence[int | None],
    state: GameState,
    msg: state_pb2.GameState,
    events: tuple[Event, ...],
) -> None:
    """One view of ``state`` (``msg``: the service's own message of it) and of ``events`` per audience, and the
    legal actions of the audience that must act next."""
    acting = acting_seat_of(state)
    for seat in audiences:
        out = response.audience_views.add()
        if seat is not None:
            out.seat = seat
        fill_view_of_state(out.view, msg, state, seat)
        fill_events(out.events, events_for(events, seat))
        if seat is not None and seat == acting:
            out.legal_actions.extend(LEGAL_ACTIONS[action_id(action)] for action in legal_actions(state))
