"""What a replica tells about itself for a fleet: the key ring it runs (for a rotation's checks), how
often its memo knew a call's game (what affinity buys), and what its drain finished or cancelled."""

from __future__ import annotations

import signal
import threading
from typing import Any

import grpc
import pytest
from splendor.v1 import config_pb2, engine_service_pb2

from engine_service.sealing import new_key_line
from tests.ops.support import Server, stub, value
from tests.ops.test_shutdown import slow_view_request

pytestmark = pytest.mark.e2e


def sealing_keys(server: Server) -> dict[str, str]:
    return {
        dict(labels)["key_id"]: dict(labels)["use"]
        for (name, labels), sample in server.scrape().items()
        if name == "splendor_sealing_keys" and sample == 1
    }


def test_a_replica_reports_the_ring_it_runs_in_its_metrics_and_start_line() -> None:
    ring = "\n".join((new_key_line("new"), new_key_line("old"), "older:retired"))
    with Server(env={"SPLENDOR_SEALING_KEYS": ring}) as server:
        assert sealing_keys(server) == {"new": "seals", "old": "opens", "older": "retired"}
        (started,) = server.events("server_started")
        assert (started["sealing_key"], started["opening_keys"], started["retired_keys"]) == (
            "new",
            ["new", "old"],
            ["older"],
        )


def test_every_worker_reports_the_same_ring_once() -> None:
    with Server(processes=2, env={"SPLENDOR_SEALING_KEYS": new_key_line("only")}) as server:
        assert sealing_keys(server) == {"only": "seals"}
        assert value(server.scrape(), "splendor_sealing_keys") == 1.0, "one series, not one per worker"


def test_the_memo_counts_a_game_it_saw_last_as_a_hit_and_one_another_replica_served_as_a_miss() -> None:
    ring = {"SPLENDOR_SEALING_KEYS": new_key_line("shared")}
    with Server(env=ring) as first, Server(env=ring) as second:
        here, there = stub(first.channel()), stub(second.channel())
        config = config_pb2.GameConfig(num_players=2)
        created = here.CreateGame(engine_service_pb2.CreateGameRequest(config=config, sealed=True), timeout=10)
        token, keys = created.sealed_state, list(created.seat_keys)
        seat = created.view.seat

        def legal(engine: Any) -> None:
            request = engine_service_pb2.ListLegalActionsRequest(sealed_state=token, seat=seat, seat_key=keys[seat])
            engine.ListLegalActions(request, timeout=10)

        legal(here)  # sealed here: remembered
        legal(there)  # never seen there: opened in full, then remembered
        legal(there)
        for server, hits, misses in ((first, 1, 0), (second, 1, 1)):
            samples = server.scrape()
            assert value(samples, "splendor_state_memo_lookups_total", kind="token", result="hit") == hits
            assert value(samples, "splendor_state_memo_lookups_total", kind="token", result="miss") == misses
            for kind in ("state", "token", "seat_key"):
                for result in ("hit", "miss"):
                    assert ("splendor_state_memo_lookups_total", (("kind", kind), ("result", result))) in samples


def test_a_drain_that_finishes_every_call_reports_none_cancelled() -> None:
    with Server("--grace-seconds", "10") as server:
        engine = stub(server.channel())
        engine.GetCatalog(engine_service_pb2.GetCatalogRequest(), timeout=10)
        assert server.stop() == 0
        (stopped,) = server.events("server_stopped")
        assert stopped["level"] == "info" and stopped["cancelled"] == 0 and stopped["drain_seconds"] < 10


def test_a_drain_cut_short_by_the_grace_reports_the_calls_it_cancelled() -> None:
    big = ("--max-request-bytes", str(8 << 20), "--threads", "4")
    with Server("--grace-seconds", "0.2", *big) as server:
        engine = stub(server.channel())
        outcome: list[grpc.StatusCode] = []

        def slow() -> None:
            try:
                engine.GetPlayerView(slow_view_request(events=400_000), timeout=60)
                outcome.append(grpc.StatusCode.OK)
            except grpc.RpcError as error:
                outcome.append(error.code())

        call = threading.Thread(target=slow)
        call.start()
        server.wait_for(
            lambda: value(server.scrape(), "grpc_server_started_total", grpc_method="GetPlayerView") == 1, timeout=30
        )
        server.process.send_signal(signal.SIGTERM)
        call.join(timeout=60)
        assert server.process.wait(timeout=30) == 0
        (draining,) = server.events("server_draining")
        (stopped,) = server.events("server_stopped")
        assert draining["in_flight"] == 1
        assert stopped["level"] == "warning" and stopped["cancelled"] == 1
        # No answer: cancelled, or the connection closed as the process exited (either is retried by the clients).
        assert outcome in ([grpc.StatusCode.CANCELLED], [grpc.StatusCode.UNAVAILABLE])
