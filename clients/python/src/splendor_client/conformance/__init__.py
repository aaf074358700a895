"""Conformance: run the contract's vectors (``conformance/`` in the repository) against any server of
``splendor.v1.EngineService``, over gRPC or Connect.

    splendor-conformance --address localhost:50051
    splendor-conformance --protocol connect --address localhost:8080

>>> from pathlib import Path
>>> from splendor_client.conformance import Options, load, open_transport, run
>>> corpus = load(Path("conformance"))  # the vectors' directory, from the checkout's root
>>> transport = open_transport("grpc", "127.0.0.1:50051", timeout=10.0)
>>> report = run(corpus, transport, Options(only="^base/sealed/"))
>>> transport.close()
>>> report.passed, report.failures
(True, [])
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
