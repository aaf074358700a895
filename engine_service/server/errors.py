"""Refusals as rich gRPC errors (google.rpc.Status with ErrorInfo and BadRequest details).

Every refusal carries a ``google.rpc.ErrorInfo`` with ``domain="splendor.v1"`` and
``reason`` = the ``RejectionReason`` name without its prefix (for core refusals, the
name of the core ``Reason``: the two are matched by name, never by number). Its
metadata holds short strings: ``acting_seat`` and ``turn`` when a valid state is
known, ``action_index`` in ReplayGame, and the ``RuleViolation.details``. When a
request field is at fault a ``google.rpc.BadRequest`` names it with a proto path,
e.g. ``state.players[1].tokens`` or ``action.take_gems.colors``.

| gRPC code           | reasons |
|---------------------|---------|
| INVALID_ARGUMENT    | INVALID_PLAYER_COUNT, INVALID_SEED, INVALID_FIRST_SEAT, INVALID_TURN_LIMIT, UNKNOWN_MODULE, |
|                     | MODULE_COMBINATION_NOT_SUPPORTED (bad config); INVALID_STATE (malformed or impossible state, |
|                     | missing state, malformed events); UNKNOWN_ACTION (empty action, bad action id); INVALID_COLOR |
|                     | (unspecified or unknown colour); INVALID_SEAT (GetPlayerView seat not in the game) |
| FAILED_PRECONDITION | every other reason: a well-formed move the rules refuse in this position (GAME_OVER, |
|                     | NOT_YOUR_TURN, PILE_BELOW_FOUR, ...), and STALE_STATE (expected_turn differs from the turn) |
| INTERNAL            | a bug in the service; logged, no details |

Field paths for rule refusals of an action (FAILED_PRECONDITION) point at the part
of the action at fault (``_ACTION_FIELDS``); a refusal of the whole move
(RESERVE_LIMIT, GAME_OVER...) has no BadRequest.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2  # type: ignore[import-untyped]
from grpc_status import rpc_status

from engine_service.rules import GameState, Reason, RuleViolation

DOMAIN: Final = "splendor.v1"
# Reasons the service adds to the core's (see errors.proto).
STALE_STATE: Final = "STALE_STATE"
INVALID_SEAT: Final = "INVALID_SEAT"

INVALID_ARGUMENT_REASONS: Final = frozenset(
    {
        Reason.INVALID_PLAYER_COUNT.name,
        Reason.INVALID_SEED.name,
        Reason.INVALID_FIRST_SEAT.name,
        Reason.INVALID_TURN_LIMIT.name,
        Reason.UNKNOWN_MODULE.name,
        Reason.MODULE_COMBINATION_NOT_SUPPORTED.name,
        Reason.INVALID_STATE.name,
        Reason.UNKNOWN_ACTION.name,
        Reason.INVALID_COLOR.name,
        INVALID_SEAT,
    }
)

# Config refusals carry no field in the core; these are relative to the message holding ``config``.
_CONFIG_FIELDS: Final[dict[Reason, str]] = {
    Reason.INVALID_PLAYER_COUNT: "config.num_players",
    Reason.INVALID_SEED: "config.seed",
    Reason.INVALID_FIRST_SEAT: "config.first_seat",
    Reason.INVALID_TURN_LIMIT: "config.turn_limit",
    Reason.UNKNOWN_MODULE: "config.modules",
    Reason.MODULE_COMBINATION_NOT_SUPPORTED: "config.modules",
}

# The card id of every action kind that names a card.
_CARD_FIELDS: Final[dict[str, str]] = {
    kind: f"{kind}.card_id"
    for kind in (
        "reserve_card",
        "purchase_card",
        "place_stronghold",
        "remove_stronghold",
        "pair_card",
        "take_free_card",
    )
}

# The part of an action a rule refusal points at, by action kind (the Action oneof field).
# A kind missing from a reason's table points at the whole action of that kind.
_ACTION_FIELDS: Final[dict[Reason, dict[str, str]]] = {
    **{
        reason: {"take_gems": "take_gems.colors", "take_two_gems": "take_two_gems.color", "take_gem": "take_gem.color"}
        for reason in (
            Reason.INVALID_COLOR,
            Reason.GOLD_NOT_TAKEABLE,
            Reason.DUPLICATE_COLOR,
            Reason.TOO_MANY_COLORS,
            Reason.TOO_FEW_COLORS,
            Reason.NOT_ENOUGH_IN_BANK,
            Reason.PILE_BELOW_FOUR,
            Reason.GEM_NOT_AVAILABLE,
        )
    },
    Reason.UNKNOWN_DECK: {"reserve_from_deck": "reserve_from_deck.deck"},
    Reason.DECK_EMPTY: {"reserve_from_deck": "reserve_from_deck.deck"},
    Reason.UNKNOWN_CARD: _CARD_FIELDS,
    Reason.CARD_NOT_AVAILABLE: _CARD_FIELDS,
    Reason.CARD_OCCUPIED: _CARD_FIELDS,
    Reason.CANNOT_AFFORD: {"purchase_card": "purchase_card.card_id"},
    Reason.PAYMENT_INVALID: {"purchase_card": "purchase_card.payment"},
    Reason.RETURN_WRONG_AMOUNT: {"return_tokens": "return_tokens.tokens"},
    Reason.RETURN_NOT_HELD: {"return_tokens": "return_tokens.tokens"},
    Reason.NOBLE_NOT_AVAILABLE: {"choose_noble": "choose_noble.noble_id", "reserve_noble": "reserve_noble.noble_id"},
    Reason.CITY_NOT_AVAILABLE: {"choose_city": "choose_city.city_id"},
    Reason.PAIRING_NOT_POSSIBLE: {"purchase_card": "purchase_card.card_id", "pair_card": "pair_card.card_id"},
    Reason.CARDS_SPENT_INVALID: {"purchase_card": "purchase_card.cards_spent"},
    # Refused as a whole: the card or the card a stronghold moves from; the card or the cards
    # listed to sacrifice (too few, or not the paired ones first).
    Reason.STRONGHOLD_NOT_ALLOWED: {},
    Reason.SACRIFICE_NOT_POSSIBLE: {},
    # The kind of action itself is wrong for the position.
    Reason.DECISION_PENDING: {},
    Reason.NO_DECISION_PENDING: {},
    Reason.PASS_NOT_ALLOWED: {},
}

# Core field names that differ from the proto ones (first path segment only).
_PROTO_NAMES: Final[dict[str, str]] = {"nobles": "noble_ids", "pending": "pending_decision"}


class Rejected(Exception):
    """A refusal ready to be sent; raised inside handlers, turned into the call's status by the servicer."""

    def __init__(self, status: grpc.Status) -> None:
        super().__init__(status.details)
        self.status = status


