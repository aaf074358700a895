"""Serve the example platform: ``python -m splendor_platform --engine 127.0.0.1:50051 --db matches.sqlite``."""

from __future__ import annotations

import argparse
import contextlib

from splendor_client import connect

from .matches import Platform
from .store import Store
from .web import serve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--engine", default="127.0.0.1:50051", help="the engine's gRPC address")
    parser.add_argument("--db", default="matches.sqlite", help="the SQLite file (created if missing)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    with connect(args.engine) as engine:
        server = serve(Platform(Store(args.db), engine), args.host, args.port)
        print(f"serving the platform on http://{args.host}:{server.server_port}", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            server.serve_forever()


if __name__ == "__main__":
    main()
