"""Refusals (``ApiError``) and their rich gRPC statuses: codes, ErrorInfo, BadRequest paths."""

from __future__ import annotations

import grpc
import pytest
from google.rpc import code_pb2, error_details_pb2, status_pb2  # type: ignore[import-untyped]
from splendor.v1 import errors_pb2

from engine_service.api.errors import (
    DOMAIN,
    INVALID_ARGUMENT_REASONS,
    INVALID_SEAT,
    STALE_STATE,
    ApiError,
    internal_error,
    proto_field,
    refusal,
    rejection,
)
from engine_service.rules import Reason, RuleViolation
from engine_service.server.errors import grpc_status
from tests.server.positions import dealt

_BAD_INPUT = {
    Reason.INVALID_PLAYER_COUNT,
    Reason.INVALID_SEED,
    Reason.INVALID_FIRST_SEAT,
    Reason.INVALID_TURN_LIMIT,
    Reason.UNKNOWN_MODULE,
    Reason.MODULE_COMBINATION_NOT_SUPPORTED,
    Reason.INVALID_STATE,
    Reason.UNKNOWN_ACTION,
    Reason.INVALID_COLOR,
}


PUBLISHED = {name.removeprefix("REJECTION_REASON_") for name in errors_pb2.RejectionReason.DESCRIPTOR.values_by_name}


def _decode(error: ApiError) -> tuple[status_pb2.Status, error_details_pb2.ErrorInfo, list[tuple[str, str]]]:
    """The gRPC status of ``error``, checked against the error, and its details."""
    status = grpc_status(error)
    assert (status.code.value[0], status.details) == (error.code.value, error.message)
    (key, value), *_ = status.trailing_metadata
    assert key == "grpc-status-details-bin"
    rich = status_pb2.Status.FromString(value)
    assert rich.code == status.code.value[0] and rich.message == status.details
    info = error_details_pb2.ErrorInfo()
    violations: list[tuple[str, str]] = []
    for detail in rich.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            detail.Unpack(info)
        else:
            bad = error_details_pb2.BadRequest()
            assert detail.Unpack(bad)
            violations += [(v.field, v.description) for v in bad.field_violations]
    return rich, info, violations


def test_every_core_reason_is_a_rejection_reason_by_name() -> None:
    assert {reason.name for reason in Reason} | {STALE_STATE} <= PUBLISHED


def test_module_reasons_are_published_after_the_base_ones() -> None:
    """Additive: the modules' reasons take new numbers, the existing ones keep theirs."""
    numbers = errors_pb2.RejectionReason.Value
    assert numbers("REJECTION_REASON_CITY_NOT_AVAILABLE") == 33
    modules = [
        "GEM_NOT_AVAILABLE",
        "CARD_OCCUPIED",
        "STRONGHOLD_NOT_ALLOWED",
        "PAIRING_NOT_POSSIBLE",
        "SACRIFICE_NOT_POSSIBLE",
        "CARDS_SPENT_INVALID",
    ]
    assert [numbers(f"REJECTION_REASON_{name}") for name in modules] == list(range(34, 40))
    assert all(name not in INVALID_ARGUMENT_REASONS for name in modules)  # rule refusals: FAILED_PRECONDITION


def test_invalid_seat_is_published() -> None:
    assert INVALID_SEAT in PUBLISHED


@pytest.mark.parametrize("reason", list(Reason), ids=lambda reason: reason.name)
def test_code_follows_the_reason(reason: Reason) -> None:
    error = rejection(RuleViolation(reason, "refused", color="red"))
    expected = grpc.StatusCode.INVALID_ARGUMENT if reason in _BAD_INPUT else grpc.StatusCode.FAILED_PRECONDITION
    assert grpc_status(error).code == expected
    _, info, _ = _decode(error)
    assert (info.reason, info.domain) == (reason.name, DOMAIN)
    assert dict(info.metadata) == {"color": "red"}
    assert (reason.name in INVALID_ARGUMENT_REASONS) == (reason in _BAD_INPUT)


def test_stale_state_is_a_failed_precondition() -> None:
    error = refusal(STALE_STATE, "old", field="expected_turn", metadata={"turn": "4"})
    assert grpc_status(error).code == grpc.StatusCode.FAILED_PRECONDITION
    _, info, violations = _decode(error)
    assert info.reason == STALE_STATE and info.metadata["turn"] == "4"
    assert violations == [("expected_turn", "old")]


def test_invalid_state_points_at_the_proto_field_under_the_request_path() -> None:
    violation = RuleViolation(Reason.INVALID_STATE, "bad", field="pending.seat")
    _, info, violations = _decode(rejection(violation, prefix="state"))
    assert violations == [("state.pending_decision.seat", "bad")]
    assert "field" not in info.metadata


