"""The SLO recording rules and alerts (deploy/prometheus) against the server, the docs, the
dashboard and the places that load them.

promtool itself checks and unit-tests the rules (`make prometheus-rules`, part of `make
test`); these tests check what promtool cannot see: that the series the rules select are
the ones the server exports, that every copy of the rules agrees, and that every alert has
its promtool cases, its runbook and its dashboard panel.
"""

from __future__ import annotations

import fnmatch
import json
import re
import subprocess
import sys
from typing import Any

import grpc
import pytest
import yaml

from engine_service.runtime.metrics import LATENCY_BUCKETS
from tests.deploy.exported_metrics import SCRAPE_SERIES, TARGET_LABELS, ExportedMetrics
from tests.deploy.promql import normalized, promql_metric_names, promql_selectors
from tests.deploy.rule_files import (
    REPO,
    RULES,
    RULES_DIR,
    RULES_TESTS,
    alerting_rules,
    all_rules,
    recorded_names,
    recording_rules,
    rule_groups,
)

DOCS = REPO / "docs" / "operations.md"
COMPOSE_DIR = REPO / "deploy" / "compose"
K8S = REPO / "deploy" / "kubernetes"
PROMETHEUS_RULE = K8S / "optional" / "prometheusrule.yaml"
DASHBOARD = COMPOSE_DIR / "grafana" / "dashboards" / "splendor-engine.json"

JOB = "splendor-engine"
SEVERITIES = {"page", "ticket"}
# (long window, short window, burn rate) of the page and ticket conditions.
BURN_WINDOWS = {("1h", "5m", 14.4), ("6h", "30m", 6.0), ("1d", "2h", 3.0), ("3d", "6h", 1.0)}
ERROR_BUDGETS = {"availability_errors": 0.001, "apply_action_slow": 0.01}
WINDOW_SUFFIX = re.compile(r"(?<=:ratio_rate)\w+$")


def rule_exprs() -> list[str]:
    return [str(rule["expr"]) for rule in all_rules()]


