"""Prometheus metrics: the standard gRPC server metrics and the game's own, and their /metrics endpoint.

The names and labels are those of go-grpc-prometheus / py-grpc-prometheus, which the
dashboard in deploy/compose/grafana and any existing gRPC dashboards query:

- ``grpc_server_started_total``, ``grpc_server_handled_total`` (+ ``grpc_code``),
  ``grpc_server_msg_received_total``, ``grpc_server_msg_sent_total`` and the histogram
  ``grpc_server_handling_seconds``, labelled ``grpc_type``, ``grpc_service``, ``grpc_method``;
- ``splendor_games_created_total`` (``module``, ``players``), ``splendor_actions_applied_total``
  (``kind``), ``splendor_rejections_total`` (``reason``), ``splendor_games_finished_total``
  (``end_reason``), ``splendor_batch_items_total`` (``outcome``: a BatchApplyActions call counts each of its items
  as an ApplyAction would, actions applied, games finished, state sizes, rejections by reason) and the histogram
  ``splendor_state_size_bytes``;
- what a replica of a fleet is: ``splendor_state_memo_lookups_total`` (``kind``, ``result``: how often a
  call's game was one this process had seen, which affinity raises) and ``splendor_sealing_keys``
  (``key_id``, ``use``: the key ring it runs, which a key rotation's checks read).

Several worker processes: prometheus-client's multiprocess mode. Every process writes its
values to files in ``PROMETHEUS_MULTIPROC_DIR``; the process serving /metrics sums them
with a ``MultiProcessCollector``. The mode is chosen when a value is first created, so
``use_multiprocess_dir`` must run before ``get_metrics``.

One process serving alone keeps its values in memory (``keep_values_in_memory``) even when
``PROMETHEUS_MULTIPROC_DIR`` is set, as the container sets it: a file-backed value costs a
call several microseconds more, and no other process reads the files. /metrics then serves
the same families (names, types, labels, help) as the multiprocess collector would.
"""

from __future__ import annotations

import glob
import os
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

import grpc
import prometheus_client
from prometheus_client import CollectorRegistry, Counter, Histogram, multiprocess, values

from engine_service.api.labels import (
    ACTION_KINDS,
    BATCH_ITEM_OUTCOMES,
    END_REASONS,
    MEMO_KINDS,
    MEMO_RESULTS,
    MODULES,
    PLAYER_COUNTS,
    REJECTION_REASONS,
)
from engine_service.core_info import core_kind, engine_version

MULTIPROC_ENV: Final = "PROMETHEUS_MULTIPROC_DIR"

GRPC_LABELS: Final = ("grpc_type", "grpc_service", "grpc_method")
# Calls take from ~0.1 ms (a health check) to seconds (a ReplayGame of a very long game).
LATENCY_BUCKETS: Final = (
    0.00025,
    0.0005,
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
    2.5,
    5.0,
    10.0,
)
# A serialized GameState: ~300-600 bytes for a base game, more with modules.
STATE_SIZE_BUCKETS: Final = (256.0, 384.0, 512.0, 768.0, 1024.0, 1536.0, 2048.0, 4096.0, 8192.0, 16384.0)


@dataclass(frozen=True)
class Metrics:
    started: Counter
    handled: Counter
    handling_seconds: Histogram
    msg_received: Counter
    msg_sent: Counter
    games_created: Counter
    actions_applied: Counter
    rejections: Counter
    games_finished: Counter
    batch_items: Counter
    state_size_bytes: Histogram
    memo_lookups: Counter
    sealing_keys: prometheus_client.Gauge


# What the memo of states already checked looks up (api/state_memo.py): a request's plain state, a token,
# a seat key; and whether it was there.
# How a process uses each key of its ring (sealing/keyring.py): the one sealing new tokens (it opens too),
# one that only opens, one retired.
KEY_USES: Final = ("seals", "opens", "retired")


