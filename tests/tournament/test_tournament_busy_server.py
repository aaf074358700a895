"""A busy server's "retry later" makes a tournament's search move wait its turn, never lose the game."""

from __future__ import annotations

import grpc
import pytest
from splendor_client.errors import EngineError, RuleRejected
from splendor_client.tournament_games import when_free

BUSY = EngineError(grpc.StatusCode.RESOURCE_EXHAUSTED, "every place is taken: retry later")


class Flaky:
    """Raises the given errors in turn, then answers."""

    def __init__(self, *errors: EngineError) -> None:
        self.errors = list(errors)
        self.calls = 0

    def __call__(self) -> str:
        self.calls += 1
        if self.errors:
            raise self.errors.pop(0)
        return "answered"


def test_a_search_move_refused_as_busy_is_tried_again_until_answered() -> None:
    call = Flaky(BUSY, BUSY, BUSY)
    assert when_free(call) == "answered"
    assert call.calls == 4


def test_a_refusal_for_any_other_reason_is_raised_at_once() -> None:
    rejected = RuleRejected(grpc.StatusCode.FAILED_PRECONDITION, "not your turn", reason="NOT_YOUR_TURN")
    call = Flaky(rejected)
    with pytest.raises(RuleRejected):
        when_free(call)
    assert call.calls == 1


def test_a_server_busy_for_longer_than_the_patience_is_reported() -> None:
    call = Flaky(*[BUSY] * 100)
    with pytest.raises(EngineError) as raised:
        when_free(call, patience=0.3)
    assert raised.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert 2 <= call.calls < 100
