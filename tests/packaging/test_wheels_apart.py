"""Each side installed without the other, from the wheels (fresh venvs, dependencies from the index, no system
site-packages): the stubs and the engine serve; the stubs and the client play a whole game against a server."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.ops.support import free_port
from tests.packaging.installed import ROOT, Server, Venv, clean_environment, run

pytestmark = pytest.mark.e2e

# Through the raw stubs of the proto wheel: health, a deal, its legal actions, and a refusal whose
# google.rpc.ErrorInfo is read with the google.rpc types the proto wheel brings.
RAW_STUB_CALLS = """
import json, sys
import grpc
from google.rpc import error_details_pb2, status_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from splendor.v1 import config_pb2, engine_service_pb2, engine_service_pb2_grpc

with grpc.insecure_channel(sys.argv[1]) as channel:
    check = health_pb2.HealthCheckRequest(service="splendor.v1.EngineService")
    health = health_pb2_grpc.HealthStub(channel).Check(check, timeout=10)
    engine = engine_service_pb2_grpc.EngineServiceStub(channel)
    config = config_pb2.GameConfig(num_players=3, seed=7)
    created = engine.CreateGame(engine_service_pb2.CreateGameRequest(config=config), timeout=10)
    legal = engine.ListLegalActions(engine_service_pb2.ListLegalActionsRequest(state=created.state), timeout=10)
    try:
        engine.CreateGame(engine_service_pb2.CreateGameRequest(config=config_pb2.GameConfig(num_players=5)))
        refusal = None
    except grpc.RpcError as error:
        status = status_pb2.Status.FromString(dict(error.trailing_metadata())["grpc-status-details-bin"])
        info = error_details_pb2.ErrorInfo()
        refusal = [error.code().name, [info.reason for detail in status.details if detail.Unpack(info)]]
print(json.dumps({
    "health": health_pb2.HealthCheckResponse.ServingStatus.Name(health.status),
    "players": len(created.state.players),
    "legal": len(legal.actions),
    "seat": legal.seat,
    "refusal": refusal,
}))
"""

# Through splendor_client's public API: health, a refusal, then a sealed game played to its end by a bot.
CLIENT_GAME = """
import json, sys
from splendor_client import RuleRejected, actions, connect
from splendor_client.bots import GreedyBot

with connect(sys.argv[1]) as client:
    client.wait_until_ready()
    health = client.health()
    state = client.new_game(num_players=2, seed=42).state
    state = client.apply(state, actions.take_two("red")).state
    try:
        client.apply(state, actions.take_two("red"))
        refused = None
    except RuleRejected as error:
        refused = error.reason
    bot = GreedyBot(client.get_catalog(), seed=1)
    game = client.new_game(num_players=2, sealed=True, seat=0)
    moves = 0
    while not game.finished:
        seat = game.acting_seat
        game = client.apply(game, bot.choose(game.view, client.legal_actions(game, seat=seat)), seat=seat)
        moves += 1
print(json.dumps({"health": health, "refused": refused, "moves": moves, "winners": list(game.view.winners)}))
"""


def test_the_engine_alone_has_no_client_and_all_it_requires(engine_alone: Venv) -> None:
    engine_alone.check()
    installed = engine_alone.distributions()
    assert {"splendor-proto", "splendor-engine"} <= installed
    assert "splendor-client" not in installed
    assert not engine_alone.finds("splendor_client")
    assert engine_alone.finds("splendor.v1.engine_service_pb2_grpc")


@pytest.fixture
def engine_alone_server(engine_alone: Venv, tmp_path: Path) -> Iterator[Server]:
    running = Server([engine_alone.bin("splendor-engine")], tmp_path, free_port())
    try:
        yield running
    finally:
        running.kill()


def test_the_engine_alone_serves_calls_made_with_the_raw_stubs(engine_alone: Venv, engine_alone_server: Server) -> None:
    answers = json.loads(engine_alone.python(RAW_STUB_CALLS, engine_alone_server.address()))
    assert answers["health"] == "SERVING"
    assert answers["players"] == 3
    assert answers["legal"] > 0
    assert 0 <= answers["seat"] < 3
    assert answers["refusal"] == ["INVALID_ARGUMENT", ["INVALID_PLAYER_COUNT"]]
    assert engine_alone_server.stop() == 0


def test_the_stubs_ship_types_a_checker_uses(engine_alone: Venv, tmp_path: Path) -> None:
    """mypy, pointed at the venv, reads the wheel's .pyi: a field has its type, and a misuse is an error."""
    program = tmp_path / "typed.py"
    program.write_text(
        "from splendor.v1 import config_pb2\n"
        "reveal_type(config_pb2.GameConfig(num_players=2).num_players)\n"
        "wrong: str = config_pb2.GameConfig().seed\n"
    )
    command = [sys.executable, "-m", "mypy", "--python-executable", engine_alone.bin("python")]
    command += ["--no-incremental", "--ignore-missing-imports", "--no-error-summary", str(program)]
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, check=False, timeout=300)
    lines = done.stdout.splitlines()
    assert done.returncode == 1, done.stdout + done.stderr
    assert [line.split(": ", 1)[1] for line in lines] == [
        'note: Revealed type is "int"',
        'error: Incompatible types in assignment (expression has type "int", variable has type "str")  [assignment]',
    ], lines


def test_the_client_alone_has_no_engine_and_all_it_requires(client_alone: Venv) -> None:
    client_alone.check()
    installed = client_alone.distributions()
    assert {"splendor-proto", "splendor-client"} <= installed
    assert "splendor-engine" not in installed
    assert not client_alone.finds("engine_service")


@pytest.fixture
def checkout_server(tmp_path: Path) -> Iterator[Server]:
    """The engine of this checkout (the project's venv), for the client installed without one."""
    running = Server([sys.executable, "-m", "engine_service.cli"], ROOT, free_port())
    try:
        yield running
    finally:
        running.kill()


def test_the_client_alone_plays_a_whole_game_against_a_server(
    client_alone: Venv, checkout_server: Server, tmp_path: Path
) -> None:
    address = checkout_server.address()
    played = json.loads(client_alone.python(CLIENT_GAME, address))
    assert played["health"] == "SERVING"
    assert played["refused"] == "PILE_BELOW_FOUR"
    assert played["moves"] > 20
    assert played["winners"]
    command = [client_alone.bin("splendor-play"), "--address", address, "--players", "3", "--seed", "7", "--quiet"]
    assert "seed 7" in run(command, cwd=tmp_path, env=clean_environment())
    assert checkout_server.stop() == 0
