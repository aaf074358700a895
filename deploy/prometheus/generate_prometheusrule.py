"""Write deploy/kubernetes/optional/prometheusrule.yaml from splendor-engine-rules.yaml.

The Prometheus Operator loads rules from PrometheusRule objects, whose spec.groups is the
rule file's groups unchanged. One rule file stays the source of truth:

    python deploy/prometheus/generate_prometheusrule.py          # rewrite the manifest
    python deploy/prometheus/generate_prometheusrule.py --check  # exit 1 if it is stale
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
RULES = HERE / "splendor-engine-rules.yaml"
MANIFEST = HERE.parent / "kubernetes" / "optional" / "prometheusrule.yaml"

HEADER = """\
# GENERATED from deploy/prometheus/splendor-engine-rules.yaml by
# deploy/prometheus/generate_prometheusrule.py: edit the rule file and rerun the script.
#
# The SLO recording rules and alerts for the Prometheus Operator. Needs the
# monitoring.coreos.com CRDs, so it is not in kustomization.yaml. Your Prometheus may
# select PrometheusRules by a label (e.g. `release: kube-prometheus-stack`); add it to
# metadata.labels if so. The rules select job="splendor-engine", the job the
# ServiceMonitor (servicemonitor.yaml) gives the engine's targets.
"""

LABELS = {
    "app.kubernetes.io/name": "splendor-engine",
    "app.kubernetes.io/component": "engine",
    "app.kubernetes.io/part-of": "splendor",
}


class _BlockStyleDumper(yaml.SafeDumper):
    """Multi-line strings (the PromQL expressions) as literal blocks, as in the rule file."""


def _represent_str(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    style = "|" if "\n" in text else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_BlockStyleDumper.add_representer(str, _represent_str)


def prometheus_rule(rules: dict[str, Any]) -> dict[str, Any]:
    return {
        "apiVersion": "monitoring.coreos.com/v1",
        "kind": "PrometheusRule",
        "metadata": {"name": "splendor-engine", "labels": dict(LABELS)},
        "spec": {"groups": rules["groups"]},
    }


def render() -> str:
    rules = yaml.safe_load(RULES.read_text())
    body = yaml.dump(prometheus_rule(rules), Dumper=_BlockStyleDumper, sort_keys=False, width=1000)
    return HEADER + body


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that the manifest is up to date")
    arguments = parser.parse_args()
    text = render()
    if arguments.check:
        if MANIFEST.read_text() != text:
            print(f"{MANIFEST.name} is stale: run python deploy/prometheus/generate_prometheusrule.py", file=sys.stderr)
            return 1
        return 0
    MANIFEST.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
