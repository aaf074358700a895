"""The per-call log lines: JSON with the call's fields, request ids echoed, and never hidden information."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from typing import Any

import grpc
import pytest
from splendor.v1 import actions_pb2, config_pb2, engine_service_pb2

from tests.ops.support import ENGINE, ROOT, Server, stub

pytestmark = pytest.mark.e2e

SEED = 7_123_456_789
TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
# Every key a per-call line may have. Numbers only under the keys in NUMERIC (seats, turns, counts).
CALL_KEYS = {
    "event",
    "level",
    "timestamp",
    "pid",
    "method",
    "service",
    "code",
    "duration_ms",
    "request_id",
    "trace_id",
    "peer",
    "seat",
    "turn",
    "action",
    "reason",
    "validate_only",
    "players",
    "module",
    "viewer",
    "actions",
    "end_reason",
}
NUMERIC = {"pid", "duration_ms", "seat", "turn", "players", "actions"}
OPAQUE = {"timestamp", "request_id", "trace_id", "peer"}  # not game data


def trailing(call: Any) -> dict[str, str]:
    return {key: value for key, value in call.trailing_metadata() or ()}


def test_a_call_is_one_json_line_with_its_fields_and_its_request_id_echoed(server: Server) -> None:
    engine = stub(server.channel())
    request = engine_service_pb2.CreateGameRequest(config=config_pb2.GameConfig(num_players=4, seed=3))
    sent = time.monotonic()
    response, call = engine.CreateGame.with_call(
        request, metadata=[("x-request-id", "req-42"), ("traceparent", TRACEPARENT)], timeout=5
    )
    round_trip_ms = (time.monotonic() - sent) * 1000
    assert trailing(call)["x-request-id"] == "req-42"
    line = server.call_log("req-42")
    assert line["event"] == "rpc" and line["level"] == "info"
    assert line["method"] == "CreateGame" and line["service"] == ENGINE and line["code"] == "OK"
    assert line["trace_id"] == "4bf92f3577b34da6a3ce929d0e0e4736"
    assert 0 < line["duration_ms"] <= round_trip_ms  # the server's part of the call the client waited for
    assert line["players"] == 4 and line["module"] == "base"
    assert "peer" not in line  # only at debug level (see test_limits)
    assert line["pid"] in server.worker_pids

    # No id from the client: one is made, logged and returned.
    state = response.state
    legal = engine.ListLegalActions(engine_service_pb2.ListLegalActionsRequest(state=state), timeout=5).actions
    _, call = engine.ApplyAction.with_call(
        engine_service_pb2.ApplyActionRequest(state=state, action=legal[0].action),
        metadata=[("traceparent", "00-00000000000000000000000000000000-00f067aa0ba902b7-01")],  # invalid: no trace
        timeout=5,
    )
    generated = trailing(call)["x-request-id"]
    assert re.fullmatch(r"[0-9a-f]{32}", generated)
    line = server.call_log(generated)
    assert "trace_id" not in line
    assert line["method"] == "ApplyAction" and line["seat"] == state.seat and line["turn"] == 0
    assert line["action"] == legal[0].action.WhichOneof("kind")

    # A refusal carries the id too, next to its rich status; an unusable id is replaced.
    with pytest.raises(grpc.RpcError) as refused:
        engine.ApplyAction(
            engine_service_pb2.ApplyActionRequest(state=state, action=actions_pb2.Action()),
            metadata=[("x-request-id", "x" * 300)],
            timeout=5,
        )
    metadata = trailing(refused.value)
    assert "grpc-status-details-bin" in metadata
    assert re.fullmatch(r"[0-9a-f]{32}", metadata["x-request-id"])
    line = server.call_log(metadata["x-request-id"])
    assert line["code"] == "INVALID_ARGUMENT" and line["reason"] == "UNKNOWN_ACTION"


def test_logs_never_show_hidden_information(server: Server) -> None:
    engine = stub(server.channel())
    config = config_pb2.GameConfig(num_players=2, seed=SEED, first_seat=0)
    state = engine.CreateGame(engine_service_pb2.CreateGameRequest(config=config), timeout=5).state
    played: list[actions_pb2.Action] = []
    events = []

    def move(action: actions_pb2.Action) -> None:
        nonlocal state
        response = engine.ApplyAction(engine_service_pb2.ApplyActionRequest(state=state, action=action), timeout=5)
        played.append(action)
        events.extend(response.events)
        state = response.state

    move(actions_pb2.Action(reserve_from_deck=actions_pb2.ReserveFromDeck(deck=2)))  # seat 0 draws blind
    blind = [card.card_id for card in state.players[0].reserved if card.blind]
    assert len(blind) == 1
    for _ in range(6):
        legal = engine.ListLegalActions(engine_service_pb2.ListLegalActionsRequest(state=state), timeout=5).actions
        move(legal[-1].action)
    deck_cards = {card for deck in state.decks for card in deck.card_ids}
    hidden = deck_cards | set(blind)
    # Calls that handle the hidden cards: views, a replay (whose config has the seed), refusals
    # that name a deck card, and a state made invalid by a duplicated deck card.
    engine.GetPlayerView(engine_service_pb2.GetPlayerViewRequest(state=state, seat=1, events=events), timeout=5)
    engine.GetPlayerView(engine_service_pb2.GetPlayerViewRequest(state=state, events=events), timeout=5)
    engine.ReplayGame(engine_service_pb2.ReplayGameRequest(config=config, actions=played), timeout=5)
    in_deck = sorted(deck_cards)[0]
    with pytest.raises(grpc.RpcError):
        engine.ApplyAction(
            engine_service_pb2.ApplyActionRequest(
                state=state, action=actions_pb2.Action(reserve_card=actions_pb2.ReserveCard(card_id=in_deck))
            ),
            timeout=5,
        )
    broken = type(state)()
    broken.CopyFrom(state)
    broken.decks[0].card_ids.append(state.decks[1].card_ids[0] if state.decks[1].card_ids else in_deck)
    with pytest.raises(grpc.RpcError) as invalid:
        engine.ListLegalActions(engine_service_pb2.ListLegalActionsRequest(state=broken), timeout=5)
    assert invalid.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    engine.ListLegalActions(
        engine_service_pb2.ListLegalActionsRequest(state=state), metadata=[("x-request-id", "last")], timeout=5
    )
    server.call_log("last")  # every line is in

    lines = server.calls()
    assert len(lines) >= 20
    raw = "\n".join(json.dumps(line) for line in server.logs)
    assert str(SEED) not in raw
    assert not re.search(r"card|deck|seed|state", " ".join(key for line in server.logs for key in line))
    for line in lines:
        assert set(line) <= CALL_KEYS, set(line) - CALL_KEYS
        for key, item in line.items():
            if key in NUMERIC:
                assert isinstance(item, int | float) and not isinstance(item, bool), (key, item)
            elif key not in OPAQUE:
                numbers = {int(token) for token in re.findall(r"\d+", str(item))}
                assert not numbers & hidden, (key, item)
        if "seat" in line:
            assert line["seat"] in (0, 1)


def test_console_format_is_for_people() -> None:
    # A key ring, so that the line after rules_core is server_started (without one, a warning comes between).
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SPLENDOR_SEALING_KEYS": "test:" + "A" * 43 + "="}
    command = [sys.executable, "-m", "engine_service.cli", "serve", "--address", "127.0.0.1:0"]
    process = subprocess.Popen(
        [*command, "--http-address", "127.0.0.1:0", "--metrics-port", "0", "--log-format", "console"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        core = process.stdout.readline()
        assert "rules_core" in core and "core=" in core
        first = process.stdout.readline()
        if "rules_core_hint" in first:  # the pure core: how to get the compiled one
            first = process.stdout.readline()
        assert "server_started" in first and "address=127.0.0.1:" in first
        with pytest.raises(ValueError):
            json.loads(first)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
