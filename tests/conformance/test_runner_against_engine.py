"""The Python runner passes every vector against this engine, over gRPC and over Connect; and the command runs
them by address."""

from __future__ import annotations

import pytest
from splendor_client.conformance import Corpus, Options, open_transport, run
from splendor_client.conformance.cli import main

from tests.conformance.conftest import VECTORS, Addresses


@pytest.mark.e2e
def test_every_vector_passes_over_grpc(corpus: Corpus, addresses: Addresses) -> None:
    transport = open_transport("grpc", addresses.grpc, 30.0)
    try:
        report = run(corpus, transport)
    finally:
        transport.close()
    assert report.failures == []
    assert (report.calls, report.games) == (corpus.calls, len(corpus.games))


@pytest.mark.e2e
def test_the_sealed_sessions_and_the_refusals_pass_over_connect(corpus: Corpus, addresses: Addresses) -> None:
    """Tokens, seat keys and errors' details through the Connect transport; the other calls are the same calls as
    over gRPC (the command below runs a ruleset's plain cases over Connect)."""
    transport = open_transport("connect", f"http://{addresses.http}", 30.0)
    try:
        report = run(corpus, transport, Options(only="/(sealed|refusal)/", games=False))
    finally:
        transport.close()
    assert report.failures == []
    assert report.calls > 500


@pytest.mark.e2e
def test_the_command_runs_the_vectors_by_address(addresses: Addresses, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["--address", addresses.grpc, "--vectors", str(VECTORS), "--only", "^cities/", "--quiet"])
    printed = capsys.readouterr().out
    assert status == 0, printed
    assert "all passed" in printed


@pytest.mark.e2e
def test_the_command_skips_engine_specific_cases_when_asked(
    corpus: Corpus, addresses: Addresses, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--address", addresses.http, "--protocol", "connect", "--vectors", str(VECTORS), "--only", "^orient-2p"]
    assert main([*argv, "--skip-engine-specific", "--no-games", "--quiet"]) == 0
    skipped = sum(case.engine_specific for case in corpus.cases if case.name.startswith("orient-2p"))
    assert skipped > 0
    assert f"{skipped} engine-specific cases skipped" in capsys.readouterr().out


def test_the_command_refuses_a_directory_without_vectors(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--address", "127.0.0.1:1", "--vectors", str(tmp_path)]) == 2
    assert "no manifest.json" in capsys.readouterr().err
