"""Quiet logs (issue 22): gRPC's core says nothing below an error unless asked for debug, and a SIGTERM
after heavy HTTP traffic stops without a traceback (the "Bad file descriptor" race at shutdown)."""

from __future__ import annotations

import http.client
import os
import signal
import threading
from collections.abc import Iterator

import pytest
from splendor.v1 import engine_service_pb2

from engine_service.http import HttpServer
from engine_service.runtime.logs import GRPC_VERBOSITY, quiet_grpc_core
from engine_service.runtime.settings import Settings
from tests.edge.support import frame, http_port, maximal_simulate
from tests.ops.support import Server, stub
from tests.polling import tcp_connections, wait_until

CLIENTS = 6
HEAVY_CALLS = 200  # calls answered before SIGTERM


@pytest.fixture
def no_verbosity(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(GRPC_VERBOSITY, "unset")  # recorded, so that the test's own value is undone after it
    monkeypatch.delenv(GRPC_VERBOSITY)
    yield


@pytest.mark.parametrize(("level", "verbosity"), [("debug", "INFO"), ("info", "ERROR"), ("warning", "ERROR")])
def test_grpc_core_lines_below_error_show_only_at_debug(no_verbosity: None, level: str, verbosity: str) -> None:
    quiet_grpc_core(level)
    assert os.environ[GRPC_VERBOSITY] == verbosity


def test_an_operators_grpc_verbosity_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(GRPC_VERBOSITY, "DEBUG")
    quiet_grpc_core("info")
    assert os.environ[GRPC_VERBOSITY] == "DEBUG"


def connect_and_leave(server: Server, times: int) -> None:
    """Clients that make a call and hang up, the way a client's disconnect reaches the server."""
    for _ in range(times):
        channel = server.channel()
        stub(channel).GetCatalog(engine_service_pb2.GetCatalogRequest(), timeout=10)
        channel.close()


def hang_ups_handled(server: Server) -> None:
    """Wait until the server has closed its side of every connection the clients left: the gRPC core has handled
    each hang-up (what it would write about them, it has written)."""
    wait_until(lambda: tcp_connections(server.port) == 0, what="the server to close the connections clients left")


@pytest.mark.e2e
def test_clients_hanging_up_leave_no_grpc_core_lines_at_info() -> None:
    with Server() as server:
        connect_and_leave(server, 5)
        hang_ups_handled(server)
        assert server.stop() == 0
    assert server.stderr == []


@pytest.mark.e2e
def test_at_debug_the_grpc_core_speaks() -> None:
    # The control of the test above: the same hang-ups, handled as above, do write lines at debug.
    with Server("--log-level", "debug") as server:
        connect_and_leave(server, 3)
        hang_ups_handled(server)
        assert server.stop() == 0
    assert server.stderr != []


def test_a_call_still_running_when_the_http_server_stops_ends_quietly(capfd: pytest.CaptureFixture[str]) -> None:
    # The call's thread finishes after the event loop has stopped: nothing may reach the closed loop, and no
    # traceback may be written (asyncio would print one for each connection task it cancels).
    http_server = HttpServer(Settings(address="127.0.0.1:0", http_address="127.0.0.1:0"))
    http_server.start()
    port = http_server.port
    simulate = frame(maximal_simulate().SerializeToString())

    def call() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            conn.request("POST", "/splendor.v1.EngineService/Simulate", simulate, GRPC_WEB)
            conn.getresponse().read()
        except OSError:
            pass  # the server stopped under it
        finally:
            conn.close()

    caller = threading.Thread(target=call)
    caller.start()
    admission = http_server.guard.admission
    wait_until(lambda: admission.expensive_running == 1, what="the Simulate call to run")
    http_server.stop()
    caller.join(timeout=30)
    assert admission.expensive_running == 0 and admission.expensive_entered == 0
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err, out + err


@pytest.mark.e2e
def test_sigterm_after_heavy_http_traffic_stops_cleanly() -> None:
    with Server("--grace-seconds", "1") as server:
        port = http_port(server)
        stop = threading.Event()
        simulate = frame(maximal_simulate().SerializeToString())

        def traffic(index: int) -> None:
            while not stop.is_set():
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                try:
                    if index == 0:  # a long call still running at SIGTERM
                        conn.request("POST", "/splendor.v1.EngineService/Simulate", simulate, GRPC_WEB)
                    else:
                        conn.request("POST", "/splendor.v1.EngineService/GetCatalog", b"{}", JSON)
                    conn.getresponse().read()
                except OSError:
                    return  # the server went away: the end of the traffic
                finally:
                    conn.close()

        clients = [threading.Thread(target=traffic, args=(index,), daemon=True) for index in range(CLIENTS)]
        for client in clients:
            client.start()
        # Heavy traffic: many calls answered, the long one among them running, then SIGTERM.
        server.wait_for(lambda: len(server.calls("GetCatalog")) >= HEAVY_CALLS, timeout=60)
        server.process.send_signal(signal.SIGTERM)
        code = server.process.wait(timeout=30)
        stop.set()
        for client in clients:
            client.join(timeout=15)
        server.stop()
    assert code == 0
    assert not [line for line in server.stderr if "Traceback" in line or "Bad file descriptor" in line]
    assert [entry for entry in server.logs if entry["level"] == "error"] == []
    assert server.events("server_stopped")


GRPC_WEB = {"Content-Type": "application/grpc-web+proto"}
JSON = {"Content-Type": "application/json"}
