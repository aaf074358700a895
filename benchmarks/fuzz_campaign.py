"""A long fuzzing campaign against a real server: mutated requests of every RPC from several
client processes, bounded in requests and in time.

    make fuzz                                                         # 1,000,000 requests, at most 40 min
    .venv/bin/python benchmarks/fuzz_campaign.py --requests 50000 --minutes 5 --clients 2
    .venv/bin/python benchmarks/fuzz_campaign.py --address 127.0.0.1:50051   # a server you started

Starts ``splendor-engine serve --processes 2`` on a loopback port unless ``--address`` is given,
builds valid requests of every RPC (every module, 2-4 players, plain and sealed), then each client
process builds a pool of protobuf- and byte-level mutations of them (tests/fuzz/mutations.py) and
sends requests drawn from it, several in flight, so that the client's time goes into sending.
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

from tests.fuzz import campaign
from tests.fuzz.corpus import Seed, build_corpus
from tests.fuzz.findings import Findings
from tests.fuzz.server import FuzzTarget, process_tree, raw_channel, rss_bytes

Job = tuple[str, list[int], list[Seed], int, int, int, int, float]


def client(job: Job) -> Findings:
    address, server_pids, seeds, index, seed, count, pool_size, deadline_wall = job
    deadline = time.monotonic() + max(0.0, deadline_wall - time.time())
    rng = random.Random(seed * 1000 + index)
    findings = Findings()
    if index == 0:
        findings.merge(campaign.run(address, server_pids[0], seeds, rng, 0, deadline=deadline))
    mutations = campaign.pool(seeds, rng, pool_size)
    findings.merge(campaign.run_pooled(address, server_pids, mutations, rng, count, deadline=deadline))
    return findings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=1_000_000, help="random mutations in all")
    parser.add_argument("--minutes", type=float, default=40.0, help="stop after this long even if requests remain")
    parser.add_argument("--clients", type=int, default=3, help="client processes")
    parser.add_argument("--pool", type=int, default=4_000, help="mutations each client builds and draws from")
    parser.add_argument("--processes", type=int, default=2, help="server processes (--processes of the server)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the corpus and of the mutations")
    parser.add_argument("--address", help="fuzz this server instead of starting one (RSS then unknown)")
    args = parser.parse_args()

    target = None if args.address else FuzzTarget("--processes", str(args.processes))
    address = args.address or target.address  # type: ignore[union-attr]
    pid = target.process.pid if target else 0
    pids = process_tree(pid) if pid else []
    started = time.monotonic()
    try:
        with raw_channel(address) as channel:
            seeds = build_corpus(channel, random.Random(args.seed))
        print(f"corpus: {len(seeds)} valid requests; fuzzing {address} with {args.clients} clients", flush=True)
        deadline_wall = time.time() + args.minutes * 60
        share = -(-args.requests // args.clients)
        jobs: list[Job] = [
            (address, pids, seeds, index, args.seed, share, args.pool, deadline_wall) for index in range(args.clients)
        ]
        total = Findings()
        with multiprocessing.Pool(args.clients) as pool:
            for findings in pool.imap_unordered(client, jobs):
                total.merge(findings)
        total.max_rss_bytes = max([total.max_rss_bytes, *(rss_bytes(each) for each in pids)])
        seconds = time.monotonic() - started
        print(f"{seconds:.0f} s, {total.requests / seconds:.0f} requests/s; server processes {pids}")
        print("final RSS per server process: " + ", ".join(f"{rss_bytes(each) / 2**20:.0f} MiB" for each in pids))
        print(total.summary())
        alive = target.alive if target else True
        print(f"server alive: {alive}")
        return 1 if total.faults or not alive else 0
    finally:
        if target:
            target.stop()


if __name__ == "__main__":
    sys.exit(main())
