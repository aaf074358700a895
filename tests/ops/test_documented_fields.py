"""docs/operations.md matches the server field by field: every log event's fields, the per-call
line's fields, and every metric's name and labels, checked against a real server's output."""

from __future__ import annotations

import re
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from splendor.v1 import actions_pb2, bots_pb2, common_pb2, config_pb2, engine_service_pb2

from engine_service.codec import state_to_proto
from tests.ops.support import ENGINE, ROOT, Samples, Server, free_port, stub
from tests.server.positions import dealt

pytestmark = pytest.mark.e2e

DOC = (ROOT / "docs" / "operations.md").read_text()
TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
COMMON = {"event", "level", "timestamp"}


def table(header: str) -> list[list[str]]:
    """The rows (cells) of the table of the document whose header row is ``header``."""
    lines = DOC.splitlines()
    start = lines.index(header) + 2  # the header, then its separator
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def names(cell: str) -> set[str]:
    """The backticked names of a cell, leaving out those in parentheses (examples and values)."""
    return set(re.findall(r"`([^`]+)`", re.sub(r"\([^)]*\)", "", cell)))


def documented_events() -> dict[str, set[str]]:
    return {next(iter(names(row[0]))): names(row[2]) for row in table("| event | level | fields | what |")}


def documented_call_fields() -> set[str]:
    return set().union(*(names(row[0]) for row in table("| field | when | meaning |")))


def documented_metrics() -> dict[str, tuple[str, set[str]]]:
    return {next(iter(names(row[0]))): (row[1], names(row[2])) for row in table("| metric | type | labels | meaning |")}


def keys_by_event(logs: list[dict[str, Any]]) -> dict[str, set[str]]:
    seen: dict[str, set[str]] = {}
    for line in logs:
        seen.setdefault(line["event"], set()).update(set(line) - COMMON)
    return seen


def take_gems(*colors: int) -> actions_pb2.Action:
    return actions_pb2.Action(take_gems=actions_pb2.TakeGems(colors=colors))  # type: ignore[arg-type]


def calls_of_every_kind(server: Server) -> None:
    """Calls that between them produce every documented per-call field."""
    channel = server.channel()
    engine = stub(channel)
    engine.GetCatalog(engine_service_pb2.GetCatalogRequest(), timeout=5)
    config = config_pb2.GameConfig(num_players=2, seed=4, turn_limit=2)
    state = engine.CreateGame(
        engine_service_pb2.CreateGameRequest(config=config), metadata=[("traceparent", TRACEPARENT)], timeout=5
    ).state
    engine.ListLegalActions(engine_service_pb2.ListLegalActionsRequest(state=state), timeout=5)
    red, blue, green, white = (
        common_pb2.COLOR_RED,
        common_pb2.COLOR_BLUE,
        common_pb2.COLOR_GREEN,
        common_pb2.COLOR_WHITE,
    )
    first = take_gems(red, blue, green)
    engine.ApplyAction(engine_service_pb2.ApplyActionRequest(state=state, action=first, validate_only=True), timeout=5)
    with pytest.raises(grpc.RpcError):  # a refusal with a valid state: reason, seat, turn
        engine.ApplyAction(engine_service_pb2.ApplyActionRequest(state=state, action=take_gems(red, red)), timeout=5)
    with pytest.raises(grpc.RpcError):  # an invalid empty state: no seat, no turn
        engine.ApplyAction(
            engine_service_pb2.ApplyActionRequest(action=first), metadata=[("x-request-id", "no-state")], timeout=5
        )
    played = []
    for action in (first, take_gems(blue, green, white)):  # the turn limit ends the game: end_reason
        state = engine.ApplyAction(engine_service_pb2.ApplyActionRequest(state=state, action=action), timeout=5).state
        played.append(action)
    engine.GetPlayerView(engine_service_pb2.GetPlayerViewRequest(state=state, seat=1), timeout=5)
    engine.GetPlayerView(engine_service_pb2.GetPlayerViewRequest(state=state), timeout=5)
    engine.ReplayGame(engine_service_pb2.ReplayGameRequest(config=config, actions=played), timeout=5)
    batch = engine_service_pb2.BatchApplyActionsRequest()
    batch.requests.add(state=state, action=first)  # the game is over: refused alone
    batch.requests.add(action=first)
    engine.BatchApplyActions(batch, timeout=5)  # items, items_refused
    with pytest.raises(grpc.RpcError):  # far more playouts than 10 ms allow: DEADLINE_EXCEEDED, deadline_cause
        playouts = engine_service_pb2.SimulateRequest(
            state=state_to_proto(dealt(4, seed=1)),
            policies=[bots_pb2.BotChoice(policy="greedy", seed=1)],
            playouts=1000,
            max_actions=200,
        )
        engine.Simulate(playouts, timeout=0.01)
    health: Any = health_pb2_grpc.HealthStub(channel)
    health.Check(health_pb2.HealthCheckRequest(service=ENGINE), metadata=[("x-request-id", "last")], timeout=5)
    server.call_log("last")
    channel.close()