def dashboard_exprs() -> list[str]:
    def panels(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [inner for panel in items for inner in [panel, *panels(panel.get("panels", []))]]

    board = json.loads(DASHBOARD.read_text())
    return [target["expr"] for panel in panels(board["panels"]) for target in panel.get("targets", [])]


def github_anchor(heading: str) -> str:
    kept = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return kept.replace(" ", "-")


# ------------------------------------------------------------ against the server


@pytest.mark.e2e
def test_rules_select_only_series_the_server_exports_or_the_rules_record(exported: ExportedMetrics) -> None:
    known = exported.series | recorded_names() | SCRAPE_SERIES
    used = set()
    for expr in rule_exprs():
        names = promql_metric_names(expr)
        assert names, expr
        assert names <= known, (names - known, expr)
        used |= names
    assert {
        "grpc_server_handled_total",
        "grpc_server_handling_seconds_bucket",
        "grpc_server_handling_seconds_count",
        "grpc_server_started_total",
        "up",
    } <= used


@pytest.mark.e2e
def test_rule_label_matchers_use_labels_and_values_the_server_exports(exported: ExportedMetrics) -> None:
    selectors = [selector for expr in rule_exprs() for selector in promql_selectors(expr)]
    assert selectors
    status_codes = {code.name for code in grpc.StatusCode}
    for metric, matchers in selectors:
        for label, op, value in matchers:
            if label in TARGET_LABELS:
                continue
            assert metric in exported.labels, (metric, "has no samples to read its labels from")
            assert label in exported.labels[metric], (metric, label)
            if label == "grpc_code":  # a code appears on /metrics only once a call has ended with it
                assert set(value.split("|")) <= status_codes, (metric, value)
            elif op == "=":
                assert value in exported.label_values[(metric, label)], (metric, label, value)


def test_recorded_series_are_selected_only_by_the_labels_they_keep() -> None:
    for expr in rule_exprs():
        for metric, matchers in promql_selectors(expr):
            if metric in recorded_names():
                assert {matcher.label for matcher in matchers} <= {"namespace", "job"}, (metric, expr)


def test_every_rule_selects_the_engine_job_only() -> None:
    for expr in rule_exprs():
        for metric, matchers in promql_selectors(expr):
            if metric not in recorded_names():
                assert ("job", "=", JOB) in matchers, (metric, expr)
    # ...which is the compose scrape job and, with the Operator, the Service's name (the
    # ServiceMonitor's default job label).
    compose_config = yaml.safe_load((COMPOSE_DIR / "prometheus.yml").read_text())
    assert JOB in {job["job_name"] for job in compose_config["scrape_configs"]}
    monitor = yaml.safe_load((K8S / "optional" / "servicemonitor.yaml").read_text())
    assert "jobLabel" not in monitor["spec"]
    services = [doc for doc in yaml.safe_load_all((K8S / "service.yaml").read_text()) if doc]
    metrics_services = [s for s in services if "metrics" in {port["name"] for port in s["spec"]["ports"]}]
    assert [service["metadata"]["name"] for service in metrics_services] == [JOB]


def test_latency_objective_is_a_histogram_bucket_boundary() -> None:
    bounds = {
        matcher.value
        for expr in rule_exprs()
        for selector in promql_selectors(expr)
        if selector.metric == "grpc_server_handling_seconds_bucket"
        for matcher in selector.matchers
        if matcher.label == "le"
    }
    assert bounds == {"0.01"}
    assert 0.01 in LATENCY_BUCKETS


# ----------------------------------------------------------- the rules themselves


def test_windowed_recording_rules_differ_only_in_their_window() -> None:
    families: dict[str, set[str]] = {}
    for rule in recording_rules():
        window = WINDOW_SUFFIX.search(rule["record"])
        if window is None:
            continue
        family = rule["record"][: window.start()]
        pattern = re.sub(rf"\[{window.group()}\]", "[WINDOW]", normalized(rule["expr"]))
        families.setdefault(family, set()).add(pattern)
    assert len(families) >= 3, families.keys()
    for family, patterns in families.items():
        assert len(patterns) == 1, (family, patterns)


def test_burn_rate_alerts_pair_the_standard_windows_against_the_objective_budget() -> None:
    condition = re.compile(r"namespace_job:splendor_engine_(\w+):ratio_rate(\w+) > \(([\d.]+) \* ([\d.]+)\)")
    burn_alerts = [rule for rule in alerting_rules() if "slo" in rule["labels"]]
    assert len(burn_alerts) == 4
    pairs = set()
    for rule in burn_alerts:
        found = condition.findall(normalized(rule["expr"]))
        assert len(found) == 4, rule["alert"]
        for (sli, long, rate, budget), (short_sli, short, short_rate, short_budget) in zip(found[::2], found[1::2]):
            assert (sli, rate, budget) == (short_sli, short_rate, short_budget), rule["alert"]
            assert float(budget) == ERROR_BUDGETS[sli], rule["alert"]
            pairs.add((long, short, float(rate)))
    assert pairs == BURN_WINDOWS


def test_every_alert_has_a_severity_a_summary_and_a_runbook_section_in_the_docs() -> None:
    anchors = {github_anchor(line.lstrip("#")) for line in DOCS.read_text().splitlines() if line.startswith("#")}
    alerts = alerting_rules()
    assert len(alerts) >= 8
    assert len({rule["alert"] for rule in alerts}) == len(alerts)
    for rule in alerts:
        assert rule["labels"]["severity"] in SEVERITIES, rule["alert"]
        assert rule["annotations"]["summary"], rule["alert"]
        document, _, anchor = rule["annotations"]["runbook"].partition("#")
        assert (REPO / document) == DOCS, rule["alert"]
        assert anchor == rule["alert"].lower(), rule["alert"]
        assert anchor in anchors, rule["alert"]


def test_every_alert_has_promtool_cases_where_it_fires_and_where_it_does_not() -> None:
    suite = yaml.safe_load(RULES_TESTS.read_text())
    assert [(RULES_DIR / path).resolve() for path in suite["rule_files"]] == [RULES]
    firing, quiet = set(), set()
    for case in suite["tests"]:
        for check in case.get("alert_rule_test", []):
            (firing if check["exp_alerts"] else quiet).add(check["alertname"])
    names = {rule["alert"] for rule in alerting_rules()}
    assert firing == names, names ^ firing
    assert quiet == names, names ^ quiet


# ------------------------------------------------------------------ the copies


def test_operator_prometheus_rule_has_the_rule_file_groups() -> None:
    (manifest,) = [doc for doc in yaml.safe_load_all(PROMETHEUS_RULE.read_text()) if doc]
    assert (manifest["apiVersion"], manifest["kind"]) == ("monitoring.coreos.com/v1", "PrometheusRule")
    assert manifest["spec"]["groups"] == rule_groups()
    monitor = yaml.safe_load((K8S / "optional" / "servicemonitor.yaml").read_text())
    assert manifest["metadata"]["labels"] == monitor["metadata"]["labels"]


def test_operator_prometheus_rule_is_what_the_generator_writes() -> None:
    result = subprocess.run(
        [sys.executable, str(RULES_DIR / "generate_prometheusrule.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr


def test_compose_prometheus_loads_the_rule_file() -> None:
    compose = yaml.safe_load((COMPOSE_DIR / "docker-compose.yaml").read_text())
    mounts = {}
    for volume in compose["services"]["prometheus"]["volumes"]:
        source, target = volume.split(":")[:2]
        if source.startswith("."):
            mounts[target] = (COMPOSE_DIR / source).resolve()
    (rules_in_container,) = [target for target, source in mounts.items() if source == RULES]
    patterns = yaml.safe_load((COMPOSE_DIR / "prometheus.yml").read_text())["rule_files"]
    assert any(fnmatch.fnmatch(rules_in_container, pattern) for pattern in patterns)
    # Every file those patterns match in the container is mounted from deploy/.
    assert all(fnmatch.fnmatch(target, pattern) <= (target in mounts) for target in mounts for pattern in patterns)


# ------------------------------------------------------------------- dashboard


def test_dashboard_shows_every_alert_expression() -> None:
    shown = {normalized(expr) for expr in dashboard_exprs()}
    for rule in alerting_rules():
        assert normalized(rule["expr"]) in shown, rule["alert"]


def test_dashboard_shows_the_burn_rate_of_every_window_and_the_remaining_budgets() -> None:
    used = {name for expr in dashboard_exprs() for name in promql_metric_names(expr)}
    windowed = {name for name in recorded_names() if WINDOW_SUFFIX.search(name) and "shed" not in name}
    assert windowed <= used, windowed - used
    remaining = {name for name in recorded_names() if "budget_remaining" in name}
    assert len(remaining) == 2
    assert remaining <= used
