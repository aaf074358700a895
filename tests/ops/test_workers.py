"""--processes 2: two workers on one port, metrics summed over both, supervised shutdown."""

from __future__ import annotations

import os
import signal
from collections import Counter
from pathlib import Path

import pytest
from splendor.v1 import config_pb2, engine_service_pb2

from tests.ops.support import Server, delta, stub, value

pytestmark = pytest.mark.e2e

CHANNELS = 16  # connections: the kernel spreads them over the workers (both get some with odds 1 - 2^-15)
CALLS_PER_CHANNEL = 5


def test_two_workers_share_the_port_and_their_metrics_add_up(tmp_path: Path) -> None:
    metrics_dir = tmp_path / "prometheus"
    metrics_dir.mkdir()
    (metrics_dir / "counter_999999.db").write_bytes(b"stale: a previous run's file")
    (metrics_dir / "keep.txt").write_text("not a metrics file")
    inode = metrics_dir.stat().st_ino
    with Server("--threads", "2", processes=2, env={"PROMETHEUS_MULTIPROC_DIR": str(metrics_dir)}) as server:
        (supervisor,) = server.events("supervisor_started")
        assert supervisor["pid"] == server.process.pid
        assert sorted(supervisor["workers"]) == server.worker_pids and len(server.worker_pids) == 2
        assert {entry["port"] for entry in server.events("server_started")} == {server.port}
        # Stale files removed, the directory itself (a mounted volume in production) kept.
        assert not (metrics_dir / "counter_999999.db").exists()
        assert (metrics_dir / "keep.txt").exists() and metrics_dir.stat().st_ino == inode

        before = server.scrape()
        for index in range(CHANNELS):
            with server.channel(own_connection=True) as channel:
                engine = stub(channel)
                for call in range(CALLS_PER_CHANNEL):
                    config = config_pb2.GameConfig(num_players=2 + call % 3, seed=index)
                    engine.CreateGame(engine_service_pb2.CreateGameRequest(config=config), timeout=5)
        total = CHANNELS * CALLS_PER_CHANNEL
        server.wait_for(lambda: len(server.calls("CreateGame")) == total)
        after = server.scrape()

        by_worker = Counter(line["pid"] for line in server.calls("CreateGame"))
        assert set(by_worker) == set(server.worker_pids), f"connections did not spread: {by_worker}"
        assert delta(before, after, "grpc_server_handled_total", grpc_method="CreateGame", grpc_code="OK") == total
        assert delta(before, after, "grpc_server_started_total", grpc_method="CreateGame") == total
        assert delta(before, after, "grpc_server_handling_seconds_count", grpc_method="CreateGame") == total
        assert delta(before, after, "splendor_games_created_total") == total
        for players in (2, 3, 4):
            expected = CHANNELS * sum(1 for call in range(CALLS_PER_CHANNEL) if 2 + call % 3 == players)
            assert delta(before, after, "splendor_games_created_total", players=str(players)) == expected
        assert sorted(path.name for path in metrics_dir.glob("*.db")) == sorted(
            f"{kind}_{pid}.db" for kind in ("counter", "gauge_max", "histogram") for pid in server.worker_pids
        )

        assert server.stop() == 0
        exited = server.events("worker_exited")
        assert sorted(entry["worker_pid"] for entry in exited) == server.worker_pids
        assert [entry["exit_status"] for entry in server.events("supervisor_stopped")] == [0]
        assert len(server.events("server_stopped")) == 2
        assert server.not_json == []
        # The counts stay in the directory after the workers exit (a restart cleans them).
        assert len(list(metrics_dir.glob("*.db"))) == 6


def test_a_worker_dying_stops_the_server_with_an_error() -> None:
    with Server("--grace-seconds", "5", processes=2) as server:
        victim, survivor = server.worker_pids
        with server.channel() as channel:
            stub(channel).GetCatalog(engine_service_pb2.GetCatalogRequest(), timeout=5)
        os.kill(victim, signal.SIGKILL)
        assert server.process.wait(timeout=15) == 1
        server.wait_for(lambda: server.events("supervisor_stopped"))
        (died,) = server.events("worker_died")
        assert died["worker_pid"] == victim and died["exit_code"] == -signal.SIGKILL
        assert [entry["pid"] for entry in server.events("server_draining")] == [survivor]
        assert [entry["worker_pid"] for entry in server.events("worker_exited")] == [survivor]
        assert server.events("supervisor_stopped")[0]["exit_status"] == 1


def test_the_metrics_directory_is_made_when_none_is_given() -> None:
    with Server(processes=2) as server:
        (supervisor,) = server.events("supervisor_started")
        made = Path(supervisor["multiproc_dir"])
        assert made.is_dir()
        with server.channel() as channel:
            stub(channel).GetCatalog(engine_service_pb2.GetCatalogRequest(), timeout=5)
        server.wait_for(lambda: server.calls("GetCatalog"))
        assert value(server.scrape(), "grpc_server_handled_total", grpc_method="GetCatalog") == 1
        assert server.stop() == 0
        assert not made.exists(), "the temporary directory is removed on exit"