def create_metrics(registry: CollectorRegistry | None) -> Metrics:
    """The metrics, registered in ``registry`` (``get_metrics``: the process's own, in the default one)."""
    return Metrics(
        started=Counter("grpc_server_started_total", "RPCs started on the server.", GRPC_LABELS, registry=registry),
        handled=Counter(
            "grpc_server_handled_total",
            "RPCs completed on the server, whatever their status.",
            (*GRPC_LABELS, "grpc_code"),
            registry=registry,
        ),
        handling_seconds=Histogram(
            "grpc_server_handling_seconds",
            "Time from a call's dispatch to its handler's return (queueing for a thread included).",
            GRPC_LABELS,
            buckets=LATENCY_BUCKETS,
            registry=registry,
        ),
        msg_received=Counter(
            "grpc_server_msg_received_total", "Messages received by the server.", GRPC_LABELS, registry=registry
        ),
        msg_sent=Counter("grpc_server_msg_sent_total", "Messages sent by the server.", GRPC_LABELS, registry=registry),
        games_created=Counter(
            "splendor_games_created_total",
            "Games dealt by CreateGame, by module ('base' for none) and player count.",
            ("module", "players"),
            registry=registry,
        ),
        actions_applied=Counter(
            "splendor_actions_applied_total",
            "Actions applied by ApplyAction (validate_only excluded), by kind.",
            ("kind",),
            registry=registry,
        ),
        rejections=Counter(
            "splendor_rejections_total",
            "Requests refused with a splendor.v1 ErrorInfo (illegal moves, malformed requests), by reason.",
            ("reason",),
            registry=registry,
        ),
        games_finished=Counter(
            "splendor_games_finished_total",
            "Games ended by an ApplyAction, by end reason.",
            ("end_reason",),
            registry=registry,
        ),
        batch_items=Counter(
            "splendor_batch_items_total",
            "Items of BatchApplyActions calls, by outcome: answered (the item's response) or refused (its own status).",
            ("outcome",),
            registry=registry,
        ),
        state_size_bytes=Histogram(
            "splendor_state_size_bytes",
            "Serialized size of the GameState in CreateGame, ApplyAction and ReplayGame responses.",
            buckets=STATE_SIZE_BUCKETS,
            registry=registry,
        ),
        memo_lookups=Counter(
            "splendor_state_memo_lookups_total",
            "Lookups in the process's memo of states, tokens and seat keys already checked, by kind and result.",
            ("kind", "result"),
            registry=registry,
        ),
        sealing_keys=prometheus_client.Gauge(
            "splendor_sealing_keys",
            "1 for each key of the process's key ring, by key id and use (seals, opens, retired).",
            ("key_id", "use"),
            registry=registry,
            multiprocess_mode="max",  # every worker runs the ring its supervisor loaded: one series each
        ),
    )


GRPC_CODES: Final = tuple(code.name for code in grpc.StatusCode)


def grpc_type(client_streaming: bool, server_streaming: bool) -> str:
    """The ``grpc_type`` label of a method."""
    if client_streaming:
        return "bidi_stream" if server_streaming else "client_stream"
    return "server_stream" if server_streaming else "unary"


def method_labels(services: Iterable[Any]) -> list[tuple[str, str, str]]:
    """The (``grpc_type``, ``grpc_service``, ``grpc_method``) labels of every method of ``services``
    (protobuf ``ServiceDescriptor``s, typed Any: the upb and Python descriptor types differ)."""
    return [
        (grpc_type(method.client_streaming, method.server_streaming), service.full_name, method.name)
        for service in services
        for method in service.methods
    ]


def initialise_series(metrics: Metrics, methods: Iterable[tuple[str, str, str]]) -> None:
    """Create, at zero, every labelled series an operator queries: each method's gRPC series
    (every status code of ``grpc_server_handled_total``), every module and player count,
    action kind, rejection reason and end reason. A rate or a ratio over a series that does
    not exist yet is "no data", not 0, and an alert on it never fires (go-grpc-prometheus
    does the same). In multiprocess mode each worker writes its zeros to its own files."""
    for labels in methods:
        metrics.started.labels(*labels)
        metrics.msg_received.labels(*labels)
        metrics.msg_sent.labels(*labels)
        metrics.handling_seconds.labels(*labels)
        for code in GRPC_CODES:
            metrics.handled.labels(*labels, code)
    for module in MODULES:
        for players in PLAYER_COUNTS:
            metrics.games_created.labels(module, players)
    for kind in ACTION_KINDS:
        metrics.actions_applied.labels(kind)
    for reason in REJECTION_REASONS:
        metrics.rejections.labels(reason)
    for end_reason in END_REASONS:
        metrics.games_finished.labels(end_reason)
    for outcome in BATCH_ITEM_OUTCOMES:
        metrics.batch_items.labels(outcome)
    for kind in MEMO_KINDS:
        for result in MEMO_RESULTS:
            metrics.memo_lookups.labels(kind, result)


def report_key_ring(metrics: Metrics, sealing: str, opening: Iterable[str], retired: Iterable[str]) -> None:
    """``splendor_sealing_keys`` of a ring: the key id that seals, those that only open, those retired."""
    metrics.sealing_keys.labels(sealing, "seals").set(1)
    for key_id in opening:
        if key_id != sealing:
            metrics.sealing_keys.labels(key_id, "opens").set(1)
    for key_id in retired:
        metrics.sealing_keys.labels(key_id, "retired").set(1)


