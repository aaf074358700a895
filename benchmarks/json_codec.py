"""The Connect JSON codec against ``google.protobuf.json_format``: CPU per message, decoding and encoding.

    python benchmarks/json_codec.py [--repeats 7] [--rounds 10] [--full]

The messages are real mid-game ApplyAction requests (``service_bench.sample_requests``: a state and an
action, as ``http_runtimes.py`` sends them) and the API's responses to them; ``--full`` also asks each
request for everything a response can carry (legal actions and their ids, the observation), which
makes the responses several times larger. Each repeat times both codecs on every message, ``--rounds``
times over, in one process and CPU time, the order alternating each repeat; the report gives each
side's median (min-max) microseconds per message and the speed-up (json_format's CPU over the
codec's), median (min-max) over the repeats. Decoding includes ``json.loads`` on both sides, as the
codec does; before timing, every message is checked to encode to json_format's bytes and to decode
to json_format's message.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parent.parent))  # a checkout runs without installing
sys.path.insert(0, str(Path(__file__).resolve().parent))

from google.protobuf import json_format
from google.protobuf.message import Message
from service_bench import sample_requests
from splendor.v1 import engine_service_pb2

from engine_service.api import METHODS_BY_NAME, Call, invoke
from engine_service.http.codecs import CompactJsonCodec

Operation = Callable[[Message, bytes], object]
CODEC = CompactJsonCodec()


def messages(full: bool) -> dict[str, list[Message]]:
    plain, _ = sample_requests()
    requests = [engine_service_pb2.ApplyActionRequest.FromString(data) for data in plain]
    if full:
        for request in requests:
            request.include_legal_actions = request.include_legal_action_ids = request.include_observation = True
    method = METHODS_BY_NAME["ApplyAction"]
    responses: list[Message] = [invoke(method, request, Call("ApplyAction")) for request in requests]
    return {"request": list(requests), "response": responses}


def operations() -> dict[str, dict[str, Operation]]:
    """Per operation, json_format's way and the codec's, each given the message and its JSON."""
    return {
        "decode": {
            "json_format": lambda m, data: json_format.ParseDict(json.loads(data), type(m)()),
            "codec": lambda m, data: CODEC.decode(data, type(m)),
        },
        "encode": {
            "json_format": lambda m, data: json_format.MessageToJson(m, indent=None).encode(),
            "codec": lambda m, data: CODEC.encode(m),
        },
    }


def check(batch: list[Message]) -> list[bytes]:
    """Each message's JSON, checked to be json_format's both ways."""
    encoded = []
    for message in batch:
        data = json_format.MessageToJson(message, indent=None).encode()
        assert CODEC.encode(message) == data, "the codec's bytes differ from json_format's"
        decoded = CODEC.decode(data, type(message))
        assert decoded.SerializeToString(deterministic=True) == message.SerializeToString(deterministic=True)
        encoded.append(data)
    return encoded


def cpu_us(operation: Operation, batch: list[Message], encoded: list[bytes], rounds: int) -> float:
    start = time.process_time_ns()
    for _ in range(rounds):
        for message, data in zip(batch, encoded):
            operation(message, data)
    return (time.process_time_ns() - start) / (rounds * len(batch)) / 1000


def spread(values: list[float], form: str) -> str:
    return f"{statistics.median(values):{form}} ({min(values):{form}}-{max(values):{form}})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--full", action="store_true", help="ask for legal actions and the observation too")
    args = parser.parse_args()

    load_before = os.getloadavg()[0]
    batches = messages(args.full)
    encoded = {kind: check(batch) for kind, batch in batches.items()}
    ops = operations()
    times: dict[tuple[str, str, str], list[float]] = {}
    for repeat in range(args.repeats):
        for kind, batch in batches.items():
            for name, sides in ops.items():
                order = list(sides) if repeat % 2 == 0 else list(reversed(sides))
                for side in order:
                    times.setdefault((kind, name, side), []).append(
                        cpu_us(sides[side], batch, encoded[kind], args.rounds)
                    )

    print(
        f"mid-game ApplyAction messages{' (full responses)' if args.full else ''}: "
        f"{args.repeats} repeats x {args.rounds} rounds, CPU us per message, median (min-max)"
    )
    for kind, batch in batches.items():
        size = statistics.mean(len(data) for data in encoded[kind])
        print(f"{kind}s: {len(batch)}, JSON {size:.0f} bytes on average")
        for name in ops:
            old, new = times[(kind, name, "json_format")], times[(kind, name, "codec")]
            speedups = [o / n for o, n in zip(old, new)]
            print(
                f"  {name} {kind:<8}  json_format {spread(old, '.1f'):<22} codec {spread(new, '.1f'):<20}"
                f" speed-up x{spread(speedups, '.2f')}"
            )
    print(f"load average (1 min) before/after: {load_before:.1f}/{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
