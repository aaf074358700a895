"""Deadlines and cancellation on every transport: a search move with a 1 s deadline ends within 1.5 s over
gRPC, Connect and gRPC-Web (its best move so far, or DEADLINE_EXCEEDED); a call whose caller hung up stops
within 1 s; the server's own budget (--max-call-seconds, 5 s by default) ends a call nobody bounded."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from typing import Any

import grpc
import pytest

from tests.edge.support import (
    frame,
    http_port,
    http_post,
    ismcts_move,
    maximal_simulate,
    started_calls,
    wait_for_started,
)
from tests.ops.support import Server, stub

pytestmark = pytest.mark.e2e

DEADLINE_SECONDS = 1.0
ENDS_WITHIN_SECONDS = 1.5
STOPS_WITHIN_SECONDS = 1.0  # after the caller hangs up
BUDGET_SECONDS = 5.0  # the default --max-call-seconds
# The budget of the server that checks it: well below the work of maximal_simulate (~5 s of CPU in pure Python on
# an idle 2-core machine), so the budget, not the end of the work, always ends the call.
SHORT_BUDGET_SECONDS = 1.0
# A search far longer than the hang-up (~50 s of CPU in pure Python, cut at half the 5 s budget): only the
# cancellation can end it within STOPS_WITHIN_SECONDS.
LONG_SEARCH_ITERATIONS = 100_000


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with Server() as running:
        yield running
        assert running.stop() == 0


def test_a_search_move_with_a_1s_deadline_ends_within_1_5s_over_grpc(server: Server) -> None:
    channel = server.channel()
    started = time.monotonic()
    try:
        stub(channel).ApplyAction(ismcts_move(), timeout=DEADLINE_SECONDS)
        code = grpc.StatusCode.OK
    except grpc.RpcError as error:
        code = error.code()
    elapsed = time.monotonic() - started
    channel.close()
    assert code in (grpc.StatusCode.OK, grpc.StatusCode.DEADLINE_EXCEEDED)
    assert elapsed < ENDS_WITHIN_SECONDS, elapsed


def test_a_search_move_with_a_1s_deadline_ends_within_1_5s_over_connect(server: Server) -> None:
    answer = http_post(
        http_port(server),
        "ApplyAction",
        ismcts_move().SerializeToString(),
        "application/proto",
        headers={"Connect-Timeout-Ms": str(int(DEADLINE_SECONDS * 1000)), "X-Request-Id": "connect-deadline"},
    )
    assert answer.status in (200, 504), answer  # OK, or deadline_exceeded (HTTP 504 in Connect)
    assert answer.seconds < ENDS_WITHIN_SECONDS, answer.seconds
    line = server.call_log("connect-deadline")
    assert line["code"] in ("OK", "DEADLINE_EXCEEDED") and line["duration_ms"] < ENDS_WITHIN_SECONDS * 1000


def test_a_search_move_with_a_1s_deadline_ends_within_1_5s_over_grpc_web(server: Server) -> None:
    answer = http_post(
        http_port(server),
        "ApplyAction",
        frame(ismcts_move().SerializeToString()),
        "application/grpc-web+proto",
        headers={"Grpc-Timeout": f"{int(DEADLINE_SECONDS * 1000)}m", "X-Request-Id": "grpc-web-deadline"},
    )
    assert answer.status == 200 and answer.grpc_status() in ("0", "4"), answer
    assert answer.seconds < ENDS_WITHIN_SECONDS, answer.seconds
    assert server.call_log("grpc-web-deadline")["code"] in ("OK", "DEADLINE_EXCEEDED")


def test_an_http_call_whose_caller_hung_up_stops_within_1s(server: Server) -> None:
    body = maximal_simulate().SerializeToString()
    head = (
        "POST /splendor.v1.EngineService/Simulate HTTP/1.1\r\nHost: x\r\nContent-Type: application/proto\r\n"
        f"X-Request-Id: hung-up-http\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    before = started_calls(server, "Simulate")
    with socket.create_connection(("127.0.0.1", http_port(server)), timeout=5) as sock:
        sock.sendall(head.encode() + body)
        sent = time.monotonic()
        wait_for_started(server, "Simulate", before + 1)  # the call is on the server: hang up
        hung_up_after = time.monotonic() - sent
    line = server.call_log("hung-up-http", timeout=BUDGET_SECONDS + 5)
    assert line["code"] == "CANCELLED"
    assert line["duration_ms"] < (hung_up_after + STOPS_WITHIN_SECONDS) * 1000, line


def cancelled_call_log(server: Server, rpc: str, request: Any, request_id: str) -> tuple[dict[str, Any], float]:
    """The log line of a gRPC call its caller cancelled once the server had started it, and the seconds from
    sending it to cancelling it."""
    channel = server.channel()
    before = started_calls(server, rpc)
    future = getattr(stub(channel), rpc).future(request, metadata=[("x-request-id", request_id)])
    sent = time.monotonic()
    wait_for_started(server, rpc, before + 1)
    hung_up_after = time.monotonic() - sent
    future.cancel()
    line = server.call_log(request_id, timeout=BUDGET_SECONDS + 5)
    channel.close()
    return line, hung_up_after


def test_a_grpc_call_whose_caller_cancelled_stops_within_1s(server: Server) -> None:
    line, hung_up_after = cancelled_call_log(server, "Simulate", maximal_simulate(), "hung-up-grpc")
    assert line["code"] == "CANCELLED"
    assert line["duration_ms"] < (hung_up_after + STOPS_WITHIN_SECONDS) * 1000, line


def test_a_search_move_whose_caller_cancelled_stops_within_1s() -> None:
    """The search asks the call after every iteration: without a deadline it would run its budget out.

    Its own server allows long searches: at the default cap (1,000 iterations) the search ends in ~0.5 s, as
    soon as the caller hangs up, and the call raced the cancellation (1 run in ~30 ended OK).
    """
    with Server("--max-bot-iterations", str(LONG_SEARCH_ITERATIONS)) as long_searches:
        request = ismcts_move(iterations=LONG_SEARCH_ITERATIONS)
        line, hung_up_after = cancelled_call_log(long_searches, "ApplyAction", request, "hung-up-search")
        assert long_searches.stop() == 0
    assert line["code"] == "CANCELLED", line
    assert line["duration_ms"] < (hung_up_after + STOPS_WITHIN_SECONDS) * 1000, line


def test_the_servers_budget_ends_a_call_without_a_deadline() -> None:
    with Server("--max-call-seconds", str(SHORT_BUDGET_SECONDS)) as short_budget:
        channel = short_budget.channel()
        with pytest.raises(grpc.RpcError) as stopped:
            stub(channel).Simulate(maximal_simulate(), metadata=[("x-request-id", "over-budget")], timeout=60)
        channel.close()
        line = short_budget.call_log("over-budget")
        assert short_budget.stop() == 0
    assert stopped.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    budget_ms = SHORT_BUDGET_SECONDS * 1000
    assert budget_ms <= line["duration_ms"] < budget_ms + STOPS_WITHIN_SECONDS * 1000, line
