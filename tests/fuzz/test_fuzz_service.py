"""Mutated requests of every RPC against a real server, over gRPC and over HTTP (Connect): no crash
(INTERNAL/UNKNOWN), the server alive, its memory bounded; sealed requests carry seat keys, and forged
tokens (states sealed under the server's test key) are among them. ``benchmarks/fuzz_campaign.py``
runs the same for a million requests."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import grpc
import pytest
from google.protobuf.message import Message

from engine_service.sealing import parse_key_ring
from tests.fuzz import campaign
from tests.fuzz.corpus import RPCS, Seed, build_corpus
from tests.fuzz.findings import Findings
from tests.fuzz.server import FUZZ_KEYS, FuzzTarget, call

pytestmark = pytest.mark.e2e

REQUESTS = 2000  # random mutations, after the systematic ones (~460)
HTTP_REQUESTS = 600  # random mutations over Connect
# The Deployment's memory limit (deploy/kubernetes/deployment.yaml): a request that pushes the
# server past it gets the pod killed.
RSS_LIMIT_BYTES = 256 * 2**20


@pytest.fixture(scope="module")
def target() -> Iterator[FuzzTarget]:
    server = FuzzTarget()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def seeds(target: FuzzTarget) -> list[Seed]:
    return build_corpus(target.channel, random.Random(1), steps=45, ring=parse_key_ring(FUZZ_KEYS))


@pytest.fixture(scope="module")
def findings(target: FuzzTarget, seeds: list[Seed]) -> Findings:
    result = campaign.run(target.address, target.process.pid, seeds, random.Random(2), REQUESTS)
    print("\n" + result.summary())
    return result


@pytest.fixture(scope="module")
def http_findings(target: FuzzTarget, seeds: list[Seed]) -> Findings:
    rng = random.Random(3)
    mutations = campaign.pool(seeds, rng, HTTP_REQUESTS)
    deadline = time.monotonic() + 300
    result = campaign.run_http(
        target.http_address, [target.process.pid], mutations, rng, HTTP_REQUESTS, deadline=deadline
    )
    print("\nHTTP: " + result.summary())
    return result


def test_the_corpus_holds_valid_requests_of_every_rpc(target: FuzzTarget, seeds: list[Seed]) -> None:
    assert {seed.rpc for seed in seeds} == set(RPCS)
    sealed = {seed.rpc for seed in seeds if carries_token(seed.request)}
    assert sealed == set(RPCS) - {"GetCatalog"}, "sealed-mode requests of every RPC that takes or makes a token"
    for seed in seeds[:: max(1, len(seeds) // 40)]:
        if not seed.forged:
            assert call(target.channel, seed.rpc, seed.request.SerializeToString()).code == grpc.StatusCode.OK
    # Forged tokens: states the server never sealed are refused (or, sealed as they were, answered), never a crash.
    forged = [call(target.channel, seed.rpc, seed.request.SerializeToString()).code for seed in seeds if seed.forged]
    assert grpc.StatusCode.INVALID_ARGUMENT in forged
    assert set(forged) <= {grpc.StatusCode.OK, grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.FAILED_PRECONDITION}


def carries_token(request: Message) -> bool:
    """A request in sealed mode, or a batch with such an item."""
    if any(field.name.startswith("sealed") for field, _ in request.ListFields()):
        return True
    return any(map(carries_token, getattr(request, "requests", ())))


def test_the_mutations_reach_the_rules_and_not_only_the_parser(findings: Findings) -> None:
    """Not vacuous: many mutants are refused by the rules, and some still pass."""
    assert findings.codes["INVALID_ARGUMENT"] > 100
    assert findings.codes["OK"] > 100
    assert findings.codes["FAILED_PRECONDITION"] > 10


def test_the_server_survives_every_mutation_within_its_memory_limit(target: FuzzTarget, findings: Findings) -> None:
    assert target.alive
    assert findings.max_rss_bytes < RSS_LIMIT_BYTES, findings.summary()


def test_no_mutated_request_crashes_a_handler(findings: Findings) -> None:
    assert not findings.crash_kinds, findings.summary()


def test_no_mutated_request_over_http_crashes_a_handler(target: FuzzTarget, http_findings: Findings) -> None:
    assert target.alive
    assert http_findings.codes["OK"] > 20 and http_findings.codes["INVALID_ARGUMENT"] > 20
    assert not http_findings.crash_kinds, http_findings.summary()


def test_sealed_mutations_meet_the_seat_key_check(findings: Findings) -> None:
    """Mutated seat keys and seats are refused as PERMISSION_DENIED: the check is reached, not bypassed."""
    assert findings.codes["PERMISSION_DENIED"] > 10
