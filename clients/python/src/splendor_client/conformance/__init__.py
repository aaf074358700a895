"""Conformance: run the contract's vectors (``conformance/`` in the repository) against any server of
``splendor.v1.EngineService``, over gRPC or Connect.

    splendor-conformance --address localhost:50051
    splendor-conformance --protocol connect --address localhost:8080

>>> from pathlib import Path
>>> from splendor_client.conformance import load, open_transport, run
>>> corpus = load(Path("conformance"))  # doctest: +SKIP
>>> report = run(corpus, open_transport("grpc", "localhost:50051", 10.0))  # doctest: +SKIP
>>> report.passed  # doctest: +SKIP
True
"""

from .runner import Failure, Options, Report, run
from .transports import PROTOCOLS, Refused, Transport, open_transport
from .vectors import Case, Corpus, Game, Refusal, Step, VectorError, load

__all__ = [
    "PROTOCOLS",
    "Case",
    "Corpus",
    "Failure",
    "Game",
    "Options",
    "Refusal",
    "Refused",
    "Report",
    "Step",
    "Transport",
    "VectorError",
    "load",
    "open_transport",
    "run",
]
