"""The ``splendor-conformance`` command: run the conformance vectors against a server and say what failed."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from .runner import Options, run
from .transports import PROTOCOLS, open_transport
from .vectors import VectorError, load

DEFAULT_VECTORS = Path("conformance")
DEFAULT_TIMEOUT = 30.0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="splendor-conformance",
        description="Run the splendor.v1 conformance vectors against a server (this engine or another "
        "implementation of the contract): every call of every case, then every whole game as a replay. "
        "Exits 1 when any answer differs from the vectors'.",
    )
    parser.add_argument(
        "--address", required=True, help="the server: host:port (gRPC) or http(s)://host:port (Connect)"
    )
    parser.add_argument("--protocol", choices=PROTOCOLS, default="grpc", help="gRPC, or Connect unary calls (binary)")
    parser.add_argument(
        "--vectors", type=Path, default=DEFAULT_VECTORS, help="the vectors' directory (default: ./conformance)"
    )
    parser.add_argument("--only", metavar="REGEX", help="only the cases and games whose name matches")
    parser.add_argument(
        "--skip-engine-specific",
        action="store_true",
        help="leave out the cases whose answer depends on this engine's seeded bots, playouts and samples or on "
        "its default bounds (for another implementation of the contract)",
    )
    parser.add_argument("--no-games", action="store_true", help="leave out the whole games (replays)")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds allowed for each call")
    parser.add_argument("--quiet", action="store_true", help="print the failures and the summary only")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        corpus = load(args.vectors)
    except VectorError as error:
        print(f"splendor-conformance: {error}", file=sys.stderr)
        return 2
    if not args.quiet:
        print(f"{corpus.calls} calls in {len(corpus.cases)} cases and {len(corpus.games)} games of {corpus.contract}, "
              f"against {args.address} over {args.protocol}")  # fmt: skip
    transport = open_transport(args.protocol, args.address, args.timeout)
    try:
        options = Options(only=args.only, skip_engine_specific=args.skip_engine_specific, games=not args.no_games)
        report = run(corpus, transport, options, log=print)
    finally:
        transport.close()
    print(report.summary())
    return 0 if report.passed else 1


if __name__ == "__main__":
    sys.exit(main())
