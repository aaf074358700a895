"""The HTTP edge's own limits, on an in-process server with short timeouts and a small connection cap:
slow headers and bodies are dropped, the connection cap makes room from idle and slow connections
first, and each drop is counted; a body refused unread still gets its refusal, then a bounded close."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator

import pytest

from engine_service.http import HttpServer
from engine_service.http import server as http_server_module
from engine_service.http.edge import LINGER_SECONDS
from engine_service.runtime.admission import Admission
from engine_service.runtime.not_served import not_served
from engine_service.runtime.settings import Settings

SLOW_SECONDS = 0.3  # the header and body timeouts here
CAP = 4  # the connection cap here
CLOSED_WITHIN_SECONDS = 3.0  # timeouts are checked every second


def serve(monkeypatch: pytest.MonkeyPatch, slow_seconds: float) -> Iterator[int]:
    monkeypatch.setattr(http_server_module, "HEADER_SECONDS", slow_seconds)
    monkeypatch.setattr(http_server_module, "BODY_SECONDS", slow_seconds)
    monkeypatch.setattr(http_server_module, "CONNECTION_LIMIT", CAP)
    server = HttpServer(Settings(address="127.0.0.1:0", http_address="127.0.0.1:0"))
    server.start()
    try:
        yield server.port
    finally:
        server.stop()


@pytest.fixture
def edge(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    yield from serve(monkeypatch, SLOW_SECONDS)


@pytest.fixture
def patient_edge(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """The same with timeouts longer than the test: connections stay until the test closes them."""
    yield from serve(monkeypatch, 60.0)


def count(method: str, reason: str) -> float:
    return float(not_served().labels("http", method, reason)._value.get())


def connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=CLOSED_WITHIN_SECONDS + 2)


def closed_by_server(sock: socket.socket) -> bool:
    """Wait for the server to close the connection (EOF or reset)."""
    try:
        while data := sock.recv(4096):
            del data  # a response before the close is fine
        return True
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def healthz(port: int) -> bytes:
    with connect(port) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        reply = b""
        while data := sock.recv(4096):
            reply += data
    return reply


def test_a_request_whose_headers_trickle_is_dropped(edge: int) -> None:
    before = count("unknown", "header_timeout")
    with connect(edge) as sock:
        sock.sendall(b"POST /splendor.v1.EngineService/GetCatalog HTTP/1.1\r\nX-Slow: ")
        started = time.monotonic()
        assert closed_by_server(sock)
        assert time.monotonic() - started < CLOSED_WITHIN_SECONDS
    assert count("unknown", "header_timeout") == before + 1


def test_a_request_whose_body_trickles_is_dropped(edge: int) -> None:
    before = count("GetCatalog", "body_timeout")
    with connect(edge) as sock:
        sock.sendall(
            b"POST /splendor.v1.EngineService/GetCatalog HTTP/1.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{"
        )
        assert closed_by_server(sock)
    assert count("GetCatalog", "body_timeout") == before + 1


@pytest.mark.parametrize("megabytes", [2, 20])
def test_a_client_sending_a_body_over_the_limit_gets_the_refusal_not_a_reset(edge: int, megabytes: int) -> None:
    # Rule: every bad input gets a clear error. The body is refused from its announced length, unread;
    # closing at once with its bytes unread made the kernel reset the connection before the client,
    # still sending, read the 413 (most tries over 1 MiB failed so).
    body = b"\n" * (megabytes << 20)
    headers = {"content-type": "application/proto", "connect-protocol-version": "1"}
    for _ in range(5):
        conn = http.client.HTTPConnection("127.0.0.1", edge, timeout=10)
        try:
            conn.request("POST", "/splendor.v1.EngineService/ApplyAction", body=body, headers=headers)
            response = conn.getresponse()
            assert response.status == 413
            assert json.loads(response.read())["code"] == "resource_exhausted"
        finally:
            conn.close()
    assert healthz(edge).startswith(b"HTTP/1.1 200")


def test_a_client_that_keeps_sending_after_a_refusal_is_closed_within_the_linger_time(edge: int) -> None:
    with connect(edge) as sock:
        sock.sendall(
            b"POST /splendor.v1.EngineService/ApplyAction HTTP/1.1\r\nContent-Type: application/proto\r\n"
            b"Content-Length: 1000000000\r\n\r\n"
        )
        started = time.monotonic()
        stopped: list[float] = []

        def send_forever() -> None:  # a hostile client: its body never ends
            try:
                while time.monotonic() - started < LINGER_SECONDS + 10:
                    sock.sendall(b"\0" * 65536)
            except OSError:
                stopped.append(time.monotonic() - started)

        sender = threading.Thread(target=send_forever)
        sender.start()
        reply = b""
        while data := sock.recv(4096):  # the refusal, then the end of what the server sends
            reply += data
        sender.join()
    assert reply.startswith(b"HTTP/1.1 413")
    assert stopped and stopped[0] < LINGER_SECONDS + CLOSED_WITHIN_SECONDS, "the server closed it in time"


def test_at_the_cap_the_oldest_idle_connection_makes_room(edge: int) -> None:
    idle = [connect(edge) for _ in range(CAP)]
    try:
        time.sleep(0.2)  # taken in by the server
        assert healthz(edge).startswith(b"HTTP/1.1 200")
        assert closed_by_server(idle[0]), "the oldest idle connection was closed for the new one"
    finally:
        for sock in idle:
            sock.close()


def test_at_the_cap_with_every_connection_busy_a_new_one_is_refused_at_once(patient_edge: int) -> None:
    edge = patient_edge
    before = count("unknown", "connection_limit")
    head = (
        b"POST /splendor.v1.EngineService/GetCatalog HTTP/1.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\n\r\n"
    )
    busy = [connect(edge) for _ in range(CAP)]
    try:
        for sock in busy:
            sock.sendall(head)  # each reads a body that has not come yet: neither idle nor slow headers
        time.sleep(0.2)
        started = time.monotonic()
        try:
            with connect(edge) as refused:
                assert closed_by_server(refused)
        except ConnectionResetError:
            pass  # the reset may come before the connection is even handed back
        assert time.monotonic() - started < 1.0
    finally:
        for sock in busy:
            sock.close()
    assert count("unknown", "connection_limit") == before + 1


def test_healthz_reports_a_process_stuck_when_admitted_calls_make_no_progress(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(http_server_module, "STUCK_SECONDS", 0.05)
    admission = Admission(10)
    server = HttpServer(Settings(address="127.0.0.1:0", http_address="127.0.0.1:0"), admission=admission)
    server.start()
    try:
        assert healthz(server.port).startswith(b"HTTP/1.1 200")
        assert admission.try_admit()  # a call that never ends
        time.sleep(0.1)
        reply = healthz(server.port)
        assert reply.startswith(b"HTTP/1.1 503") and reply.endswith(b"STUCK\n")
        admission.release()  # it ended: progress
        assert healthz(server.port).startswith(b"HTTP/1.1 200")
    finally:
        server.stop()
