"""Refusals are fast and every call not served leaves a trace: over the limit, HTTP and gRPC refuse
within 0.2 s (the median of 5 each; none over 1 s); calls that expired while queued, edge refusals and
malformed framing are counted in ``splendor_calls_not_served_total`` and logged; framing errors are the
caller's (INVALID_ARGUMENT), never INTERNAL or UNIMPLEMENTED, so they spare the availability objective."""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator

import grpc
import pytest
from splendor.v1 import engine_service_pb2

from tests.edge.support import (
    REFUSAL_SECONDS,
    headers_only,
    http_port,
    http_post,
    ismcts_move,
    maximal_simulate,
    wait_for_started,
)
from tests.ops.support import ENGINE, Server, delta, stub
from tests.ops.test_shutdown import slow_view_request

pytestmark = pytest.mark.e2e

NOT_SERVED = "splendor_calls_not_served_total"
QUEUED_CALLS = 5
ATTEMPTS = 5  # refusals timed per transport
LONG_SEARCH = 100_000  # iterations: seconds of CPU, cut at half the call's budget


@pytest.fixture(scope="module")
def limited() -> Iterator[Server]:
    """One cheap engine call admitted at a time, on one thread; searches as long as the budget allows."""
    with Server("--max-concurrent-rpcs", "1", "--threads", "1", "--max-bot-iterations", str(LONG_SEARCH)) as running:
        yield running
        assert running.stop() == 0


def test_over_the_limit_http_and_grpc_refuse_within_0_2s(limited: Server) -> None:
    channel = limited.channel()
    engine = stub(channel)
    # A search move is expensive by its content: over gRPC it runs on the cheap thread, holding the one cheap place
    # (and the expensive slot) for half the 5 s budget. (A Simulate would not: it has places of its own.)
    busy = engine.ApplyAction.future(ismcts_move(iterations=LONG_SEARCH), timeout=30)
    wait_for_started(limited, "ApplyAction", 1)
    before = limited.scrape()

    grpc_seconds = []
    codes = []
    for _ in range(ATTEMPTS):
        started = time.monotonic()
        try:
            engine.GetCatalog(engine_service_pb2.GetCatalogRequest(), timeout=5)
            codes.append("OK")
        except grpc.RpcError as error:
            codes.append(error.code().name)
        grpc_seconds.append(time.monotonic() - started)
    answers = [headers_only(http_port(limited), "GetCatalog", "application/json", 2) for _ in range(ATTEMPTS)]
    webs = [headers_only(http_port(limited), "GetCatalog", "application/grpc-web+proto", 5) for _ in range(ATTEMPTS)]
    after = limited.scrape()
    busy.cancel()
    channel.close()

    # The median refusal within 0.2 s, and none slower than 1 s (a loaded machine may pause one).
    assert codes == ["RESOURCE_EXHAUSTED"] * ATTEMPTS
    assert statistics.median(grpc_seconds) < REFUSAL_SECONDS and max(grpc_seconds) < 1.0, grpc_seconds
    assert all(a.status == 429 and a.json()["code"] == "resource_exhausted" for a in answers), answers
    assert all(web.status == 200 and web.grpc_status() == "8" for web in webs), webs
    for replies in (answers, webs):
        seconds = [reply.seconds for reply in replies]
        assert statistics.median(seconds) < REFUSAL_SECONDS and max(seconds) < 1.0, seconds
    # gRPC refuses once the call is dispatched: an answered call, in grpc_server_handled_total. The HTTP edge
    # refuses before the runtime sees the request: in splendor_calls_not_served_total only.
    catalog = {"grpc_service": ENGINE, "grpc_method": "GetCatalog"}
    assert delta(before, after, "grpc_server_handled_total", grpc_code="RESOURCE_EXHAUSTED", **catalog) == ATTEMPTS
    refusals = {"reason": "max_concurrent_rpcs", "method": "GetCatalog"}
    assert delta(before, after, NOT_SERVED, transport="grpc", **refusals) == 0
    assert delta(before, after, NOT_SERVED, transport="http", **refusals) == 2 * ATTEMPTS
    lines = limited.wait_for(lambda: [e for e in limited.events("call_not_served") if e["transport"] == "http"])
    assert {line["reason"] for line in lines} == {"max_concurrent_rpcs"}


def test_calls_that_expire_in_the_thread_queue_are_counted_and_logged() -> None:
    # The one thread held for over a second (a 2.8 MB view of 250,000 events, under the raised request
    # limit and the 4 MiB response limit), so the queued calls expire on any machine, however fast.
    with Server("--threads", "1", "--max-request-bytes", str(8 << 20)) as server:
        channel = server.channel()
        engine = stub(channel)
        busy = engine.GetPlayerView.future(slow_view_request(events=250_000), timeout=60)
        wait_for_started(server, "GetPlayerView", 1)
        before = server.scrape()
        queued = [
            engine.GetCatalog.future(engine_service_pb2.GetCatalogRequest(), timeout=0.1) for _ in range(QUEUED_CALLS)
        ]
        codes = []
        for future in queued:
            try:
                future.result()
                codes.append("OK")
            except grpc.RpcError as error:
                codes.append(error.code().name)
        busy.result()
        expired = {"transport": "grpc", "method": "GetCatalog", "reason": "expired_in_queue"}
        server.wait_for(lambda: delta(before, server.scrape(), NOT_SERVED, **expired) == QUEUED_CALLS)
        lines = server.wait_for(lambda: server.events("call_not_served")[QUEUED_CALLS - 1 :])
        channel.close()
        assert server.stop() == 0
    assert codes == ["DEADLINE_EXCEEDED"] * QUEUED_CALLS
    assert {(line["method"], line["reason"], line["transport"]) for line in lines} == {
        ("GetCatalog", "expired_in_queue", "grpc")
    }


