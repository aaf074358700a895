"""The HTTP edge's own limits, on an in-process server with short timeouts and small caps: slow headers and
bodies are dropped, the connection cap and the body budgets make room from the least-progressed first, and
each drop is counted; a body refused unread still gets its refusal, then a bounded close; a request whose
client half-closed its side is answered; HTTP/2 without TLS works; an expensive call never takes a cheap
call's place."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import h2.config
import h2.connection
import h2.events
import pytest

from engine_service.http import HttpServer
from engine_service.http import guard as guard_module
from engine_service.http import server as http_server_module
from engine_service.http.guard import LINGER_SECONDS
from engine_service.runtime.admission import Admission
from engine_service.runtime.not_served import not_served
from engine_service.runtime.settings import Settings
from tests.polling import MovableClock, wait_until

SLOW_SECONDS = 0.5  # the header time and the body grace here
CAP = 4  # the connection cap here
CLOSED_WITHIN_SECONDS = 3.0
SERVICE = "/splendor.v1.EngineService"
CREATE_GAME = b'{"config":{"numPlayers":2}}'
HALF_CLOSED_TRIES = 20


@contextmanager
def serve(monkeypatch: pytest.MonkeyPatch, slow_seconds: float, **settings: object) -> Iterator[HttpServer]:
    monkeypatch.setattr(http_server_module, "HEADER_SECONDS", slow_seconds)
    monkeypatch.setattr(http_server_module, "CONNECTION_LIMIT", CAP)
    monkeypatch.setattr(guard_module, "BODY_GRACE_SECONDS", (slow_seconds, slow_seconds))
    server = HttpServer(Settings(address="127.0.0.1:0", http_address="127.0.0.1:0", **settings))  # type: ignore[arg-type]
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def edge(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    with serve(monkeypatch, SLOW_SECONDS) as server:
        yield server.port


@pytest.fixture
def patient_edge(monkeypatch: pytest.MonkeyPatch) -> Iterator[HttpServer]:
    """The same with times longer than the test: connections stay until the test or a cap closes them."""
    with serve(monkeypatch, 60.0) as server:
        yield server


def count(method: str, reason: str) -> float:
    return float(not_served().labels("http", method, reason)._value.get())


def connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=CLOSED_WITHIN_SECONDS + 2)


def read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes (EOF or reset); raises TimeoutError if it never does."""
    reply = b""
    try:
        while data := sock.recv(65536):
            reply += data
    except ConnectionResetError:
        pass
    return reply


def closed_by_server(sock: socket.socket) -> bool:
    try:
        read_all(sock)
        return True
    except TimeoutError:
        return False


def healthz(port: int) -> bytes:
    with connect(port) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return read_all(sock)


def keep_alive_healthz(sock: socket.socket) -> int:
    """/healthz on an open connection, left open: the answer's status."""
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    response = http.client.HTTPResponse(sock)
    response.begin()
    response.read()
    return response.status


def post_head(method: str, length: int | None, content_type: str = "application/json") -> bytes:
    framing = "Transfer-Encoding: chunked" if length is None else f"Content-Length: {length}"
    return f"POST {SERVICE}/{method} HTTP/1.1\r\nHost: x\r\nContent-Type: {content_type}\r\n{framing}\r\n\r\n".encode()


# Headers.


@pytest.mark.timing
def test_a_request_whose_headers_trickle_is_dropped_and_counted(edge: int) -> None:
    before = count("unknown", "header_timeout")
    with connect(edge) as sock:
        sock.sendall(f"POST {SERVICE}/GetCatalog HTTP/1.1\r\nX-Slow: ".encode())
        started = time.monotonic()
        assert closed_by_server(sock)
        assert time.monotonic() - started < CLOSED_WITHIN_SECONDS
    wait_until(lambda: count("unknown", "header_timeout") == before + 1)


def test_headers_over_16_kib_are_refused_unread_and_counted(edge: int) -> None:
    # Rule: a request's headers are at most HEADER_BYTES; the server answers 431 and stops reading.
    before = count("unknown", "headers_incomplete")
    with connect(edge) as sock:
        sock.sendall(f"POST {SERVICE}/GetCatalog HTTP/1.1\r\nX-Big: ".encode() + b"a" * (20 * 1024))
        reply = read_all(sock)
    assert reply.startswith(b"HTTP/1.1 431"), reply[:40]
    wait_until(lambda: count("unknown", "headers_incomplete") == before + 1)


# Bodies.