@pytest.fixture(scope="module")
def runs() -> tuple[list[dict[str, Any]], Samples]:
    """The log lines of a one-process server (debug level, tracing on, a call of every kind, SIGTERM) and of a
    two-process one (started and stopped), and the first one's /metrics after its calls."""
    # Tracing is on but samples nothing, so nothing is ever sent to the (absent) collector.
    tracing = {"OTEL_TRACES_SAMPLER": "always_off"}
    endpoint = f"http://127.0.0.1:{free_port()}"
    with Server("--log-level", "debug", "--otlp-endpoint", endpoint, env=tracing) as single:
        calls_of_every_kind(single)
        samples = single.scrape()
        assert single.stop() == 0
    with Server(processes=2) as workers:
        assert workers.stop() == 0
    return single.logs + workers.logs, samples


def test_every_log_event_has_exactly_its_documented_fields(runs: tuple[list[dict[str, Any]], Samples]) -> None:
    logs, _ = runs
    documented = documented_events()
    seen = keys_by_event(logs)
    seen.pop("rpc")
    lifecycle = {"server_started", "server_draining", "server_stopped", "tracing_enabled"}
    assert lifecycle | {"supervisor_started", "supervisor_stopping", "worker_exited", "supervisor_stopped"} <= set(seen)
    for event, keys in seen.items():
        assert event in documented, f"{event} is not documented"
        assert keys == documented[event], (event, keys ^ documented[event])


def test_the_call_lines_have_exactly_the_documented_fields(runs: tuple[list[dict[str, Any]], Samples]) -> None:
    logs, _ = runs
    documented = documented_call_fields()
    assert documented >= COMMON
    calls = [line for line in logs if line["event"] == "rpc"]
    for line in calls:
        assert set(line) <= documented, set(line) - documented
    assert set().union(*(set(line) for line in calls)) == documented  # every documented field occurs
    (no_state,) = [line for line in calls if line["request_id"] == "no-state"]
    assert no_state["reason"] == "INVALID_STATE" and "seat" not in no_state and "turn" not in no_state


def test_every_metric_has_exactly_its_documented_labels(runs: tuple[list[dict[str, Any]], Samples]) -> None:
    _, samples = runs
    documented = documented_metrics()
    found: dict[str, set[frozenset[str]]] = {}
    for sample, labels in samples:
        found.setdefault(sample, set()).add(frozenset(name for name, _ in labels))
    for metric, (kind, labels) in documented.items():
        if kind == "histogram":
            assert found[f"{metric}_bucket"] == {frozenset(labels | {"le"})}, metric
            assert found[f"{metric}_count"] == found[f"{metric}_sum"] == {frozenset(labels)}, metric
        else:
            assert found[metric] == {frozenset(labels)}, metric
    ours = {sample for sample in found if sample.startswith(("grpc_", "splendor_"))}
    suffixes = ("_bucket", "_count", "_sum")
    assert {re.sub(r"_(bucket|count|sum)$", "", s) if s.endswith(suffixes) else s for s in ours} == set(documented)
