"""``splendor-engine serve`` serves HTTP beside gRPC: the same metrics and call log lines for
HTTP calls, every worker process serving HTTP too, and a clean drain on SIGTERM."""

from __future__ import annotations

import http.client
from typing import Any

import pytest
from splendor.v1 import engine_service_pb2 as pb

from engine_service.api import SERVICE
from tests.http.support import connect_json, connect_proto, grpc_web, post, request
from tests.ops.support import Server, delta

pytestmark = pytest.mark.e2e


def port_of(server: Server) -> int:
    assert server.http_address is not None
    return int(server.http_address.rsplit(":", 1)[1])


def test_http_calls_are_logged_and_counted_like_grpc_calls() -> None:
    with Server() as server:
        port = port_of(server)
        before = server.scrape()
        reply = connect_json(port, "CreateGame", {"config": {"numPlayers": 2, "seed": "3"}}, {"x-request-id": "json-1"})
        assert reply.status == 200 and reply.headers["x-request-id"] == "json-1"
        refused = connect_json(port, "CreateGame", {"config": {"numPlayers": 5}}, {"x-request-id": "json-2"})
        assert refused.status == 400
        connect_proto(port, "GetCatalog", pb.GetCatalogRequest(), pb.GetCatalogResponse)
        grpc_web(port, "GetCatalog", pb.GetCatalogRequest(), pb.GetCatalogResponse)
        created = server.call_log("json-1")
        assert created["protocol"] == "connect" and created["codec"] == "json"
        assert created["method"] == "CreateGame" and created["code"] == "OK" and created["service"] == SERVICE
        assert created["players"] == 2 and created["module"] == "base"
        assert set(created) >= {"pid", "duration_ms", "request_id", "level", "timestamp", "event"}
        refusal = server.call_log("json-2")
        assert refusal["code"] == "INVALID_ARGUMENT" and refusal["reason"] == "INVALID_PLAYER_COUNT"
        lines = server.wait_for(lambda: server.calls("GetCatalog")[1:])
        assert {(line["protocol"], line["codec"]) for line in server.calls("GetCatalog")} == {
            ("connect", "proto"),
            ("grpc_web", "proto"),
        }
        assert len(lines) == 1
        after = server.scrape()
        labels: dict[str, Any] = {"grpc_type": "unary", "grpc_service": SERVICE}

        def handled(method: str, code: str) -> float:
            return delta(before, after, "grpc_server_handled_total", **labels, grpc_method=method, grpc_code=code)

        assert handled("CreateGame", "OK") == handled("CreateGame", "INVALID_ARGUMENT") == 1
        assert handled("GetCatalog", "OK") == 2
        assert delta(before, after, "splendor_games_created_total", module="base", players="2") == 1
        assert delta(before, after, "splendor_rejections_total", reason="INVALID_PLAYER_COUNT") == 1
        assert delta(before, after, "splendor_http_calls_total", protocol="connect", codec="json") == 2
        assert delta(before, after, "splendor_http_calls_total", protocol="grpc_web", codec="proto") == 1
        assert server.stop() == 0


def test_every_worker_process_serves_http_on_the_shared_port() -> None:
    with Server(processes=2) as server:
        port = port_of(server)
        assert {event["http_address"] for event in server.events("server_started")} == {server.http_address}
        for index in range(40):  # a new connection each: the kernel spreads them over the workers
            assert connect_json(port, "GetCatalog", {}, {"x-request-id": f"spread-{index}"}).status == 200
        pids = {server.call_log(f"spread-{index}")["pid"] for index in range(40)}
        assert pids == set(server.worker_pids)
        assert server.stop() == 0


def test_sigterm_closes_the_http_listener_and_the_server_exits_cleanly() -> None:
    with Server() as server:
        port = port_of(server)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/healthz")
        assert conn.getresponse().read() == b"SERVING\n"
        assert request(port, "GET", "/healthz").status == 200
        assert server.stop() == 0
        conn.close()
        with pytest.raises(OSError):
            post(port, "/splendor.v1.EngineService/GetCatalog", b"{}", "application/json")
        assert server.events("server_stopped")
