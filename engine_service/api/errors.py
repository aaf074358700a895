"""Refusals as transport-neutral domain errors: ``ApiError``.

Every refusal carries a status ``Code`` (the subset of the gRPC codes the service uses,
with their numbers), the ``RejectionReason`` name without its prefix as ``reason`` (for
core refusals, the name of the core ``Reason``: the two are matched by name, never by
number), a message, metadata and the request fields at fault. A transport turns it into
its own error: gRPC into a google.rpc.Status with an ErrorInfo in ``DOMAIN`` and a
BadRequest (``engine_service/server/errors.py``).

Metadata holds short strings: ``acting_seat`` and ``turn`` when a valid state is known,
``action_index`` in ReplayGame, and the ``RuleViolation.details``. Field paths are proto
paths of the request, e.g. ``state.players[1].tokens`` or ``action.take_gems.colors``.

| code                | reasons |
|---------------------|---------|
| INVALID_ARGUMENT    | INVALID_PLAYER_COUNT, INVALID_SEED, INVALID_FIRST_SEAT, INVALID_TURN_LIMIT, UNKNOWN_MODULE, |
|                     | MODULE_COMBINATION_NOT_SUPPORTED (bad config); INVALID_STATE (malformed or impossible state, |
|                     | missing state, malformed events); UNKNOWN_ACTION (empty action, bad action id); INVALID_COLOR |
|                     | (unspecified or unknown colour); INVALID_SEAT (a viewing seat not in the game); |
|                     | SEALED_STATE_* (a sealed_state that does not open); REQUEST_UNDECODABLE (bytes that are not |
|                     | the request message); REPLAY_TOO_LONG (more actions than a game can have); |
|                     | RESPONSE_TOO_LARGE (the answer would exceed the largest message the service sends); |
|                     | INVALID_BOT_CHOICE (server-side bots); BUDGET_EXCEEDED (Simulate, Determinize) |
|                     | SEED_NOT_ALLOWED (a sealed CreateGame with a seed and without public_deal); |
|                     | BATCH_TOO_LARGE (more BatchApplyActions items than the server takes) |
| PERMISSION_DENIED   | SEAT_KEY_MISSING, SEAT_KEY_INVALID (a sealed request names or acts as a seat without |
|                     | that seat's key), SEAT_KEY_RETIRED (a key of a game begun before token version 3, whose |
|                     | ring key was retired) |
| FAILED_PRECONDITION | every other reason: a well-formed move the rules refuse in this position (GAME_OVER, |
|                     | NOT_YOUR_TURN, PILE_BELOW_FOUR, ...), STALE_STATE (expected_turn differs from the turn) and |
|                     | STEP_MISMATCH (expected_step differs from the token's step, or came with a plain state) |
| DEADLINE_EXCEEDED,  | a long call (ReplayGame) stopped because its caller stopped waiting; no reason |
| CANCELLED           |         |
| INTERNAL            | a bug in the service; logged, no details |
| RESOURCE_EXHAUSTED  | the server is busy (``busy``): its slots for expensive calls are taken; not run, no reason |

Field paths for rule refusals of an action (FAILED_PRECONDITION) point at the part
of the action at fault (``_ACTION_FIELDS``); a refusal of the whole move
(RESERVE_LIMIT, GAME_OVER...) has no field violation.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Final, NamedTuple

from engine_service.rules import GameState, Reason, RuleViolation

DOMAIN: Final = "splendor.v1"
# Reasons the service adds to the core's (see errors.proto).
STALE_STATE: Final = "STALE_STATE"
INVALID_SEAT: Final = "INVALID_SEAT"
INVALID_BOT_CHOICE: Final = "INVALID_BOT_CHOICE"
BUDGET_EXCEEDED: Final = "BUDGET_EXCEEDED"
REQUEST_UNDECODABLE: Final = "REQUEST_UNDECODABLE"
REPLAY_TOO_LONG: Final = "REPLAY_TOO_LONG"
RESPONSE_TOO_LARGE: Final = "RESPONSE_TOO_LARGE"
SEED_NOT_ALLOWED: Final = "SEED_NOT_ALLOWED"
SEAT_KEY_MISSING: Final = "SEAT_KEY_MISSING"
SEAT_KEY_INVALID: Final = "SEAT_KEY_INVALID"
SEAT_KEY_RETIRED: Final = "SEAT_KEY_RETIRED"
STEP_MISMATCH: Final = "STEP_MISMATCH"
BATCH_TOO_LARGE: Final = "BATCH_TOO_LARGE"
# Why a sealed_state did not open (engine_service.sealing's errors carry these names).
SEALED_STATE_REASONS: Final = frozenset(
    {
        "SEALED_STATE_MALFORMED",
        "SEALED_STATE_TOO_LARGE",
        "SEALED_STATE_VERSION_UNSUPPORTED",
        "SEALED_STATE_KEY_UNKNOWN",
        "SEALED_STATE_KEY_RETIRED",
        "SEALED_STATE_INVALID",
        "SEALED_STATE_EXPIRED",
    }
)


class Code(Enum):
    """The status codes the API answers with; the values are the gRPC (and google.rpc) numbers."""

    OK = 0
    CANCELLED = 1
    INVALID_ARGUMENT = 3
    DEADLINE_EXCEEDED = 4
    PERMISSION_DENIED = 7
    FAILED_PRECONDITION = 9
    INTERNAL = 13
    RESOURCE_EXHAUSTED = 8  # the server is busy: the call was not run (retry later)


class FieldViolation(NamedTuple):
    """A request field at fault, as a proto path, and what is wrong with it."""

    field: str
    description: str


class ApiError(Exception):
    """A refusal (or a failure) of a call, for any transport to send.

    ``reason`` is None for errors that are not refusals (INTERNAL, a caller that stopped
    waiting): those carry no ErrorInfo.
    """

    def __init__(
        self,
        code: Code,
        reason: str | None,
        message: str,
        *,
        metadata: Mapping[str, str] | None = None,
        field_violations: tuple[FieldViolation, ...] = (),
    ) -> None:
        super().__init__(message)
        self.code = code
        self.reason = reason
        self.message = message
        self.metadata: Mapping[str, str] = dict(metadata or {})
        self.field_violations = field_violations

    def __repr__(self) -> str:
        return f"ApiError({self.code.name}, {self.reason!r}, {self.message!r})"


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
        INVALID_BOT_CHOICE,
        BUDGET_EXCEEDED,
        REQUEST_UNDECODABLE,
        REPLAY_TOO_LONG,
        RESPONSE_TOO_LARGE,
        SEED_NOT_ALLOWED,
        BATCH_TOO_LARGE,
        *SEALED_STATE_REASONS,
    }
)
PERMISSION_DENIED_REASONS: Final = frozenset({SEAT_KEY_MISSING, SEAT_KEY_INVALID, SEAT_KEY_RETIRED})

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


def refusal(
    reason: str, message: str, *, field: str | None = None, metadata: Mapping[str, str] | None = None
) -> ApiError:
    """A refusal: INVALID_ARGUMENT, PERMISSION_DENIED or FAILED_PRECONDITION by its reason, the field at fault."""
    if reason in INVALID_ARGUMENT_REASONS:
        code = Code.INVALID_ARGUMENT
    elif reason in PERMISSION_DENIED_REASONS:
        code = Code.PERMISSION_DENIED
    else:
        code = Code.FAILED_PRECONDITION
    violations = (FieldViolation(field, message),) if field is not None else ()
    return ApiError(code, reason, message, metadata=metadata, field_violations=violations)


def rejection(
    violation: RuleViolation,
    *,
    prefix: str = "",
    state: GameState | None = None,
    action_kind: str | None = None,
    field: str | None = None,
    metadata: Mapping[str, str] | None = None,
) -> ApiError:
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
    return refusal(violation.reason.name, violation.message, field=field, metadata=info)


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


def internal_error() -> ApiError:
    """For bugs: no details, the log has them."""
    return ApiError(Code.INTERNAL, None, "internal error")


def abandoned(deadline_passed: bool) -> ApiError:
    """For a call whose caller stopped waiting (deadline or cancellation): work stops early."""
    return ApiError(Code.DEADLINE_EXCEEDED if deadline_passed else Code.CANCELLED, None, "the client stopped waiting")


def busy(message: str) -> ApiError:
    """For a call the server had no room to run (its expensive calls' slots taken): nothing was done."""
    return ApiError(Code.RESOURCE_EXHAUSTED, None, message)
