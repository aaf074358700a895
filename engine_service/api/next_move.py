"""What ApplyAction adds for a bot loop: the move applied, who acts next, their legal actions, view and observation.

Plain mode (a trusted caller): everything for the seat that must act next, or the observation
of the seat the request names (``observation_seat``: any seat, the game over included). Sealed
mode: the view and observation are the request's seat's (``viewer``), and the legal actions only
when that seat is the one that must act: another seat's options would reveal its hidden
cards (which blind reserves it can afford).
"""

from __future__ import annotations

from typing import Final

from splendor.v1 import actions_pb2, engine_service_pb2

from engine_service.codec import fill_observation, fill_view_of_state
from engine_service.codec.wire import entry, tag, varint
from engine_service.rules import (
    Action,
    GameState,
    action_id,
    legal_actions,
)

from .errors import INVALID_SEAT, refusal
from .handlers import LEGAL_ACTIONS
from .sealed import acting_seat_of
from .source import Game, check_seat

# Every legal action as its entry of ApplyActionResponse.legal_actions, in wire bytes: a position's list is
# one merge (codec/wire.py), not a copy of each message.
_LEGAL_ENTRIES: Final = tuple(
    entry(tag(engine_service_pb2.ApplyActionResponse, "legal_actions"), action.SerializeToString())
    for action in LEGAL_ACTIONS
)
# The tag of ApplyActionResponse.legal_action_ids (packed) and each id as its varint: a position's ids are one merge.
_IDS_TAG: Final = tag(engine_service_pb2.ApplyActionResponse, "legal_action_ids")
_ID_VARINTS: Final = tuple(varint(action.action_id) for action in LEGAL_ACTIONS)


def fill_applied(out: actions_pb2.LegalAction, action: Action, sent: actions_pb2.Action | None) -> None:
    """The action applied with its id; ``sent``: the request's own action (keeps an explicit payment)."""
    value = action_id(action)
    if sent is None or sent.WhichOneof("kind") == "action_id":
        out.CopyFrom(LEGAL_ACTIONS[value])
    else:
        out.action_id = value
        out.action.CopyFrom(sent)


def observed_seat(request: engine_service_pb2.ApplyActionRequest, game: Game, seat: int | None) -> int | None:
    """The seat ``observation_seat`` names (None: not set), checked: a seat of the game, and with a sealed state the
    request's own seat (the only one a sealed request observes)."""
    if not request.HasField("observation_seat"):
        return None
    observed = request.observation_seat
    if game.sealed and observed != seat:
        message = "a sealed request observes its own seat: set observation_seat to the request's seat, or leave it out"
        metadata = {"observation_seat": str(observed)}
        raise refusal(INVALID_SEAT, message, field="observation_seat", metadata=metadata)
    check_seat(observed, game.state.config.num_players, field="observation_seat")
    return observed


def fill_next_move(
    response: engine_service_pb2.ApplyActionResponse,
    state: GameState,
    *,
    legal: bool,
    observation: bool,
    sealed: bool = False,
    viewer: int | None = None,
    ids: bool = False,
    observed: int | None = None,
    view: bool = True,
    legal_ids: bool = False,
) -> None:
    """Fill ``acting_seat`` and, as asked, ``legal_actions`` (``legal_action_ids`` with ``legal_ids``), ``view`` and
    ``observation`` for ``state`` (with ``ids``, the observation's legal actions as ids, not flags).

    ``sealed``: the response is for ``viewer`` (a seat, or None for a spectator) and its
    view is filled by the caller; otherwise ``response.state`` already holds ``state``, the
    view is filled unless ``view`` is False, and ``observed`` (a seat) is observed instead of
    the seat that must act, whichever must act and once the game is over too.
    """
    acting = acting_seat_of(state)
    if acting is not None:
        response.acting_seat = acting
    seat = viewer if sealed else acting
    if (legal or legal_ids) and acting is not None and seat == acting:
        choices = [action_id(action) for action in legal_actions(state)]
        if legal:
            response.MergeFromString(b"".join([_LEGAL_ENTRIES[value] for value in choices]))
        if legal_ids:
            response.MergeFromString(entry(_IDS_TAG, b"".join([_ID_VARINTS[value] for value in choices])))
    if not sealed and view and (legal or legal_ids or observation):
        fill_view_of_state(response.view, response.state, state, seat)
    if observed is not None:
        seat = observed
    if observation and seat is not None:
        fill_observation(response.observation, state, seat, ids=ids)
