"""Simulate: playouts with named seeded policies, their outcomes and aggregate, bounded budgets and deadlines."""

from __future__ import annotations

import pytest
from splendor.v1 import bots_pb2, engine_service_pb2

from engine_service.api import ApiError, Call, Code
from engine_service.api.simulate import MAX_SIMULATED_ACTIONS, simulate
from engine_service.codec import state_to_proto
from engine_service.rules import GameConfig, new_game


def _request(playouts: int = 6, **fields: object) -> engine_service_pb2.SimulateRequest:
    state = new_game(GameConfig(3, 4))[0]
    request = engine_service_pb2.SimulateRequest(state=state_to_proto(state), playouts=playouts, seed=7, **fields)  # type: ignore[arg-type]
    if not request.policies:
        request.policies.add(policy="random")
    return request


def test_outcomes_add_up_to_the_summary_and_repeat_for_the_same_seed() -> None:
    request = _request(
        policies=[
            bots_pb2.BotChoice(policy="greedy"),
            bots_pb2.BotChoice(policy="random"),
            bots_pb2.BotChoice(policy="random", seed=3),
        ]
    )
    response = simulate(request, Call("t"))
    summary = response.summary
    assert summary.playouts == len(response.outcomes) == 6
    assert summary.total_actions == sum(outcome.length for outcome in response.outcomes)
    assert summary.mean_length == pytest.approx(summary.total_actions / 6)
    assert list(summary.wins) == [sum(seat in outcome.winners for outcome in response.outcomes) for seat in range(3)]
    for outcome in response.outcomes:
        assert (
            outcome.end_reason
            and outcome.winners
            and [s.seat for s in outcome.ranking if s.place == 1] == list(outcome.winners)
        )
    assert simulate(request, Call("t")) == response
    assert len({outcome.length for outcome in response.outcomes}) > 1  # playouts differ
    assert summary.wins[0] >= 4  # greedy beats two random players


def test_a_playout_cut_off_at_max_actions_is_counted_unfinished() -> None:
    response = simulate(_request(playouts=3, max_actions=10), Call("t"))
    assert response.summary.unfinished == 3 and all(
        outcome.length == 10 and not outcome.winners for outcome in response.outcomes
    )


def test_from_a_seats_knowledge_each_playout_starts_from_a_sample() -> None:
    response = simulate(_request(playouts=4, seat=1), Call("t"))
    assert response.summary.playouts == 4 and response.summary.unfinished == 0


@pytest.mark.parametrize(
    ("fields", "reason", "field"),
    [
        ({"playouts": 0}, "BUDGET_EXCEEDED", "playouts"),
        ({"playouts": 1001}, "BUDGET_EXCEEDED", "playouts"),
        ({"playouts": 1000, "max_actions": 1000}, "BUDGET_EXCEEDED", "max_actions"),
        ({"max_actions": 5001}, "BUDGET_EXCEEDED", "max_actions"),
        ({"policies": [bots_pb2.BotChoice(policy="ismcts")]}, "INVALID_BOT_CHOICE", "policies[0].policy"),
        ({"policies": [bots_pb2.BotChoice(policy="random")] * 2}, "INVALID_BOT_CHOICE", "policies"),
        ({"seat": 3}, "INVALID_SEAT", "seat"),
    ],
)
def test_requests_beyond_the_budget_or_with_bad_policies_are_invalid_argument(
    fields: dict[str, object], reason: str, field: str
) -> None:
    playouts = fields.pop("playouts", 2)
    assert isinstance(playouts, int)
    with pytest.raises(ApiError) as caught:
        simulate(_request(playouts=playouts, **fields), Call("t"))
    assert caught.value.code is Code.INVALID_ARGUMENT and caught.value.reason == reason
    assert [violation.field for violation in caught.value.field_violations] == [field]
    assert MAX_SIMULATED_ACTIONS < 1000 * 1000


def test_a_caller_that_stops_waiting_stops_the_simulation() -> None:
    checks = []

    def is_active() -> bool:
        checks.append(1)
        return len(checks) < 3

    call = Call("t", is_active=is_active, time_remaining=lambda: 0.0)
    with pytest.raises(ApiError) as caught:
        simulate(_request(playouts=50), call)
    assert caught.value.code is Code.DEADLINE_EXCEEDED and len(checks) == 3