@pytest.mark.timing
def test_a_stalled_body_is_dropped_after_its_grace_and_counted(edge: int) -> None:
    before = count("CreateGame", "body_timeout")
    with connect(edge) as sock:
        sock.sendall(post_head("CreateGame", 100) + b"{")
        started = time.monotonic()
        reply = read_all(sock)
    assert time.monotonic() - started < CLOSED_WITHIN_SECONDS
    assert reply.startswith(b"HTTP/1.1 408")
    assert json.loads(reply.split(b"\r\n\r\n", 1)[1])["code"] == "deadline_exceeded"
    assert count("CreateGame", "body_timeout") == before + 1


@pytest.mark.timing
def test_a_body_trickling_below_the_minimum_rate_is_dropped(edge: int) -> None:
    # Rule: after its grace a body must arrive at MIN_BODY_BYTES_PER_SECOND on average; a byte every 0.1 s is far
    # below it, and the body is dropped although bytes keep coming.
    with connect(edge) as sock:
        sock.sendall(post_head("CreateGame", 10_000))
        started = time.monotonic()
        dropped = False
        while time.monotonic() - started < CLOSED_WITHIN_SECONDS:
            try:
                sock.sendall(b" ")
            except OSError:
                dropped = True
                break
            sock.settimeout(0.1)
            try:
                if sock.recv(4096).startswith(b"HTTP/1.1 408"):
                    dropped = True
                    break
            except TimeoutError:
                continue
    assert dropped


@pytest.mark.parametrize("megabytes", [2, 20])
def test_a_client_sending_a_body_over_the_limit_gets_the_refusal_not_a_reset(edge: int, megabytes: int) -> None:
    # Rule: every bad input gets a clear error. The body is refused from its announced length, unread; closing at
    # once with its bytes unread would make the kernel reset the connection before the client, still sending, read
    # the 413: the server reads and drops the rest for at most LINGER_SECONDS.
    body = b"\n" * (megabytes << 20)
    headers = {"content-type": "application/proto", "connect-protocol-version": "1"}
    for _ in range(5):
        conn = http.client.HTTPConnection("127.0.0.1", edge, timeout=10)
        try:
            conn.request("POST", f"{SERVICE}/ApplyAction", body=body, headers=headers)
            response = conn.getresponse()
            assert response.status == 413
            assert json.loads(response.read())["code"] == "resource_exhausted"
        finally:
            conn.close()
    assert healthz(edge).startswith(b"HTTP/1.1 200")


@pytest.mark.timing
def test_a_client_that_keeps_sending_after_a_refusal_is_closed_within_the_linger_time(edge: int) -> None:
    with connect(edge) as sock:
        sock.sendall(post_head("ApplyAction", 1_000_000_000, "application/proto"))
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
        reply = read_all(sock)
        sender.join()
    assert reply.startswith(b"HTTP/1.1 413")
    assert stopped and stopped[0] < LINGER_SECONDS + CLOSED_WITHIN_SECONDS, "the server closed it in time"


def test_over_the_body_budget_the_slowest_large_body_makes_room_and_small_requests_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Rule: bodies are counted from the bytes received, beyond each one's first SMALL_BODY_BYTES.
    monkeypatch.setattr(guard_module, "BODY_BYTES_IN_FLIGHT", 100_000)
    clock = MovableClock()
    monkeypatch.setattr(guard_module, "time", clock)
    with serve(monkeypatch, 60.0) as server:
        before = count("CreateGame", "bodies_in_flight")
        with connect(server.port) as slow, connect(server.port) as fast:
            slow.sendall(post_head("CreateGame", 500_000) + b"x" * 90_000)  # within the budget, then no more
            held = 90_000 - guard_module.SMALL_BODY_BYTES
            wait_until(lambda: server.guard.reading_bytes == held, what="the slow body's bytes to be held")
            clock.ahead += 1.0  # a second later its rate has fallen to 90 kB/s
            fast.sendall(post_head("CreateGame", 500_000) + b"x" * 60_000)  # over the budget: the slow one goes
            reply = read_all(slow)
            assert reply.startswith(b"HTTP/1.1 429"), reply[:40]
            small = http_post(server.port, "CreateGame", CREATE_GAME)
            assert small[0] == 200, small
        assert count("CreateGame", "bodies_in_flight") == before + 1


