"""A long fuzzing campaign against a real server: mutated requests of every RPC from several
client processes, over gRPC and over HTTP (Connect), bounded in requests and in time.

    make fuzz                                                         # 1,000,000 requests, at most 40 min
    .venv/bin/python benchmarks/fuzz_campaign.py --requests 50000 --minutes 5 --clients 2
    .venv/bin/python benchmarks/fuzz_campaign.py --address 127.0.0.1:50051   # a server you started

Starts ``splendor-engine serve --processes 2`` on loopback ports unless ``--address`` is given, with a
known test key ring (tests/fuzz/server.py), builds valid requests of every RPC (every module, 2-4
players, plain and sealed with seat keys) and forged tokens (states no game reaches, sealed under
the test key), then each client process builds a pool of protobuf- and byte-level mutations of them
(tests/fuzz/mutations.py) and sends requests drawn from it: the gRPC clients several in flight, so
that the client's time goes into sending, the HTTP clients (``--http-clients``) one at a time on a
keep-alive connection.
First, one client sends the systematic mutations (every integer and enum field at every extreme).
Prints the count of each status code, every distinct fault (INTERNAL, UNKNOWN, DEADLINE_EXCEEDED)
with its smallest example, the peak RSS of the server's processes, and whether it is still alive.
Exit status 1 if any fault was found or the server died.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing

from engine_service.sealing import parse_key_ring
from tests.fuzz import campaign
from tests.fuzz.corpus import Seed, build_corpus
from tests.fuzz.findings import Findings
from tests.fuzz.server import FUZZ_KEYS, FuzzTarget, process_tree, raw_channel, rss_bytes

# (transport, address, server pids, seeds, client index, seed, requests, pool size, deadline)
Job = tuple[str, str, list[int], list[Seed], int, int, int, int, float]


def client(job: Job) -> tuple[str, Findings]:
    transport, address, server_pids, seeds, index, seed, count, pool_size, deadline_wall = job
    deadline = time.monotonic() + max(0.0, deadline_wall - time.time())
    rng = random.Random(seed * 1000 + index)
    findings = Findings()
    if index == 0:
        findings.merge(campaign.run(address, server_pids[0], seeds, rng, 0, deadline=deadline))
    mutations = campaign.pool(seeds, rng, pool_size)
    if transport == "http":
        findings.merge(campaign.run_http(address, server_pids, mutations, rng, count, deadline=deadline))
    else:
        findings.merge(campaign.run_pooled(address, server_pids, mutations, rng, count, deadline=deadline))
    return transport, findings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=1_000_000, help="random mutations in all")
    parser.add_argument("--minutes", type=float, default=40.0, help="stop after this long even if requests remain")
    parser.add_argument("--clients", type=int, default=3, help="client processes over gRPC")
    parser.add_argument("--http-clients", type=int, default=1, help="client processes over HTTP (Connect)")
    parser.add_argument("--pool", type=int, default=4_000, help="mutations each client builds and draws from")
    parser.add_argument("--processes", type=int, default=2, help="server processes (--processes of the server)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the corpus and of the mutations")
    parser.add_argument("--address", help="fuzz this server instead of starting one (RSS then unknown)")
    parser.add_argument("--http-address", help="with --address: its HTTP listener (else no HTTP clients)")
    parser.add_argument(
        "--keys", help="with --address: its key ring, to forge tokens (default: none forged)", default=""
    )
    args = parser.parse_args()

    target = None if args.address else FuzzTarget("--processes", str(args.processes))
    address = args.address or target.address  # type: ignore[union-attr]
    http_address = args.http_address if args.address else target.http_address  # type: ignore[union-attr]
    keys = args.keys if args.address else FUZZ_KEYS
    http_clients = args.http_clients if http_address else 0
    pid = target.process.pid if target else 0
    pids = process_tree(pid) if pid else []
    started = time.monotonic()
    try:
        with raw_channel(address) as channel:
            seeds = build_corpus(channel, random.Random(args.seed), ring=parse_key_ring(keys) if keys else None)
        forged = sum(seed.forged for seed in seeds)
        print(
            f"corpus: {len(seeds)} requests ({forged} with forged tokens); fuzzing {address} with {args.clients} "
            f"gRPC clients and {http_clients} HTTP clients ({http_address})",
            flush=True,
        )
        deadline_wall = time.time() + args.minutes * 60
        clients = args.clients + http_clients
        share = -(-args.requests // clients)
        jobs: list[Job] = [
            ("grpc" if index < args.clients else "http", address if index < args.clients else http_address)
            + (pids, seeds, index, args.seed, share, args.pool, deadline_wall)
            for index in range(clients)
        ]
        total = Findings()
        by_transport: dict[str, Findings] = {}
        with multiprocessing.Pool(clients) as pool:
            for transport, findings in pool.imap_unordered(client, jobs):
                total.merge(findings)
                by_transport.setdefault(transport, Findings()).merge(findings)
        total.max_rss_bytes = max([total.max_rss_bytes, *(rss_bytes(each) for each in pids)])
        seconds = time.monotonic() - started
        print(f"{seconds:.0f} s, {total.requests / seconds:.0f} requests/s; server processes {pids}")
        print("final RSS per server process: " + ", ".join(f"{rss_bytes(each) / 2**20:.0f} MiB" for each in pids))
        for transport, findings in sorted(by_transport.items()):
            print(
                f"{transport}: {findings.requests} requests; "
                + ", ".join(f"{code} {count}" for code, count in findings.codes.most_common())
            )
        print(total.summary())
        alive = target.alive if target else True
        print(f"server alive: {alive}")
        return 1 if total.faults or not alive else 0
    finally:
        if target:
            target.stop()


if __name__ == "__main__":
    sys.exit(main())
