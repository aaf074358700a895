"""Several replicas behind one client: calls go round robin, a call no engine answered is retried on the
next replica (UNAVAILABLE, or CANCELLED from a server that stopped before handling it), an answer never
is, and a call about a sealed game carries its id as the routing key a proxy may hash on."""

from __future__ import annotations

import json
import re
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent import futures
from pathlib import Path
from typing import Any

import grpc
import pytest
from splendor.v1 import engine_service_pb2
from splendor_client import EngineClient, EngineError, InvalidRequest, connect
from splendor_client.balancing import RETRY_POLICY, ROUTING_KEY_HEADER, SERVICE_CONFIG, channel_options, channel_target


class Scripted(grpc.GenericRpcHandler):  # type: ignore[misc]  # grpc's handler classes are untyped
    """A stand-in engine answering GetCatalog with the codes scripted, in order (then OK), recording metadata."""

    def __init__(self, codes: list[grpc.StatusCode]) -> None:
        self.codes = list(codes)
        self.seen: list[dict[str, str]] = []
        self._lock = threading.Lock()

    def service(self, details: grpc.HandlerCallDetails) -> grpc.RpcMethodHandler:
        def answer(request: Any, context: grpc.ServicerContext) -> Any:
            with self._lock:
                self.seen.append(dict(context.invocation_metadata()))
                code = self.codes.pop(0) if self.codes else grpc.StatusCode.OK
            if code is not grpc.StatusCode.OK:
                context.abort(code, f"scripted {code.name}")
            return engine_service_pb2.GetCatalogResponse()

        return grpc.unary_unary_rpc_method_handler(
            answer,
            request_deserializer=lambda data: data,
            response_serializer=engine_service_pb2.GetCatalogResponse.SerializeToString,
        )


@pytest.fixture
def scripted() -> Iterator[Callable[[list[grpc.StatusCode]], tuple[str, Scripted]]]:
    servers: list[grpc.Server] = []

    def serve(codes: list[grpc.StatusCode]) -> tuple[str, Scripted]:
        handler = Scripted(codes)
        server = grpc.server(futures.ThreadPoolExecutor(2), handlers=(handler,))
        port = server.add_insecure_port("127.0.0.1:0")
        server.start()
        servers.append(server)
        return f"127.0.0.1:{port}", handler

    yield serve
    for server in servers:
        server.stop(0).wait()


def test_a_list_of_replicas_is_one_target_of_their_ip_addresses() -> None:
    assert channel_target("engine:50051") == "engine:50051"
    assert channel_target(["10.0.0.1:50051"]) == "10.0.0.1:50051"
    assert channel_target(["10.0.0.1:50051", "10.0.0.2:50051"]) == "ipv4:10.0.0.1:50051,10.0.0.2:50051"
    assert channel_target(["[::1]:50051", "[fe80::1]:50051"]) == "ipv6:[::1]:50051,[fe80::1]:50051"
    for bad in (["engine-1:50051", "engine-2:50051"], ["10.0.0.1:50051", "[::1]:50051"], ["10.0.0.1", "10.0.0.2"], []):
        with pytest.raises(ValueError):
            channel_target(bad)


def test_the_service_config_balances_round_robin_and_retries_only_unanswered_calls() -> None:
    config = json.loads(SERVICE_CONFIG)
    assert config["loadBalancingConfig"] == [{"round_robin": {}}]
    (method,) = config["methodConfig"]
    assert method["name"] == [{"service": "splendor.v1.EngineService"}]
    assert method["retryPolicy"] == RETRY_POLICY
    assert set(RETRY_POLICY["retryableStatusCodes"]) == {"UNAVAILABLE", "CANCELLED"}
    assert ("grpc.service_config", SERVICE_CONFIG) in channel_options(())
    own = [("grpc.service_config", "{}")]
    assert channel_options(own) == own, "a service config of the caller's own replaces the policy"


def test_calls_go_round_robin_over_the_replicas(scripted: Any) -> None:
    first, second = scripted([]), scripted([])
    with connect([first[0], second[0]]) as client:
        for _ in range(20):
            client.get_catalog()
    # Round robin: each replica gets about half (not all on one, as a pick-first channel would).
    assert len(first[1].seen) >= 5 and len(second[1].seen) >= 5
    assert len(first[1].seen) + len(second[1].seen) == 20