def join(prefix: str, field: str) -> str:
    """``state`` + ``players[1]`` -> ``state.players[1]``; either part may be empty."""
    if not prefix:
        return field
    return f"{prefix}.{field}" if field else prefix


def proto_field(core_field: str) -> str:
    """A core field path in proto names (``pending.seat`` -> ``pending_decision.seat``)."""
    head, dot, rest = core_field.partition(".")
    name, bracket, index = head.partition("[")
    return _PROTO_NAMES.get(name, name) + bracket + index + dot + rest


def rejection(
    violation: RuleViolation,
    *,
    prefix: str = "",
    state: GameState | None = None,
    action_kind: str | None = None,
    field: str | None = None,
    metadata: Mapping[str, str] | None = None,
) -> Rejected:
    """The error for a core refusal.

    ``prefix`` is the request path of the message that was converted or checked
    (``state``, ``action``, ``actions[3]``); a ``field`` in the violation's details
    is relative to it. ``state`` is the valid state the request was checked
    against, for ``acting_seat`` and ``turn``. ``field`` overrides the path.
    """
    details = dict(violation.details)
    core_field = details.pop("field", None)
    if field is None:
        field = _field_path(violation.reason, core_field, prefix, action_kind)
    info = {key: str(value) for key, value in details.items()}
    if state is not None:
        info["acting_seat"] = str(state.acting_seat)
        info["turn"] = str(state.turn)
    if metadata:
        info.update(metadata)
    return Rejected(error_status(violation.reason.name, violation.message, field=field, metadata=info))


def _field_path(reason: Reason, core_field: str | None, prefix: str, action_kind: str | None) -> str | None:
    if core_field is not None:
        return join(prefix, proto_field(core_field))
    if reason in _CONFIG_FIELDS:
        return join(prefix, _CONFIG_FIELDS[reason])
    if action_kind is not None and reason in _ACTION_FIELDS:
        if action_kind == "action_id":
            return join(prefix, "action_id")
        return join(prefix, _ACTION_FIELDS[reason].get(action_kind, action_kind))
    return None


def error_status(
    reason: str, message: str, *, field: str | None = None, metadata: Mapping[str, str] | None = None
) -> grpc.Status:
    """A ``grpc.Status`` with ErrorInfo (and BadRequest when ``field`` is given)."""
    invalid = reason in INVALID_ARGUMENT_REASONS
    code = code_pb2.INVALID_ARGUMENT if invalid else code_pb2.FAILED_PRECONDITION
    info = error_details_pb2.ErrorInfo(reason=reason, domain=DOMAIN, metadata=dict(metadata or {}))
    details = [_pack(info)]
    if field is not None:
        violation = error_details_pb2.BadRequest.FieldViolation(field=field, description=message)
        details.append(_pack(error_details_pb2.BadRequest(field_violations=[violation])))
    return rpc_status.to_status(status_pb2.Status(code=code, message=message, details=details))


def internal_status() -> grpc.Status:
    """For bugs: no details, the log has them."""
    return rpc_status.to_status(status_pb2.Status(code=code_pb2.INTERNAL, message="internal error"))


def abandoned_status(deadline_passed: bool) -> grpc.Status:
    """For a call whose client stopped waiting (deadline or cancellation): work stops early."""
    code = code_pb2.DEADLINE_EXCEEDED if deadline_passed else code_pb2.CANCELLED
    return rpc_status.to_status(status_pb2.Status(code=code, message="the client stopped waiting"))


def _pack(message: object) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(message)  # type: ignore[arg-type]  # google.rpc messages are untyped here
    return packed