_lock = threading.Lock()
_metrics: Metrics | None = None
_in_memory = False  # keep_values_in_memory ran: PROMETHEUS_MULTIPROC_DIR is ignored
# Collectors of the default registry that the multiprocess collector has no equivalent of.
_PROCESS_COLLECTORS: Final = (
    prometheus_client.PROCESS_COLLECTOR,
    prometheus_client.PLATFORM_COLLECTOR,
    prometheus_client.GC_COLLECTOR,
)


def get_metrics() -> Metrics:
    """The process's metrics, created on first use in the default registry."""
    global _metrics  # noqa: PLW0603 (one set of metrics per process, created lazily)
    with _lock:
        if _metrics is None:
            prometheus_client.disable_created_metrics()  # type: ignore[no-untyped-call]  # no *_created series next to each counter
            _metrics = create_metrics(prometheus_client.REGISTRY)
            register_engine_info(prometheus_client.REGISTRY)
        return _metrics


def register_engine_info(registry: CollectorRegistry) -> prometheus_client.Gauge:
    """``splendor_engine_info{core,version}`` = 1: which rules core (``compiled`` or ``pure``) and release run.
    ``max`` across worker processes, which all run the same installation: one series, not one per pid."""
    info = prometheus_client.Gauge(
        "splendor_engine_info",
        "Always 1; the labels say which rules core (compiled or pure) and which release this server runs.",
        ("core", "version"),
        registry=registry,
        multiprocess_mode="max",
    )
    info.labels(core_kind(), engine_version()).set(1)
    return info


def multiprocess_dir() -> str | None:
    """The directory of file-backed values; None when this process keeps them in memory."""
    if _in_memory:
        return None
    return os.environ.get(MULTIPROC_ENV) or None


def keep_values_in_memory() -> None:
    """One process serving alone: values in memory even with ``PROMETHEUS_MULTIPROC_DIR`` set.

    With the variable set, /metrics keeps serving what the multiprocess collector would: the
    default registry without its process_* and python_* collectors (the container's dashboards
    and alerts cannot rely on those). Must run before ``get_metrics``.
    """
    global _in_memory  # noqa: PLW0603 (one mode per process, chosen before the metrics exist)
    if _in_memory or not os.environ.get(MULTIPROC_ENV):
        return  # already, or in memory anyway (with the process_* collectors, as documented)
    if _metrics is not None:
        raise RuntimeError("the metrics already exist: choose where their values live before serving")
    _in_memory = True
    values.ValueClass = values.MutexValue
    for collector in _PROCESS_COLLECTORS:
        prometheus_client.REGISTRY.unregister(collector)


def use_multiprocess_dir(path: str) -> None:
    """Switch this process (and processes it forks) to multiprocess mode, writing to ``path``.

    prometheus-client reads the variable when it is imported; setting its value class too
    makes the switch work whatever was imported first, as long as no metric exists yet.
    """
    if _metrics is not None:
        raise RuntimeError("the metrics already exist: choose the multiprocess directory before serving")
    os.environ[MULTIPROC_ENV] = path
    if values.ValueClass is values.MutexValue:
        values.ValueClass = values.MultiProcessValue()  # type: ignore[no-untyped-call]


def clean_multiprocess_dir(path: str) -> list[str]:
    """Remove the stale ``*.db`` files of earlier runs (the files, not the directory: it is
    often a mounted volume). Creates the directory if needed. Returns the removed paths."""
    os.makedirs(path, exist_ok=True)
    removed = []
    for stale in glob.glob(os.path.join(glob.escape(path), "*.db")):
        try:
            os.remove(stale)
        except FileNotFoundError:
            continue
        removed.append(stale)
    return removed


def mark_process_dead(pid: int) -> None:
    """After a worker exits: drop its live-gauge files (its counters and histograms stay counted)."""
    path = multiprocess_dir()
    if path is not None:
        multiprocess.mark_process_dead(pid, path)  # type: ignore[no-untyped-call]


def exposition_registry() -> CollectorRegistry:
    """What /metrics serves: every process's values in multiprocess mode, else this process's
    (the default registry, which also has the process_* and python_* collectors)."""
    path = multiprocess_dir()
    if path is None:
        return prometheus_client.REGISTRY
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=path)  # type: ignore[no-untyped-call]
    return registry


class MetricsServer:
    """The /metrics HTTP endpoint, on its own daemon thread."""

    def __init__(self, host: str, port: int, registry: CollectorRegistry) -> None:
        self.httpd, self._thread = prometheus_client.start_http_server(port, addr=host, registry=registry)
        self.port: int = self.httpd.server_address[1]

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def metrics_host(grpc_address: str) -> str:
    """The host /metrics listens on: the gRPC address's (``0.0.0.0``, ``localhost``, ``::``...)."""
    host = grpc_address.rsplit(":", 1)[0] if ":" in grpc_address else grpc_address
    return host.strip("[]") or "0.0.0.0"
