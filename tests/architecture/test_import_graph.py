"""The import graph's rules, checked on the source (``import_graph.py``), each shown able to fail on a fake import.

- the client reaches the engine only through its public in-process API (``engine_service.in_process``);
- the engine imports nothing of the client;
- the gRPC adapter (``engine_service.server``) and the HTTP adapter (``engine_service.http``)
  import neither each other nor the process layer (``engine_service.process``);
- the rules core imports no gRPC, protobuf, logging or metrics;
- conversion (``engine_service.codec``) imports no bots (the API hands the catalog the registered policies).
"""

from __future__ import annotations

from functools import cache

import pytest

from tests.architecture.import_graph import ROOT, Rule, SourceFile, imports_of, sources_under, violations, within

FACADE = "engine_service.in_process"
ADAPTERS = ("engine_service.server", "engine_service.http")
PROCESS_LAYER = "engine_service.process"
# What the pure core may not touch: transports, wire formats (the generated ``splendor`` stubs too), logs, metrics.
IMPURE = frozenset(
    {
        *("grpc", "grpc_health", "grpc_reflection", "grpc_status"),
        *("google.protobuf", "splendor"),
        *("structlog", "logging", "prometheus_client"),
    }
)


def _client_reaches_past_the_facade(importer: str, target: str) -> bool:
    return within(target, "engine_service") and not within(target, FACADE)


def _adapter_reaches_across(importer: str, target: str) -> bool:
    for adapter in ADAPTERS:
        if within(importer, adapter):
            others = [other for other in ADAPTERS if other != adapter]
            return any(within(target, other) for other in [*others, PROCESS_LAYER])
    return False


CLIENT_ONLY_THROUGH_THE_FACADE = Rule(
    "the client imports nothing of the engine but engine_service.in_process", _client_reaches_past_the_facade
)
ENGINE_WITHOUT_THE_CLIENT = Rule(
    "the engine imports nothing of the client", lambda importer, target: within(target, "splendor_client")
)
ADAPTERS_APART = Rule(
    "the gRPC and HTTP adapters import neither each other nor the process layer", _adapter_reaches_across
)
PURE_CORE = Rule(
    "the rules core imports no gRPC, protobuf, logging or metrics",
    lambda importer, target: any(within(target, impure) for impure in IMPURE),
)
CONVERSION_WITHOUT_BOTS = Rule(
    "conversion imports no bots", lambda importer, target: within(target, "engine_service.bots")
)


@cache
def _client() -> tuple[SourceFile, ...]:
    return tuple(sources_under(ROOT / "clients" / "python" / "src"))


@cache
def _engine() -> tuple[SourceFile, ...]:
    return tuple(sources_under(ROOT / "engine_service"))


def _inside(*packages: str) -> list[SourceFile]:
    chosen = [source for source in _engine() if any(within(source.module, package) for package in packages)]
    assert chosen, f"no source file in {packages}: the check would be vacuous"
    return chosen


def test_the_client_reaches_the_engine_only_through_its_in_process_api() -> None:
    assert violations(CLIENT_ONLY_THROUGH_THE_FACADE, _client()) == []
    # Not vacuous: the client's one door (an import inside a function) is seen.
    doors = [found for source in _client() for found in imports_of(source) if within(found.target, FACADE)]
    assert any(found.importer.module == "splendor_client.local_engine" for found in doors)


def test_the_engine_imports_nothing_of_the_client() -> None:
    assert violations(ENGINE_WITHOUT_THE_CLIENT, _engine()) == []


def test_the_grpc_and_http_adapters_import_neither_each_other_nor_the_process_layer() -> None:
    assert violations(ADAPTERS_APART, _inside(*ADAPTERS)) == []


def test_the_rules_core_imports_no_grpc_protobuf_logging_or_metrics() -> None:
    assert violations(PURE_CORE, _inside("engine_service.rules")) == []


def test_conversion_imports_no_bots() -> None:
    assert violations(CONVERSION_WITHOUT_BOTS, _inside("engine_service.codec")) == []


