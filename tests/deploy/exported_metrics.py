"""The metric series the server really exports, read from a running server's /metrics.

The deploy files (dashboard, alerting rules) are checked against this, so there is no
second list of metric names to keep in step with engine_service/runtime/metrics.py.
"""

from __future__ import annotations

import urllib.request
from collections import defaultdict
from dataclasses import dataclass

import grpc
import prometheus_client
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from prometheus_client.parser import text_string_to_metric_families
from splendor.v1 import actions_pb2, config_pb2, engine_service_pb2

from tests.ops.support import ENGINE, Server, stub

# Labels Prometheus attaches to every scraped series (target labels), and the series it
# writes itself for every scrape.
TARGET_LABELS = frozenset({"job", "instance", "namespace"})
SCRAPE_SERIES = frozenset({"up"})
HISTOGRAM_SUFFIXES = ("_bucket", "_sum", "_count")


def default_collector_families() -> frozenset[str]:
    """The process_* and python_* families prometheus-client adds to its default registry.
    A single server process exports them, but the image runs in multiprocess mode
    (PROMETHEUS_MULTIPROC_DIR), where they are absent: nothing may rely on them."""
    collectors = (
        prometheus_client.PROCESS_COLLECTOR,
        prometheus_client.PLATFORM_COLLECTOR,
        prometheus_client.GC_COLLECTOR,
    )
    return frozenset(family.name for collector in collectors for family in collector.collect())


@dataclass(frozen=True)
class ExportedMetrics:
    counters: frozenset[str]  # series names, with their _total suffix
    histograms: frozenset[str]  # base names; the series are <name>_bucket, _sum and _count
    others: frozenset[str]  # gauges and the rest, as exposed
    labels: dict[str, frozenset[str]]  # series name -> label names seen on it
    label_values: dict[tuple[str, str], frozenset[str]]  # (series, label) -> values seen

    @property
    def series(self) -> frozenset[str]:
        histogram_series = {name + suffix for name in self.histograms for suffix in HISTOGRAM_SUFFIXES}
        return self.counters | self.others | histogram_series


def exercise(server: Server) -> None:
    """A few calls, so that the labelled series exist: a created game, a legal move, refused
    requests, a health check."""
    channel = server.channel()
    engine = stub(channel)
    state = engine.CreateGame(
        engine_service_pb2.CreateGameRequest(config=config_pb2.GameConfig(num_players=2, seed=3)), timeout=5
    ).state
    legal = engine.ListLegalActions(engine_service_pb2.ListLegalActionsRequest(state=state), timeout=5).actions
    engine.ApplyAction(engine_service_pb2.ApplyActionRequest(state=state, action=legal[0].action), timeout=5)
    with pytest.raises(grpc.RpcError):  # an action id out of every range
        engine.ApplyAction(
            engine_service_pb2.ApplyActionRequest(state=state, action=actions_pb2.Action(action_id=1_000_000)),
            timeout=5,
        )
    with pytest.raises(grpc.RpcError):
        engine.CreateGame(engine_service_pb2.CreateGameRequest(config=config_pb2.GameConfig(num_players=9)), timeout=5)
    health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service=ENGINE), timeout=5)
    channel.close()


def read_exported_metrics(server: Server) -> ExportedMetrics:
    with urllib.request.urlopen(f"http://127.0.0.1:{server.metrics_port}/metrics", timeout=5) as response:
        text = response.read().decode()
    counters, histograms, others = set(), set(), set()
    labels: dict[str, set[str]] = defaultdict(set)
    label_values: dict[tuple[str, str], set[str]] = defaultdict(set)
    excluded = default_collector_families()
    for family in text_string_to_metric_families(text):
        if family.name in excluded:
            continue
        if family.type == "counter":
            counters.add(f"{family.name}_total")
        elif family.type == "histogram":
            histograms.add(family.name)
        else:
            others.add(family.name)
        for sample in family.samples:
            labels[sample.name] |= set(sample.labels)
            for label, value in sample.labels.items():
                label_values[(sample.name, label)].add(value)
    return ExportedMetrics(
        counters=frozenset(counters),
        histograms=frozenset(histograms),
        others=frozenset(others),
        labels={name: frozenset(names) for name, names in labels.items()},
        label_values={key: frozenset(values) for key, values in label_values.items()},
    )