def test_at_the_readers_limit_the_least_progressed_body_makes_room(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(guard_module, "MAX_READERS", 2)
    with serve(monkeypatch, 60.0) as server:
        before = count("CreateGame", "readers_limit")
        with connect(server.port) as oldest, connect(server.port) as other:
            oldest.sendall(post_head("CreateGame", 100))
            wait_until(lambda: server.guard.bodies_being_read() == 1, what="the oldest body to be read")
            other.sendall(post_head("CreateGame", 100) + b"{")  # a byte of progress: the oldest has made none
            wait_until(lambda: server.guard.bodies_being_read() == 2, what="both bodies to be read")
            assert http_post(server.port, "CreateGame", CREATE_GAME)[0] == 200
            assert read_all(oldest).startswith(b"HTTP/1.1 429")
        assert count("CreateGame", "readers_limit") == before + 1


# Connections.


def test_at_the_cap_the_least_progressed_connection_makes_room_and_healthz_gets_in(patient_edge: HttpServer) -> None:
    before = count("unknown", "connection_limit")
    idle = [connect(patient_edge.port) for _ in range(CAP)]
    try:
        listener = patient_edge.listener
        wait_until(lambda: listener.open_connections() == CAP, what="the server to take every connection in")
        assert keep_alive_healthz(idle[1]) == 200  # progress on the second: it stays
        assert healthz(patient_edge.port).startswith(b"HTTP/1.1 200")
        assert closed_by_server(idle[0]), "the oldest idle connection was shut down for the new one"
        assert keep_alive_healthz(idle[1]) == 200
    finally:
        for sock in idle:
            sock.close()
    assert count("unknown", "connection_limit") == before + 1


# What a client sees.


def test_a_request_whose_client_half_closed_its_side_is_answered(edge: int) -> None:
    # HTTP/1.1 lets a client shut its sending side once its request is sent (nc -N): it still gets its answer.
    requests = [
        post_head("CreateGame", len(CREATE_GAME)) + CREATE_GAME,
        post_head("GetCatalog", 2) + b"{}",
        b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
    ]
    for request in requests:
        for _ in range(HALF_CLOSED_TRIES):
            with connect(edge) as sock:
                sock.sendall(request)
                sock.shutdown(socket.SHUT_WR)
                reply = read_all(sock)
            assert reply.startswith(b"HTTP/1.1 200"), (request[:40], reply[:40])


def test_http2_without_tls_serves_connect_calls(edge: int) -> None:
    connection = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    connection.initiate_connection()
    with connect(edge) as sock:
        sock.sendall(connection.data_to_send())
        stream = connection.get_next_available_stream_id()
        headers = [
            (":method", "POST"),
            (":path", f"{SERVICE}/CreateGame"),
            (":scheme", "http"),
            (":authority", "127.0.0.1"),
            ("content-type", "application/json"),
        ]
        connection.send_headers(stream, headers)
        connection.send_data(stream, CREATE_GAME, end_stream=True)
        sock.sendall(connection.data_to_send())
        status, body, ended = "", b"", False
        while not ended:
            for event in connection.receive_data(sock.recv(65536)):
                if isinstance(event, h2.events.ResponseReceived):
                    status = dict(event.headers)[b":status"].decode()
                elif isinstance(event, h2.events.DataReceived):
                    body += event.data
                    connection.acknowledge_received_data(event.flow_controlled_length, stream)
                elif isinstance(event, h2.events.StreamEnded):
                    ended = True
            sock.sendall(connection.data_to_send())
    assert status == "200"
    assert json.loads(body)["state"]["config"]["numPlayers"] == 2


def test_an_expensive_call_never_takes_a_cheap_calls_place(monkeypatch: pytest.MonkeyPatch) -> None:
    # One cheap place, one expensive slot: a search move running over HTTP leaves the cheap place free.
    from tests.edge.support import ismcts_move

    with serve(monkeypatch, 60.0, max_concurrent_rpcs=1) as server:
        search = threading.Thread(
            target=http_post,
            args=(server.port, "ApplyAction", ismcts_move().SerializeToString(), "application/proto"),
        )
        search.start()
        admission = server.guard.admission
        wait_until(lambda: admission.expensive_running == 1)
        assert admission.active == 0
        assert http_post(server.port, "CreateGame", CREATE_GAME)[0] == 200
        search.join(timeout=30)


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
        reply = wait_until(lambda: (answer := healthz(server.port)).startswith(b"HTTP/1.1 503") and answer)
        assert reply.endswith(b"STUCK\n")
        admission.release()  # it ended: progress
        assert healthz(server.port).startswith(b"HTTP/1.1 200")
    finally:
        server.stop()


def http_post(port: int, method: str, body: bytes, content_type: str = "application/json") -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("POST", f"{SERVICE}/{method}", body=body, headers={"content-type": content_type})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()
