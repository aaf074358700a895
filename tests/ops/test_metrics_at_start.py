"""Every labelled series an operator queries exists at zero from start-up, with one process or several.

A rate or a ratio over a series that does not exist yet is "no data", not 0, and an alert
on it never fires: so the series are created when the server starts, before any call.
"""

from __future__ import annotations

import pytest
from splendor.v1 import actions_pb2, config_pb2, errors_pb2, state_pb2

from engine_service.api import METHODS
from tests.ops.support import ENGINE, Samples, Server

pytestmark = pytest.mark.e2e

ENGINE_METHODS = tuple(method.name for method in METHODS)  # every RPC of the method table
# The contract's lists: every module's games and every kind of action are counted.
MODULES = ("base", *(name.removeprefix("MODULE_").lower() for name in config_pb2.Module.keys()[1:]))
ACTION_KINDS = tuple(field.name for field in actions_pb2.Action.DESCRIPTOR.oneofs_by_name["kind"].fields)
CODES = ("OK", "INVALID_ARGUMENT", "FAILED_PRECONDITION", "RESOURCE_EXHAUSTED", "DEADLINE_EXCEEDED", "INTERNAL")


def series(samples: Samples, name: str, **labels: str) -> list[float]:
    """The values of the samples named ``name`` with exactly these labels (one, if it exists)."""
    wanted = tuple(sorted(labels.items()))
    return [value for (sample, sample_labels), value in samples.items() if sample == name and sample_labels == wanted]


@pytest.mark.parametrize("processes", [1, 2])
def test_every_queried_series_exists_at_zero_from_start_up(processes: int) -> None:
    with Server("--threads", "2", processes=processes) as server:
        samples = server.scrape()
        assert server.stop() == 0

    for method in ENGINE_METHODS:
        labels = {"grpc_type": "unary", "grpc_service": ENGINE, "grpc_method": method}
        for code in CODES:
            assert series(samples, "grpc_server_handled_total", **labels, grpc_code=code) == [0.0], (method, code)
        assert series(samples, "grpc_server_started_total", **labels) == [0.0], method
        assert series(samples, "grpc_server_msg_received_total", **labels) == [0.0], method
        assert series(samples, "grpc_server_msg_sent_total", **labels) == [0.0], method
        assert series(samples, "grpc_server_handling_seconds_count", **labels) == [0.0], method
    health = {"grpc_type": "unary", "grpc_service": "grpc.health.v1.Health", "grpc_method": "Check"}
    assert series(samples, "grpc_server_handled_total", **health, grpc_code="OK") == [0.0]

    published = errors_pb2.RejectionReason.DESCRIPTOR.values_by_name
    reasons = [name.removeprefix("REJECTION_REASON_") for name in published if not name.endswith("UNSPECIFIED")]
    assert "PILE_BELOW_FOUR" in reasons and "INVALID_SEAT" in reasons
    for reason in reasons:
        assert series(samples, "splendor_rejections_total", reason=reason) == [0.0], reason
    for end_reason in ("FINAL_ROUND_COMPLETED", "ALL_PLAYERS_PASSED", "TURN_LIMIT_REACHED"):
        assert state_pb2.EndReason.Value(f"END_REASON_{end_reason}")
        assert series(samples, "splendor_games_finished_total", end_reason=end_reason) == [0.0], end_reason
    assert "orient" in MODULES and "place_stronghold" in ACTION_KINDS
    for module in MODULES:
        for players in ("2", "3", "4"):
            assert series(samples, "splendor_games_created_total", module=module, players=players) == [0.0]
    for kind in ACTION_KINDS:
        if kind != "action_id":
            assert series(samples, "splendor_actions_applied_total", kind=kind) == [0.0], kind
    assert not series(samples, "splendor_actions_applied_total", kind="action_id")  # counted as its kind
    for outcome in ("answered", "refused"):
        assert series(samples, "splendor_batch_items_total", outcome=outcome) == [0.0], outcome