@pytest.mark.parametrize("code", [grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED])
def test_a_call_no_engine_answered_is_retried(scripted: Any, code: grpc.StatusCode) -> None:
    address, engine = scripted([code, code])
    with connect(address) as client:
        client.get_catalog()
    assert len(engine.seen) == 3
    # gRPC tells the server which attempt it is: the retries are the client's, not the caller's.
    assert [seen.get("grpc-previous-rpc-attempts") for seen in engine.seen] == [None, "1", "2"]


def test_retries_stop_after_five_attempts(scripted: Any) -> None:
    address, engine = scripted([grpc.StatusCode.UNAVAILABLE] * 6)
    with connect(address) as client, pytest.raises(EngineError) as failed:
        client.get_catalog()
    assert failed.value.code_name == "UNAVAILABLE" and len(engine.seen) == RETRY_POLICY["maxAttempts"]


def test_an_answer_is_never_retried(scripted: Any) -> None:
    address, engine = scripted([grpc.StatusCode.INVALID_ARGUMENT])
    with connect(address) as client, pytest.raises(InvalidRequest):
        client.get_catalog()
    assert len(engine.seen) == 1


def test_a_replica_that_is_gone_is_skipped(scripted: Any) -> None:
    live = scripted([])
    with connect([live[0], "127.0.0.1:9"]) as client:  # port 9 (discard): nothing listens on loopback
        for _ in range(10):
            client.get_catalog()
    assert len(live[1].seen) == 10


def test_calls_about_a_sealed_game_carry_its_id_as_the_routing_key(loopback_address: str) -> None:
    seen: Counter[str] = Counter()

    class Spy(grpc.UnaryUnaryClientInterceptor):  # type: ignore[misc]
        def intercept_unary_unary(self, continuation: Any, details: Any, request: Any) -> Any:
            keys = dict(details.metadata or ())
            seen[f"{details.method.rsplit('/', 1)[-1]}:{keys.get(ROUTING_KEY_HEADER, '')}"] += 1
            return continuation(details, request)

    channel = grpc.intercept_channel(grpc.insecure_channel(loopback_address), Spy())
    client = EngineClient(channel)
    game = client.new_game(2, sealed=True, seat=0)
    game_id = game.binding.game_id
    seat = game.acting_seat
    game = client.apply(game, client.legal_actions(game, seat=seat)[0], seat=seat)
    client.view(game, seat=0)
    client.view(game.token)  # a bare token: its id read from its header
    assert seen == {
        "CreateGame:": 1,  # no game id yet: balanced like any call
        f"ListLegalActions:{game_id}": 1,
        f"ApplyAction:{game_id}": 1,
        f"GetPlayerView:{game_id}": 2,
    }
    plain = client.new_game(2, seed=1)
    client.legal_actions(plain.state)
    assert seen["ListLegalActions:"] == 1, "a plain state has no game id"
    channel.close()


def test_the_documented_service_config_and_the_typescript_policy_are_the_python_clients() -> None:
    root = Path(__file__).resolve().parents[2]
    readme = (root / "deploy" / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```json\n\s*(\{\"loadBalancingConfig\".*?)```", readme, re.DOTALL)
    assert block is not None, "deploy/README.md shows the service config"
    assert json.loads(block[1]) == json.loads(SERVICE_CONFIG)
    typescript = (root / "clients" / "typescript" / "src" / "balance.ts").read_text(encoding="utf-8")
    policy = dict(re.findall(r"^\s+(\w+): ([\d_]+),$", typescript.split("DEFAULT_RETRY_POLICY")[1], re.MULTILINE))
    assert int(policy["maxAttempts"]) == RETRY_POLICY["maxAttempts"]
    assert int(policy["initialBackoffMs"].replace("_", "")) / 1000 == float(str(RETRY_POLICY["initialBackoff"])[:-1])
    assert int(policy["maxBackoffMs"].replace("_", "")) / 1000 == float(str(RETRY_POLICY["maxBackoff"])[:-1])
    assert int(policy["multiplier"]) == RETRY_POLICY["backoffMultiplier"]
