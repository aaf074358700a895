"""The Prometheus rule file of deploy/prometheus, read for the deploy tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[2]
RULES_DIR = REPO / "deploy" / "prometheus"
RULES = RULES_DIR / "splendor-engine-rules.yaml"
RULES_TESTS = RULES_DIR / "splendor-engine-rules.test.yaml"


def rule_groups() -> list[dict[str, Any]]:
    groups: list[dict[str, Any]] = yaml.safe_load(RULES.read_text())["groups"]
    return groups


def all_rules() -> list[dict[str, Any]]:
    return [rule for group in rule_groups() for rule in group["rules"]]


def recording_rules() -> list[dict[str, Any]]:
    return [rule for rule in all_rules() if "record" in rule]


def alerting_rules() -> list[dict[str, Any]]:
    return [rule for rule in all_rules() if "alert" in rule]


def recorded_names() -> set[str]:
    return {rule["record"] for rule in recording_rules()}