def test_a_body_over_the_limit_is_refused_before_it_is_read_and_counted(limited: Server) -> None:
    before = limited.scrape()
    answer = headers_only(http_port(limited), "CreateGame", "application/json", (1 << 20) + 1)  # over 1 MiB
    after = limited.scrape()
    assert answer.status == 413 and answer.json()["code"] == "resource_exhausted", answer
    too_large = {"transport": "http", "method": "CreateGame", "reason": "request_too_large"}
    assert delta(before, after, NOT_SERVED, **too_large) == 1
    assert limited.wait_for(
        lambda: [e for e in limited.events("call_not_served") if e["reason"] == "request_too_large"]
    )


@pytest.mark.parametrize(
    ("name", "body"),
    [
        ("a frame header and no message", b"\0\0\0\0\x10"),
        ("no frame at all", b""),
        ("a truncated header", b"\0\0"),
        ("a compressed frame without compression", b"\x01\0\0\0\0"),
    ],
)
def test_malformed_grpc_web_framing_is_invalid_argument_and_spares_the_availability_objective(
    limited: Server, name: str, body: bytes
) -> None:
    before = limited.scrape()
    request_id = f"framing-{len(body)}-{body[:1].hex()}"
    answer = http_post(
        http_port(limited), "GetCatalog", body, "application/grpc-web+proto", headers={"X-Request-Id": request_id}
    )
    after = limited.scrape()
    assert answer.status == 200 and answer.grpc_status() == "3", (name, answer)
    served = {"grpc_service": ENGINE, "grpc_method": "GetCatalog"}
    for code in ("INTERNAL", "UNIMPLEMENTED", "UNKNOWN"):
        assert delta(before, after, "grpc_server_handled_total", grpc_code=code, **served) == 0
    assert delta(before, after, "grpc_server_handled_total", grpc_code="INVALID_ARGUMENT", **served) == 1
    framing = {"transport": "http", "method": "GetCatalog", "reason": "malformed_framing"}
    assert delta(before, after, NOT_SERVED, **framing) == 1
    line = limited.call_log(request_id)
    assert line["code"] == "INVALID_ARGUMENT" and line["reason"] == "MALFORMED_FRAMING" and line["level"] == "info"
    assert delta(before, after, "splendor_rejections_total") == 0, "not a rejection of the game's rules"


DEADLINES = "splendor_deadline_exceeded_total"
SHORT_DEADLINE_SECONDS = 0.02


def test_a_callers_short_deadline_is_labelled_the_callers_and_spares_the_availability_objective(
    limited: Server,
) -> None:
    # 20 ms for far more playouts than fit: the caller's choice, on either transport.
    # Simulate stops with DEADLINE_EXCEEDED when its time is up (a search move would answer its best move so far).
    before = limited.scrape()
    channel = limited.channel()
    with pytest.raises(grpc.RpcError) as short:
        stub(channel).Simulate(maximal_simulate(), timeout=SHORT_DEADLINE_SECONDS, metadata=[("x-request-id", "short")])
    channel.close()
    answer = http_post(
        http_port(limited),
        "Simulate",
        maximal_simulate().SerializeToString(),
        "application/proto",
        headers={"Connect-Timeout-Ms": str(int(SHORT_DEADLINE_SECONDS * 1000)), "X-Request-Id": "short-http"},
    )
    assert short.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert answer.status == 504 and answer.json()["code"] == "deadline_exceeded", answer
    line = limited.call_log("short")
    http_line = limited.call_log("short-http")
    after = limited.scrape()
    assert line["deadline_cause"] == "caller" and http_line["deadline_cause"] == "caller"
    for transport in ("grpc", "http"):
        caller = {"transport": transport, "method": "Simulate", "cause": "caller"}
        assert delta(before, after, DEADLINES, **caller) == 1, transport
        for cause in ("server_budget", "server_queue"):
            assert delta(before, after, DEADLINES, transport=transport, cause=cause) == 0


def test_the_servers_budget_is_labelled_the_servers() -> None:
    with Server("--max-call-seconds", "0.3") as short_budget:
        before = short_budget.scrape()
        channel = short_budget.channel()
        with pytest.raises(grpc.RpcError) as stopped:
            stub(channel).Simulate(maximal_simulate(), timeout=30, metadata=[("x-request-id", "budget")])
        channel.close()
        line = short_budget.call_log("budget")
        after = short_budget.scrape()
        assert short_budget.stop() == 0
    assert stopped.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert line["deadline_cause"] == "server_budget"
    budget = {"transport": "grpc", "method": "Simulate", "cause": "server_budget"}
    assert delta(before, after, DEADLINES, **budget) == 1
