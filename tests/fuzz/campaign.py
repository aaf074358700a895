"""One fuzzing run: mutated requests of every RPC sent to a live server over gRPC or HTTP (Connect), every
answer classified."""

from __future__ import annotations

import random
import time
from collections import deque
from collections.abc import Iterator
from itertools import islice

import grpc

from tests.fuzz.corpus import RPCS, SERVICE, Seed
from tests.fuzz.findings import Findings
from tests.fuzz.mutations import (
    Mutation,
    byte_mutation,
    proto_mutation,
    systematic_mutations,
    without_optional_scalars,
)
from tests.fuzz.server import DEADLINE_SECONDS, call, http_call, http_connection, outcome_of, raw_channel, rss_bytes

RSS_EVERY = 200  # requests between two RSS readings


def mutated(seeds: list[Seed], rng: random.Random) -> Iterator[tuple[str, Mutation]]:
    """Endless random mutations: two protobuf-level for one byte-level."""
    while True:
        seed = rng.choice(seeds)
        mutate = byte_mutation if rng.random() < 1 / 3 else proto_mutation
        yield seed.rpc, mutate(rng, seed.request)


def systematic(seeds: list[Seed]) -> Iterator[tuple[str, Mutation]]:
    """Every top-level integer and enum field of one valid request per RPC, at every extreme: once as
    sent, once without its optional guards (an ApplyAction's expected_turn refuses a changed turn
    before anything else would look at it)."""
    first: dict[str, Seed] = {}
    for seed in seeds:
        first.setdefault(seed.rpc, seed)
    for seed in first.values():
        for request in (seed.request, without_optional_scalars(seed.request)):
            for mutation in systematic_mutations(request):
                yield seed.rpc, mutation


def pool(seeds: list[Seed], rng: random.Random, size: int) -> list[tuple[str, Mutation]]:
    """``size`` random mutations built in advance, so that a long campaign's client spends its time sending."""
    return list(islice(mutated(seeds, rng), size))


def run_pooled(
    address: str,
    server_pids: list[int],
    mutations: list[tuple[str, Mutation]],
    rng: random.Random,
    count: int,
    *,
    deadline: float,
    in_flight: int = 8,
) -> Findings:
    """Send ``count`` requests drawn from ``mutations``, ``in_flight`` at a time, until ``deadline``."""
    findings = Findings()
    pending: deque[tuple[str, Mutation, grpc.Future]] = deque()
    with raw_channel(address) as channel:
        methods = {
            rpc: channel.unary_unary(SERVICE + rpc, request_serializer=None, response_deserializer=None) for rpc in RPCS
        }
        sent = 0
        while sent < count or pending:
            while sent < count and len(pending) < in_flight:
                rpc, mutation = mutations[rng.randrange(len(mutations))]
                pending.append((rpc, mutation, methods[rpc].future(mutation[1], timeout=DEADLINE_SECONDS)))
                sent += 1
            rpc, (name, data), future = pending.popleft()
            findings.record(rpc, name, data, outcome_of(rpc, future))
            if findings.requests % (RSS_EVERY * 10) == 0:
                findings.max_rss_bytes = max([findings.max_rss_bytes, *(rss_bytes(pid) for pid in server_pids)])
                if time.monotonic() > deadline:
                    count = sent  # stop sending; collect what is in flight
    findings.max_rss_bytes = max([findings.max_rss_bytes, *(rss_bytes(pid) for pid in server_pids)])
    return findings


def run(
    address: str,
    server_pid: int,
    seeds: list[Seed],
    rng: random.Random,
    count: int,
    *,
    with_systematic: bool = True,
    deadline: float | None = None,
) -> Findings:
    """Send ``count`` random mutations (after the systematic ones) to the server; stop early at ``deadline``
    (a ``time.monotonic()`` value)."""
    findings = Findings()
    requests = islice(mutated(seeds, rng), count)
    if with_systematic:
        requests = _chain(systematic(seeds), requests)
    with raw_channel(address) as channel:
        for rpc, (name, data) in requests:
            findings.record(rpc, name, data, call(channel, rpc, data))
            if findings.requests % RSS_EVERY == 0:
                findings.max_rss_bytes = max(findings.max_rss_bytes, rss_bytes(server_pid))
                if deadline is not None and time.monotonic() > deadline:
                    break
    findings.max_rss_bytes = max(findings.max_rss_bytes, rss_bytes(server_pid))
    return findings


def run_http(
    http_address: str,
    server_pids: list[int],
    mutations: list[tuple[str, Mutation]],
    rng: random.Random,
    count: int,
    *,
    deadline: float,
) -> Findings:
    """Send ``count`` requests drawn from ``mutations`` over Connect (binary protobuf, one keep-alive connection,
    one at a time), until ``deadline``."""
    findings = Findings()
    connection = http_connection(http_address)
    try:
        for _ in range(count):
            rpc, (name, data) = mutations[rng.randrange(len(mutations))]
            findings.record(rpc, name, data, http_call(connection, rpc, data))
            if findings.requests % RSS_EVERY == 0:
                findings.max_rss_bytes = max([findings.max_rss_bytes, *(rss_bytes(pid) for pid in server_pids)])
                if time.monotonic() > deadline:
                    break
    finally:
        connection.close()
    findings.max_rss_bytes = max([findings.max_rss_bytes, *(rss_bytes(pid) for pid in server_pids)])
    return findings


def _chain(*parts: Iterator[tuple[str, Mutation]]) -> Iterator[tuple[str, Mutation]]:
    for part in parts:
        yield from part
