"""The shipped nginx configuration (deploy/nginx/nginx.conf), run as a real nginx in front of three
replicas on loopback: gRPC balanced per call over HTTP/2, Connect and gRPC-Web over HTTP/1.1, a game's
calls kept on one replica by its routing key, and the limits a front proxy holds."""

from __future__ import annotations

import json
import re
import socket
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from splendor.v1 import config_pb2, engine_service_pb2, engine_service_pb2_grpc
from splendor_client import connect

from engine_service.http.guard import BODY_SECONDS
from engine_service.http.server import HEADER_SECONDS
from engine_service.runtime.settings import Settings
from engine_service.sealing import new_key_line
from tests.fleet.proxy import SHIPPED, Nginx, nginx_binary, rendered_changes
from tests.fleet.replicas import Replica, wait_until
from tests.http.support import connect_proto, grpc_web, post, request

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(nginx_binary() is None, reason="needs nginx: scripts/ensure-debian-packages nginx:nginx"),
]

CATALOG = engine_service_pb2.GetCatalogRequest()


@pytest.fixture(scope="module")
def front(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Nginx, list[Replica]]]:
    root = tmp_path_factory.mktemp("nginx-front")
    keys = root / "keys"
    keys.write_text(new_key_line("front") + "\n", encoding="utf-8")
    replicas = [Replica(f"engine-{n}", keys) for n in range(1, 4)]
    nginx = None
    try:
        for replica in replicas:
            replica.start()
        nginx = Nginx(root / "nginx", [r.grpc_address for r in replicas], [r.http_address for r in replicas])
        yield nginx, replicas
    finally:
        if nginx is not None:
            nginx.stop()
        for replica in replicas:
            replica.stop()


def served_by(replicas: list[Replica], request_ids: set[str]) -> Counter[str]:
    """How many of the calls with these request ids each replica logged."""
    counts: Counter[str] = Counter()
    for replica in replicas:
        for line in replica.current.calls():
            if line["request_id"] in request_ids:
                counts[replica.name] += 1
    return counts


def logged(replicas: list[Replica], request_ids: set[str]) -> Counter[str]:
    counts: Counter[str] = wait_until(
        lambda: (counts := served_by(replicas, request_ids)) and sum(counts.values()) == len(request_ids) and counts,
        10,
        "the replicas' log lines",
    )
    return counts


def test_the_run_changes_only_the_addresses_of_the_shipped_configuration(front: tuple[Nginx, list[Replica]]) -> None:
    nginx, replicas = front
    changed = rendered_changes(nginx.shipped, nginx.config)
    removed = [line for line in changed if line.startswith("-")]
    added = [line for line in changed if line.startswith("+")]
    assert all(re.fullmatch(r"-\s+(listen \S+( http2)?|server engine-\d:\d+ .*);", line) for line in removed)
    assert all(
        re.fullmatch(r"\+\s+(listen 127\.0\.0\.1:\d+( http2)?|server 127\.0\.0\.1:\d+ .*);", line)
        or "_temp_path" in line
        for line in added
    )
    assert len([line for line in added if "server 127" in line]) == 2 * len(replicas)


def test_grpc_calls_of_one_connection_are_balanced_per_call(front: tuple[Nginx, list[Replica]]) -> None:
    nginx, replicas = front
    ids = {f"balance-{n}" for n in range(30)}
    with grpc.insecure_channel(nginx.grpc_address) as channel:  # one HTTP/2 connection to nginx
        engine = engine_service_pb2_grpc.EngineServiceStub(channel)
        for request_id in sorted(ids):
            engine.GetCatalog(CATALOG, timeout=10, metadata=(("x-request-id", request_id),))
    counts = logged(replicas, ids)
    assert set(counts) == {replica.name for replica in replicas}, counts
    assert min(counts.values()) >= 5, f"round robin, not one replica per connection: {counts}"


def test_a_games_calls_follow_its_routing_key_to_one_replica(front: tuple[Nginx, list[Replica]]) -> None:
    nginx, replicas = front
    with connect(nginx.grpc_address) as client:
        games = [client.new_game(2, sealed=True, seat=0) for _ in range(6)]
        ids_by_game = {}
        for n, game in enumerate(games):
            ids = {f"affinity-{n}-{m}" for m in range(6)}
            ids_by_game[game.binding.game_id] = ids
            for request_id in sorted(ids):
                client.metadata = (("x-request-id", request_id),)
                client.legal_actions(game, seat=game.acting_seat)
    for ids in ids_by_game.values():
        assert len(logged(replicas, ids)) == 1, "every call of a game on the replica its key hashes to"
    spread = {next(iter(logged(replicas, ids))) for ids in ids_by_game.values()}
    assert len(spread) >= 2, "different games hash to different replicas"


def test_connect_and_grpc_web_go_through_over_http_1_1(front: tuple[Nginx, list[Replica]]) -> None:
    nginx, _ = front
    create = engine_service_pb2.CreateGameRequest(config=config_pb2.GameConfig(num_players=3, seed=4))
    via_connect = connect_proto(nginx.http_port, "CreateGame", create, engine_service_pb2.CreateGameResponse)
    via_grpc_web = grpc_web(nginx.http_port, "CreateGame", create, engine_service_pb2.CreateGameResponse)
    assert isinstance(via_connect, engine_service_pb2.CreateGameResponse)
    assert via_connect == via_grpc_web and len(via_connect.state.players) == 3
    health = request(nginx.http_port, "GET", "/healthz")
    assert health.status == 200  # a replica's probe answers through the proxy