def test_state_metadata_names_the_acting_seat_and_turn() -> None:
    state = dealt(3, seed=2, first_seat=2)
    _, info, violations = _decode(rejection(RuleViolation(Reason.RESERVE_LIMIT, "full"), state=state))
    assert dict(info.metadata) == {"acting_seat": "2", "turn": "0"}
    assert violations == []  # the whole move is refused, no single field is wrong


@pytest.mark.parametrize(
    ("reason", "kind", "prefix", "field"),
    [
        (Reason.PILE_BELOW_FOUR, "take_two_gems", "action", "action.take_two_gems.color"),
        (Reason.TOO_FEW_COLORS, "take_gems", "action", "action.take_gems.colors"),
        (Reason.CARD_NOT_AVAILABLE, "reserve_card", "action", "action.reserve_card.card_id"),
        (Reason.CANNOT_AFFORD, "purchase_card", "actions[3]", "actions[3].purchase_card.card_id"),
        (Reason.PAYMENT_INVALID, "purchase_card", "action", "action.purchase_card.payment"),
        (Reason.DECK_EMPTY, "reserve_from_deck", "action", "action.reserve_from_deck.deck"),
        (Reason.RETURN_NOT_HELD, "return_tokens", "action", "action.return_tokens.tokens"),
        (Reason.NOBLE_NOT_AVAILABLE, "choose_noble", "action", "action.choose_noble.noble_id"),
        (Reason.DECISION_PENDING, "take_gems", "action", "action.take_gems"),
        (Reason.CANNOT_AFFORD, "action_id", "action", "action.action_id"),
        # The modules' actions and reasons.
        (Reason.GEM_NOT_AVAILABLE, "take_gem", "action", "action.take_gem.color"),
        (Reason.INVALID_COLOR, "take_gem", "action", "action.take_gem.color"),
        (Reason.CARD_OCCUPIED, "reserve_card", "action", "action.reserve_card.card_id"),
        (Reason.CARD_OCCUPIED, "purchase_card", "actions[0]", "actions[0].purchase_card.card_id"),
        (Reason.STRONGHOLD_NOT_ALLOWED, "place_stronghold", "action", "action.place_stronghold"),
        (Reason.STRONGHOLD_NOT_ALLOWED, "remove_stronghold", "action", "action.remove_stronghold"),
        (Reason.CARD_NOT_AVAILABLE, "purchase_card", "action", "action.purchase_card.card_id"),
        (Reason.CARD_NOT_AVAILABLE, "take_free_card", "action", "action.take_free_card.card_id"),
        (Reason.PAIRING_NOT_POSSIBLE, "purchase_card", "action", "action.purchase_card.card_id"),
        (Reason.PAIRING_NOT_POSSIBLE, "pair_card", "action", "action.pair_card.card_id"),
        (Reason.SACRIFICE_NOT_POSSIBLE, "purchase_card", "action", "action.purchase_card"),
        (Reason.CARDS_SPENT_INVALID, "purchase_card", "actions[2]", "actions[2].purchase_card.cards_spent"),
        (Reason.NOBLE_NOT_AVAILABLE, "reserve_noble", "action", "action.reserve_noble.noble_id"),
        (Reason.NO_DECISION_PENDING, "decline", "action", "action.decline"),
        (Reason.DECISION_PENDING, "purchase_card", "action", "action.purchase_card"),
    ],
)
def test_rule_refusals_point_at_the_part_of_the_action(reason: Reason, kind: str, prefix: str, field: str) -> None:
    _, _, violations = _decode(rejection(RuleViolation(reason, "no"), prefix=prefix, action_kind=kind))
    assert violations == [(field, "no")]


def test_config_refusals_name_the_config_field() -> None:
    violation = RuleViolation(Reason.INVALID_PLAYER_COUNT, "five")
    assert _decode(rejection(violation))[2] == [("config.num_players", "five")]
    assert _decode(rejection(violation, prefix="state"))[2] == [("state.config.num_players", "five")]


def test_proto_field_renames_only_core_names() -> None:
    assert proto_field("nobles") == "noble_ids"
    assert proto_field("pending.options") == "pending_decision.options"
    assert proto_field("players[2].tokens") == "players[2].tokens"
    assert proto_field("noble_ids") == "noble_ids"


def test_internal_status_reveals_nothing() -> None:
    status = grpc_status(internal_error())
    assert status.code == grpc.StatusCode.INTERNAL
    (_, value), *_ = status.trailing_metadata
    rich = status_pb2.Status.FromString(value)
    assert rich.code == code_pb2.INTERNAL and not rich.details