BROKEN = [
    (CLIENT_ONLY_THROUGH_THE_FACADE, "splendor_client.fake", "from engine_service.codec import catalog"),
    (
        CLIENT_ONLY_THROUGH_THE_FACADE,
        "splendor_client.fake",
        "def f():\n    from engine_service import rules, in_process",
    ),
    (CLIENT_ONLY_THROUGH_THE_FACADE, "splendor_client.fake", "import engine_service.bots as bots"),
    (CLIENT_ONLY_THROUGH_THE_FACADE, "splendor_client.fake", "import engine_service"),
    (
        CLIENT_ONLY_THROUGH_THE_FACADE,
        "splendor_client.fake",
        "import importlib\nimportlib.import_module('engine_service.rules')",
    ),
    (ENGINE_WITHOUT_THE_CLIENT, "engine_service.fake", "from splendor_client.envs import SplendorEnv"),
    (ENGINE_WITHOUT_THE_CLIENT, "engine_service.fake", "if TYPE_CHECKING:\n    import splendor_client"),
    (ADAPTERS_APART, "engine_service.http.fake", "from engine_service.server.metrics import Metrics"),
    (ADAPTERS_APART, "engine_service.http.fake", "from ..server import admission"),
    (ADAPTERS_APART, "engine_service.server.fake", "from engine_service.http import server"),
    (ADAPTERS_APART, "engine_service.server.fake", "from engine_service.process import workers"),
    (ADAPTERS_APART, "engine_service.http.fake", "import engine_service.process"),
    (PURE_CORE, "engine_service.rules.fake", "import logging"),
    (PURE_CORE, "engine_service.rules.fake", "from google.protobuf import message"),
    (PURE_CORE, "engine_service.rules.fake", "def f():\n    import grpc"),
    (PURE_CORE, "engine_service.rules.fake", "from splendor.v1 import state_pb2"),
    (PURE_CORE, "engine_service.rules.fake", "import structlog"),
    (PURE_CORE, "engine_service.rules.fake", "from prometheus_client import Counter"),
    (CONVERSION_WITHOUT_BOTS, "engine_service.codec.fake", "from engine_service.bots import POLICY_NAMES"),
    (CONVERSION_WITHOUT_BOTS, "engine_service.codec.fake", "from .. import bots"),
]


@pytest.mark.parametrize(("rule", "module", "text"), BROKEN)
def test_each_rule_fails_on_an_import_that_breaks_it(rule: Rule, module: str, text: str) -> None:
    fake = SourceFile(module, text, "fake.py")
    assert len(violations(rule, [fake])) == 1, f"{rule.name}: not caught"


KEPT = [
    (CLIENT_ONLY_THROUGH_THE_FACADE, "splendor_client.fake", "from engine_service import in_process"),
    (CLIENT_ONLY_THROUGH_THE_FACADE, "splendor_client.fake", "from engine_service.in_process import GameState"),
    (CLIENT_ONLY_THROUGH_THE_FACADE, "splendor_client.fake", "from splendor.v1 import engine_service_pb2"),
    (ADAPTERS_APART, "engine_service.http.fake", "from engine_service.api import METHODS\nfrom .edge import Edge"),
    (ADAPTERS_APART, "engine_service.http.fake", "from engine_service.processing import x"),
    (PURE_CORE, "engine_service.rules.fake", "import random\nfrom .state import GameState"),
    (PURE_CORE, "engine_service.rules.fake", "import grpcio_like"),
]


@pytest.mark.parametrize(("rule", "module", "text"), KEPT)
def test_each_rule_lets_pass_what_it_allows(rule: Rule, module: str, text: str) -> None:
    assert violations(rule, [SourceFile(module, text, "fake.py")]) == []


def test_relative_imports_are_resolved_from_the_importing_module() -> None:
    module = SourceFile("engine_service.http.edge", "from ..server import admission\nfrom . import observe", "edge.py")
    package = SourceFile(
        "engine_service.http", "from . import edge\nfrom .. import api", "__init__.py", is_package=True
    )
    assert [found.target for found in imports_of(module)] == [
        "engine_service.server.admission",
        "engine_service.http.observe",
    ]
    assert [found.target for found in imports_of(package)] == ["engine_service.http.edge", "engine_service.api"]


def test_a_relative_import_beyond_the_top_package_is_an_error() -> None:
    with pytest.raises(ValueError, match="beyond the top package"):
        imports_of(SourceFile("engine_service.x", "from ... import y", "x.py"))