def test_what_the_proxy_does_not_serve_is_refused(front: tuple[Nginx, list[Replica]]) -> None:
    nginx, _ = front
    with grpc.insecure_channel(nginx.grpc_address) as channel:
        reflection: grpc.UnaryUnaryMultiCallable[bytes, bytes] = channel.unary_unary(
            "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo"
        )
        with pytest.raises(grpc.RpcError) as refused:
            reflection(b"", timeout=5)
        assert refused.value.code() == grpc.StatusCode.UNIMPLEMENTED
    assert post(nginx.http_port, "/metrics", b"", "text/plain").status == 404


def test_a_body_over_the_limit_is_refused_at_the_proxy(front: tuple[Nginx, list[Replica]]) -> None:
    nginx, replicas = front
    limit = Settings().max_request_bytes
    big = engine_service_pb2.GetPlayerViewRequest(sealed_state=b"\0" * (limit + 2048))
    reply = post(
        nginx.http_port, "/splendor.v1.EngineService/GetPlayerView", big.SerializeToString(), "application/proto"
    )
    assert reply.status == 413
    with grpc.insecure_channel(nginx.grpc_address, options=[("grpc.max_send_message_length", -1)]) as channel:
        engine = engine_service_pb2_grpc.EngineServiceStub(channel)
        with pytest.raises(grpc.RpcError) as refused:
            engine.GetPlayerView(big, timeout=10, metadata=(("x-request-id", "too-big"),))
        assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, "as the engine would answer it"
    assert not served_by(replicas, {"too-big"}), "no replica saw it"
    # Just under the limit goes through, to the replica's own checks.
    fits = engine_service_pb2.GetPlayerViewRequest(sealed_state=b"\0" * (limit - 64))
    answered = post(
        nginx.http_port, "/splendor.v1.EngineService/GetPlayerView", fits.SerializeToString(), "application/proto"
    )
    assert answered.status == 400 and json.loads(answered.body)["code"] == "invalid_argument"


def test_headers_over_the_limit_are_refused_at_the_proxy(front: tuple[Nginx, list[Replica]]) -> None:
    nginx, _ = front
    reply = post(
        nginx.http_port, "/splendor.v1.EngineService/GetCatalog", b"", "application/proto", {"x-padding": "x" * 9000}
    )
    assert reply.status in (400, 431)


def test_calls_in_flight_per_client_are_bounded(front: tuple[Nginx, list[Replica]]) -> None:
    nginx, _ = front
    limit = int(re.search(r"limit_conn splendor_per_client (\d+);", nginx.shipped)[1])  # type: ignore[index]
    # Requests whose body never comes stay in flight (until client_body_timeout): fill the client's quota.
    held = []
    try:
        for _ in range(limit):
            sock = socket.create_connection(("127.0.0.1", nginx.http_port), timeout=5)
            sock.sendall(b"POST /splendor.v1.EngineService/GetCatalog HTTP/1.1\r\nHost: x\r\n"
                         b"Content-Type: application/proto\r\nContent-Length: 10\r\n\r\n")  # fmt: skip
            held.append(sock)
        # Once nginx has read every held request's headers, the next request is over the quota.
        wait_until(
            lambda: (
                post(nginx.http_port, "/splendor.v1.EngineService/GetCatalog", b"", "application/proto").status == 429
            ),
            10,
            "the held requests to fill the quota",
        )
    finally:
        for sock in held:
            sock.close()
    wait_until(
        lambda: post(nginx.http_port, "/splendor.v1.EngineService/GetCatalog", b"", "application/proto").status == 200,
        10,
        "the quota to free up",
    )


def test_the_proxy_timeouts_match_the_engines_own_edge() -> None:
    text = SHIPPED.read_text(encoding="utf-8")

    def seconds(directive: str) -> float:
        return float(re.search(rf"^\s*{directive} (\d+)s;", text, re.MULTILINE)[1])  # type: ignore[index]

    assert seconds("client_header_timeout") == HEADER_SECONDS
    assert seconds("client_body_timeout") == BODY_SECONDS
    # nginx closes its idle connections to a replica's HTTP port before the replica does (after HEADER_SECONDS).
    http_upstream = text[text.index("upstream splendor_engine_http") :]
    idle = float(re.search(r"keepalive_timeout (\d+)s;", http_upstream)[1])  # type: ignore[index]
    assert idle < HEADER_SECONDS
    # A call ends at the engine (--max-call-seconds) before the proxy gives up on it.
    assert seconds("grpc_read_timeout") > Settings().max_call_seconds
    assert seconds("proxy_read_timeout") > Settings().max_call_seconds


def test_with_no_replica_left_grpc_clients_get_unavailable_and_connect_clients_502(tmp_path: Path) -> None:
    dead = [f"127.0.0.1:{port}" for port in (9, 9)]  # discard: nothing listens there on loopback
    nginx = Nginx(tmp_path / "nginx", dead, dead)
    try:
        with grpc.insecure_channel(nginx.grpc_address) as channel:
            engine = engine_service_pb2_grpc.EngineServiceStub(channel)
            with pytest.raises(grpc.RpcError) as refused:
                engine.GetCatalog(CATALOG, timeout=10)
        assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
        assert refused.value.details() == "no engine replica answered"
        assert post(nginx.http_port, "/splendor.v1.EngineService/GetCatalog", b"", "application/proto").status == 502
    finally:
        nginx.stop()
