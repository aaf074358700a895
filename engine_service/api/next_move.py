"""What ApplyAction adds for a bot loop: the move applied, who acts next, their legal actions, view and observation.

Plain mode (a trusted caller): everything for the seat that must act next. Sealed mode:
the view and observation are the request's seat's (``viewer``), and the legal actions only
when that seat is the one that must act: another seat's options would reveal its hidden
cards (which blind reserves it can afford).
"""

from __future__ import annotations

from typing import Final

from splendor.v1 import actions_pb2, engine_service_pb2

from engine_service.codec import fill_observation, fill_view_of_state
from engine_service.codec.wire import entry, tag
from engine_service.rules import (
    Action,
    GameState,
    action_id,
    legal_actions,
)

from .handlers import LEGAL_ACTIONS
from .sealed import acting_seat_of

# Every legal action as its entry of ApplyActionResponse.legal_actions, in wire bytes: a position's list is
# one merge (codec/wire.py), not a copy of each message.
_LEGAL_ENTRIES: Final = tuple(
    entry(tag(engine_service_pb2.ApplyActionResponse, "legal_actions"), action.SerializeToString())
    for action in LEGAL_ACTIONS
)


def fill_applied(out: actions_pb2.LegalAction, action: Action, sent: actions_pb2.Action | None) -> None:
    """The action applied with its id; ``sent``: the request's own action (keeps an explicit payment)."""
    value = action_id(action)
    if sent is None or sent.WhichOneof("kind") == "action_id":
        out.CopyFrom(LEGAL_ACTIONS[value])
    else:
        out.action_id = value
        out.action.CopyFrom(sent)


def fill_next_move(
    response: engine_service_pb2.ApplyActionResponse,
    state: GameState,
    *,
    legal: bool,
    observation: bool,
    sealed: bool = False,
    viewer: int | None = None,
    ids: bool = False,
) -> None:
    """Fill ``acting_seat`` and, as asked, ``legal_actions``, ``view`` and ``observation`` for ``state`` (with
    ``ids``, the observation's legal actions as ids, not flags).

    ``sealed``: the response is for ``viewer`` (a seat, or None for a spectator) and its
    view is filled by the caller; otherwise ``response.state`` already holds ``state``.
    """
    acting = acting_seat_of(state)
    if acting is not None:
        response.acting_seat = acting
    seat = viewer if sealed else acting
    if legal and acting is not None and seat == acting:
        response.MergeFromString(b"".join([_LEGAL_ENTRIES[action_id(action)] for action in legal_actions(state)]))
    if not sealed and (legal or observation):
        fill_view_of_state(response.view, response.state, state, seat)
    if observation and seat is not None:
        fill_observation(response.observation, state, seat, ids=ids)
