"""A runner that cannot fail proves nothing: against this engine with one planted fault (conformance/planted_fault.py)
the Python runner reports the cases the fault touches, and the command exits 1."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from splendor_client.conformance import Corpus, Options, load, open_transport, run
from splendor_client.conformance.cli import main

from conformance.planted_fault import FAULTS, build
from tests.conformance.conftest import VECTORS

# For each fault, cases it must break (a regular expression over case names) and a reason to expect in the report.
BROKEN = {
    "events": ("^base-2p-greedy/apply/", "events"),
    "reason": ("^base/refusal/action/", "refused with FAILED_PRECONDITION GAME_OVER"),
    "digest": ("^base-2p-greedy", "the digest after action"),
    "view": ("^base-2p-greedy/view/", "view.bank.white"),
}


@pytest.fixture(params=sorted(FAULTS))
def faulty(request: pytest.FixtureRequest) -> Iterator[tuple[str, str]]:
    fault: str = request.param
    server, port = build(fault)
    server.start()
    try:
        yield fault, f"127.0.0.1:{port}"
    finally:
        server.stop(0).wait()


def test_every_fault_is_tested() -> None:
    assert set(BROKEN) == set(FAULTS)


@pytest.mark.e2e
def test_the_runner_fails_against_a_planted_fault(corpus: Corpus, faulty: tuple[str, str]) -> None:
    fault, address = faulty
    only, why = BROKEN[fault]
    transport = open_transport("grpc", address, 30.0)
    try:
        report = run(corpus, transport, Options(only=only))
    finally:
        transport.close()
    assert not report.passed
    assert any(why in failure.why for failure in report.failures), report.failures[:3]


@pytest.mark.e2e
def test_the_command_exits_1_against_a_planted_fault(
    faulty: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    fault, address = faulty
    assert main(["--address", address, "--vectors", str(VECTORS), "--only", BROKEN[fault][0], "--quiet"]) == 1
    assert "FAILED" in capsys.readouterr().out


def test_the_planted_server_serves_the_engine_otherwise() -> None:
    """The fault is the only difference: the cases it does not touch pass against it."""
    server, port = build("view")
    server.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            grpc.channel_ready_future(channel).result(timeout=10)
        transport = open_transport("grpc", f"127.0.0.1:{port}", 30.0)
        try:
            report = run(load(VECTORS), transport, Options(only="^base-2p-greedy/apply/"))
        finally:
            transport.close()
    finally:
        server.stop(0).wait()
    assert report.failures == [] and report.calls > 10
