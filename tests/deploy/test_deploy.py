"""Offline checks of the deployment files under deploy/.

Nothing here builds an image or talks to a cluster: the Kubernetes manifests are
validated against the API schemas bundled with kubernetes-validate, and the files are
checked against each other (ports, labels, grace periods, metric names) so that a
change to one that breaks another fails here.
"""

from __future__ import annotations

import copy
import fnmatch
import json
import re
import shlex
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

from tests.deploy.exported_metrics import SCRAPE_SERIES, ExportedMetrics
from tests.deploy.promql import promql_metric_names
from tests.deploy.rule_files import recorded_names

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
K8S = DEPLOY / "kubernetes"
COMPOSE_DIR = DEPLOY / "compose"
DOCKERFILE = DEPLOY / "Dockerfile"
DOCKERIGNORE = DEPLOY / "Dockerfile.dockerignore"
DASHBOARD = COMPOSE_DIR / "grafana" / "dashboards" / "splendor-engine.json"

# Oldest Kubernetes the manifests support (preStop `sleep` is on by default from 1.30)
# and the newest the installed kubernetes-validate knows.
K8S_VERSIONS = ("1.30.0", kubernetes_validate.latest_version())

HEALTH_SERVICE = "splendor.v1.EngineService"

# Series each of the dashboard's required panels is built from.
REQUIRED_DASHBOARD_SERIES = {
    "grpc_server_handled_total",  # request rate by method, errors by code
    "grpc_server_handling_seconds_bucket",  # latency quantiles
    "grpc_server_started_total",  # in-flight (with handled)
    "splendor_games_created_total",
    "splendor_actions_applied_total",
    "splendor_rejections_total",
    "splendor_games_finished_total",
    "splendor_state_size_bytes_bucket",
}


# --------------------------------------------------------------------------- helpers


def load_yaml_documents(path: Path) -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


def kustomization() -> dict[str, Any]:
    return yaml.safe_load((K8S / "kustomization.yaml").read_text())


def manifest_paths() -> list[Path]:
    return [K8S / name for name in kustomization()["resources"]]


def all_resources() -> list[dict[str, Any]]:
    return [doc for path in manifest_paths() for doc in load_yaml_documents(path)]


def resources_of_kind(kind: str) -> list[dict[str, Any]]:
    return [doc for doc in all_resources() if doc["kind"] == kind]


def the_deployment() -> dict[str, Any]:
    (deployment,) = resources_of_kind("Deployment")
    return deployment


def the_container(deployment: dict[str, Any]) -> dict[str, Any]:
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    return container


def container_env(container: dict[str, Any]) -> dict[str, str]:
    return {item["name"]: item["value"] for item in container.get("env", []) if "value" in item}


def container_ports(container: dict[str, Any]) -> dict[str, int]:
    return {port["name"]: port["containerPort"] for port in container["ports"]}


def selects(selector: dict[str, str], labels: dict[str, str]) -> bool:
    return bool(selector) and all(labels.get(key) == value for key, value in selector.items())


def cpu_cores(quantity: str | int | float) -> float:
    text = str(quantity)
    return int(text[:-1]) / 1000 if text.endswith("m") else float(text)


def memory_bytes(quantity: str | int) -> int:
    text = str(quantity)
    for suffix, factor in (("Ki", 2**10), ("Mi", 2**20), ("Gi", 2**30), ("k", 10**3), ("M", 10**6), ("G", 10**9)):
        if text.endswith(suffix):
            return int(text[: -len(suffix)]) * factor
    return int(text)


def port_of(address: str) -> int:
    return int(address.rsplit(":", 1)[1])


def run_kubernetes_validate(*args: str) -> subprocess.CompletedProcess[str]:
    cli = Path(sys.executable).parent / "kubernetes-validate"
    command = [str(cli)] if cli.exists() else [sys.executable, "-m", "kubernetes_validate"]
    return subprocess.run([*command, *args], capture_output=True, text=True, check=False, timeout=120)


# --------------------------------------------------------------- kubernetes manifests


def test_kustomization_lists_every_manifest_in_the_folder() -> None:
    listed = set(kustomization()["resources"])
    on_disk = {path.name for path in K8S.glob("*.yaml")} - {"kustomization.yaml"}
    assert listed == on_disk
    assert all((K8S / name).is_file() for name in listed)


def test_manifests_pass_kubernetes_validate_cli_strict() -> None:
    files = [str(path) for path in manifest_paths()]
    for version in K8S_VERSIONS:
        result = run_kubernetes_validate("--strict", "--kubernetes-version", version, *files)
        output = result.stdout + result.stderr
        assert result.returncode == 0, output
        # An unknown kind or apiVersion is only a WARN with exit code 0: treat it as a failure.
        assert "WARN" not in output, output
        assert "ERROR" not in output, output
        assert output.count("passed for resource") == len(all_resources()), output


@pytest.mark.parametrize("version", K8S_VERSIONS)
def test_every_resource_matches_its_strict_schema(version: str) -> None:
    resources = all_resources()
    assert {doc["kind"] for doc in resources} >= {
        "Deployment",
        "Service",
        "PodDisruptionBudget",
        "HorizontalPodAutoscaler",
    }
    for doc in resources:
        # Raises SchemaNotFoundError for an unknown kind/apiVersion, ValidationError otherwise.
        kubernetes_validate.validate(doc, version, strict=True)


def test_strict_validation_rejects_a_misspelt_field() -> None:
    """The schema check above is not vacuous: a typo in a probe is an error."""
    broken = copy.deepcopy(the_deployment())
    container = the_container(broken)
    container["readinesProbe"] = container.pop("readinessProbe")
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, K8S_VERSIONS[-1], strict=True)


def test_deployment_runs_at_least_two_replicas_and_selects_its_own_pods() -> None:
    deployment = the_deployment()
    assert deployment["spec"]["replicas"] >= 2
    selector = deployment["spec"]["selector"]["matchLabels"]
    assert selects(selector, deployment["spec"]["template"]["metadata"]["labels"])


def test_deployment_probes_grpc_for_start_up_and_readiness_and_http_for_liveness() -> None:
    container = the_container(the_deployment())
    grpc_port = container_ports(container)["grpc"]
    for probe_name in ("readinessProbe", "startupProbe"):
        probe = container[probe_name]
        assert probe["grpc"]["port"] == grpc_port, probe_name
        assert not {"httpGet", "tcpSocket", "exec"} & probe.keys(), probe_name
    # Liveness asks the HTTP listener's /healthz, so each transport is probed.
    http_probe = container["livenessProbe"]["httpGet"]
    assert http_probe["path"] == "/healthz" and http_probe["port"] == "http"
    assert not {"grpc", "tcpSocket", "exec"} & container["livenessProbe"].keys()
    # Readiness asks for the engine itself; it goes NOT_SERVING while draining.
    assert container["readinessProbe"]["grpc"]["service"] == HEALTH_SERVICE
    # A liveness restart must not cut a drain short: it needs longer to trigger than the drain.
    liveness = container["livenessProbe"]
    env = container_env(container)
    assert liveness["periodSeconds"] * liveness["failureThreshold"] > int(env["SPLENDOR_GRACE_SECONDS"])


def test_deployment_sets_resource_requests_and_limits() -> None:
    resources = the_container(the_deployment())["resources"]
    for kind in ("requests", "limits"):
        assert {"cpu", "memory"} <= resources[kind].keys(), kind
    assert cpu_cores(resources["requests"]["cpu"]) <= cpu_cores(resources["limits"]["cpu"])
    assert memory_bytes(resources["requests"]["memory"]) <= memory_bytes(resources["limits"]["memory"])


def test_worker_processes_match_the_cpu_limit() -> None:
    container = the_container(the_deployment())
    processes = int(container_env(container)["SPLENDOR_PROCESSES"])
    assert processes >= 1
    assert processes == max(1, int(cpu_cores(container["resources"]["limits"]["cpu"])))


def test_termination_grace_covers_prestop_and_drain() -> None:
    deployment = the_deployment()
    container = the_container(deployment)
    grace = int(container_env(container)["SPLENDOR_GRACE_SECONDS"])
    termination = deployment["spec"]["template"]["spec"]["terminationGracePeriodSeconds"]
    assert termination > grace
    pre_stop = container["lifecycle"]["preStop"]["sleep"]["seconds"]
    assert pre_stop > 0
    assert termination > pre_stop + grace


def test_deployment_is_locked_down() -> None:
    pod_spec = the_deployment()["spec"]["template"]["spec"]
    pod_security = pod_spec.get("securityContext", {})
    container = the_container(the_deployment())
    security = container["securityContext"]

    def effective(key: str) -> Any:
        return security.get(key, pod_security.get(key))

    assert effective("runAsNonRoot") is True
    assert effective("runAsUser") not in (None, 0)
    assert security["readOnlyRootFilesystem"] is True
    assert security["allowPrivilegeEscalation"] is False
    assert security["capabilities"]["drop"] == ["ALL"]
    assert not security["capabilities"].get("add")
    assert effective("seccompProfile") == {"type": "RuntimeDefault"}
    assert pod_spec["automountServiceAccountToken"] is False


def test_writable_paths_are_volumes() -> None:
    """With a read-only root, the prometheus multiprocess dir and /tmp must be mounts."""
    deployment = the_deployment()
    container = the_container(deployment)
    volumes = {volume["name"]: volume for volume in deployment["spec"]["template"]["spec"]["volumes"]}
    mounts = {mount["mountPath"]: mount["name"] for mount in container["volumeMounts"]}
    multiproc_dir = container_env(container)["PROMETHEUS_MULTIPROC_DIR"]
    for path in (multiproc_dir, "/tmp"):
        assert path in mounts, path
        assert "emptyDir" in volumes[mounts[path]], path


def test_deployment_ports_env_and_scrape_annotations_agree() -> None:
    deployment = the_deployment()
    container = the_container(deployment)
    ports = container_ports(container)
    env = container_env(container)
    assert set(ports) == {"grpc", "http", "metrics"}
    assert port_of(env["SPLENDOR_ADDRESS"]) == ports["grpc"]
    assert env["SPLENDOR_ADDRESS"].startswith("0.0.0.0:")
    assert port_of(env["SPLENDOR_HTTP_ADDRESS"]) == ports["http"]
    assert env["SPLENDOR_HTTP_ADDRESS"].startswith("0.0.0.0:")
    assert int(env["SPLENDOR_METRICS_PORT"]) == ports["metrics"]
    annotations = deployment["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/scrape"] == "true"
    assert int(annotations["prometheus.io/port"]) == ports["metrics"]
    assert annotations["prometheus.io/path"] == "/metrics"


def test_services_select_the_pods_and_the_headless_one_has_no_cluster_ip() -> None:
    deployment = the_deployment()
    pod_labels = deployment["spec"]["template"]["metadata"]["labels"]
    ports = container_ports(the_container(deployment))
    services = {service["metadata"]["name"]: service for service in resources_of_kind("Service")}
    headless = [service for service in services.values() if service["spec"].get("clusterIP") == "None"]
    regular = [service for service in services.values() if service["spec"].get("clusterIP") != "None"]
    assert len(headless) == 1
    assert len(regular) == 1
    for name, service in services.items():
        assert selects(service["spec"]["selector"], pod_labels), name
        for port in service["spec"]["ports"]:
            assert port["targetPort"] in ports, (name, port)
            assert port["port"] == ports[port["targetPort"]], (name, port)
    (headless_service,) = headless
    assert "grpc" in {port["name"] for port in headless_service["spec"]["ports"]}
    assert headless_service["spec"].get("publishNotReadyAddresses", False) is False
    (regular_service,) = regular
    assert {port["name"] for port in regular_service["spec"]["ports"]} == {"grpc", "http", "metrics"}


def test_pdb_selects_the_deployment_pods() -> None:
    deployment = the_deployment()
    (pdb,) = resources_of_kind("PodDisruptionBudget")
    assert selects(pdb["spec"]["selector"]["matchLabels"], deployment["spec"]["template"]["metadata"]["labels"])
    assert pdb["spec"]["selector"]["matchLabels"] == deployment["spec"]["selector"]["matchLabels"]
    assert ("minAvailable" in pdb["spec"]) != ("maxUnavailable" in pdb["spec"])


def test_hpa_targets_the_deployment() -> None:
    deployment = the_deployment()
    (hpa,) = resources_of_kind("HorizontalPodAutoscaler")
    assert hpa["apiVersion"] == "autoscaling/v2"
    target = hpa["spec"]["scaleTargetRef"]
    assert (target["apiVersion"], target["kind"], target["name"]) == (
        deployment["apiVersion"],
        deployment["kind"],
        deployment["metadata"]["name"],
    )
    assert hpa["spec"]["minReplicas"] >= 2
    assert hpa["spec"]["maxReplicas"] >= hpa["spec"]["minReplicas"]
    (metric,) = hpa["spec"]["metrics"]
    assert metric["resource"]["name"] == "cpu"
    assert metric["resource"]["target"]["type"] == "Utilization"
    # Utilisation is relative to the request, which therefore has to be set.
    assert "cpu" in the_container(deployment)["resources"]["requests"]


def test_optional_service_monitor_scrapes_the_metrics_port_of_a_selected_service() -> None:
    (monitor,) = load_yaml_documents(K8S / "optional" / "servicemonitor.yaml")
    assert monitor["kind"] == "ServiceMonitor"
    selector = monitor["spec"]["selector"]["matchLabels"]
    matched = [service for service in resources_of_kind("Service") if selects(selector, service["metadata"]["labels"])]
    port_names = {port["name"] for service in matched for port in service["spec"]["ports"]}
    for endpoint in monitor["spec"]["endpoints"]:
        assert endpoint["port"] in port_names
        assert endpoint["path"] == "/metrics"


# ---------------------------------------------------------------------------- compose


def compose() -> dict[str, Any]:
    return yaml.safe_load((COMPOSE_DIR / "docker-compose.yaml").read_text())


def compose_env(service: dict[str, Any]) -> dict[str, str]:
    environment = service.get("environment", {})
    if isinstance(environment, list):
        environment = dict(item.split("=", 1) for item in environment)
    return {key: str(value) for key, value in environment.items()}


def bind_mounts(service: dict[str, Any]) -> dict[str, Path]:
    """Container path -> host path, for the service's relative bind mounts."""
    mounts = {}
    for volume in service.get("volumes", []):
        source, target = volume.split(":")[:2]
        if source.startswith("."):
            mounts[target] = (COMPOSE_DIR / source).resolve()
    return mounts


def test_compose_builds_the_engine_from_the_dockerfile_at_the_repo_root() -> None:
    build = compose()["services"]["engine"]["build"]
    context = (COMPOSE_DIR / build["context"]).resolve()
    assert context == REPO
    assert (context / build["dockerfile"]).resolve() == DOCKERFILE


def test_compose_prometheus_scrapes_the_engine_metrics_port() -> None:
    services = compose()["services"]
    engine_env = compose_env(services["engine"])
    metrics_port = int(engine_env["SPLENDOR_METRICS_PORT"])
    assert port_of(engine_env["SPLENDOR_ADDRESS"]) == 50051

    mounts = bind_mounts(services["prometheus"])
    config_path = mounts["/etc/prometheus/prometheus.yml"]
    assert config_path == COMPOSE_DIR / "prometheus.yml"
    config = yaml.safe_load(config_path.read_text())
    (job,) = [job for job in config["scrape_configs"] if job["job_name"] == "splendor-engine"]
    targets = [target for static in job["static_configs"] for target in static["targets"]]
    assert targets
    for target in targets:
        host, port = target.rsplit(":", 1)
        assert host in services
        assert int(port) == metrics_port
    assert job.get("metrics_path", "/metrics") == "/metrics"


def test_compose_engine_stops_with_time_to_drain() -> None:
    engine = compose()["services"]["engine"]
    grace = int(compose_env(engine)["SPLENDOR_GRACE_SECONDS"])
    stop = engine["stop_grace_period"]
    assert stop.endswith("s")
    assert int(stop[:-1]) > grace
    assert engine["read_only"] is True
    assert compose_env(engine)["PROMETHEUS_MULTIPROC_DIR"] in [entry.split()[0] for entry in engine["tmpfs"]]


def test_compose_grafana_provisioning_points_at_the_dashboard_and_prometheus() -> None:
    services = compose()["services"]
    mounts = bind_mounts(services["grafana"])
    provisioning = mounts["/etc/grafana/provisioning"]
    assert provisioning == COMPOSE_DIR / "grafana" / "provisioning"

    datasources = yaml.safe_load((provisioning / "datasources" / "prometheus.yaml").read_text())["datasources"]
    (datasource,) = datasources
    assert datasource["type"] == "prometheus"
    host = re.match(r"https?://([^:/]+)", datasource["url"])
    assert host is not None
    assert host.group(1) in services

    providers = yaml.safe_load((provisioning / "dashboards" / "dashboards.yaml").read_text())["providers"]
    (provider,) = providers
    dashboards_in_container = provider["options"]["path"]
    assert mounts[dashboards_in_container] == DASHBOARD.parent
    assert DASHBOARD.is_file()


# -------------------------------------------------------------------------- dashboard


def dashboard() -> dict[str, Any]:
    return json.loads(DASHBOARD.read_text())


def dashboard_panels() -> Iterator[dict[str, Any]]:
    for panel in dashboard()["panels"]:
        yield panel
        yield from panel.get("panels", [])


def dashboard_exprs() -> list[str]:
    return [target["expr"] for panel in dashboard_panels() for target in panel.get("targets", [])]


def test_promql_metric_name_extraction() -> None:
    expr = (
        'histogram_quantile(0.95, sum by (le, grpc_method) (rate(foo_seconds_bucket{job=~"$job", a!="x y"}'
        "[$__rate_interval]))) / on (grpc_method) group_left sum without (instance) (bar_total offset 5m)"
        " - ignoring (x) baz"
    )
    assert promql_metric_names(expr) == {"foo_seconds_bucket", "bar_total", "baz"}
    assert promql_metric_names("sum(rate(x_total[5m])) by (le)") == {"x_total"}


@pytest.mark.e2e
def test_dashboard_uses_only_metrics_the_service_exports_or_the_rules_record(exported: ExportedMetrics) -> None:
    known = exported.series | recorded_names() | SCRAPE_SERIES
    exprs = dashboard_exprs()
    assert exprs
    used = set()
    for expr in exprs:
        names = promql_metric_names(expr)
        assert names, expr
        assert names <= known, (expr, names - known)
        used |= names
    assert used >= REQUIRED_DASHBOARD_SERIES, REQUIRED_DASHBOARD_SERIES - used


@pytest.mark.e2e
def test_dashboard_variable_queries_use_exported_metrics(exported: ExportedMetrics) -> None:
    for variable in dashboard()["templating"]["list"]:
        if variable["type"] != "query":
            continue
        query = variable["query"]["query"] if isinstance(variable["query"], dict) else variable["query"]
        inner = re.fullmatch(r"label_values\((.*),\s*\w+\)", query)
        assert inner is not None, query
        assert promql_metric_names(inner.group(1)) <= exported.series, query


@pytest.mark.e2e
def test_dashboard_queries_are_well_formed(exported: ExportedMetrics) -> None:
    for expr in dashboard_exprs():
        assert expr.count("(") == expr.count(")"), expr
        assert expr.count("{") == expr.count("}"), expr
        assert expr.count("[") == expr.count("]"), expr
        # Counters are only meaningful through rate()/increase()/resets() or as a difference.
        counters = promql_metric_names(expr) & exported.counters
        for name in counters - {"grpc_server_started_total", "grpc_server_handled_total"}:
            assert re.search(rf"(?:rate|increase)\(\s*{name}\b", expr), (name, expr)


@pytest.mark.e2e
def test_dashboard_quantiles_aggregate_buckets_by_le(exported: ExportedMetrics) -> None:
    quantile_exprs = [expr for expr in dashboard_exprs() if "histogram_quantile" in expr]
    assert {q for expr in quantile_exprs for q in re.findall(r"histogram_quantile\(\s*([\d.]+)", expr)} >= {
        "0.50",
        "0.95",
        "0.99",
    }
    for expr in quantile_exprs:
        match = re.fullmatch(
            r"histogram_quantile\(\s*0?\.\d+,\s*sum by \(([^)]*)\) \(rate\((\w+)\{[^}]*\}\[[^\]]+\]\)\)\)", expr
        )
        assert match is not None, expr
        assert "le" in [label.strip() for label in match.group(1).split(",")], expr
        assert match.group(2).endswith("_bucket"), expr
        assert match.group(2).removesuffix("_bucket") in exported.histograms, expr


def test_dashboard_in_flight_panel_subtracts_handled_from_started() -> None:
    assert any(
        re.search(r"grpc_server_started_total.*\)\s*-\s*sum.*grpc_server_handled_total", expr)
        for expr in dashboard_exprs()
    )


def test_dashboard_panels_have_unique_ids_and_a_datasource() -> None:
    panels = list(dashboard_panels())
    ids = [panel["id"] for panel in panels]
    assert len(ids) == len(set(ids))
    variables = {variable["name"] for variable in dashboard()["templating"]["list"]}
    for panel in panels:
        if panel["type"] == "row":
            continue
        uid = panel["datasource"]["uid"]
        assert uid.strip("${}") in variables or uid == "prometheus", panel["title"]
        assert panel["targets"], panel["title"]


# ------------------------------------------------------------------------- Dockerfile


def dockerfile_instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, with continuations joined and comments dropped."""
    instructions: list[tuple[str, str]] = []
    pending = ""
    for raw in DOCKERFILE.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        keyword, _, arguments = (pending + line).partition(" ")
        instructions.append((keyword.upper(), arguments.strip()))
        pending = ""
    assert not pending, "dangling line continuation"
    return instructions


def dockerfile_stages() -> list[list[tuple[str, str]]]:
    stages: list[list[tuple[str, str]]] = []
    for keyword, arguments in dockerfile_instructions():
        if keyword == "FROM":
            stages.append([])
        if stages:
            stages[-1].append((keyword, arguments))
    return stages


def stage_args(stage: list[tuple[str, str]]) -> dict[str, str]:
    values = {}
    for keyword, arguments in stage:
        if keyword == "ARG" and "=" in arguments:
            name, value = arguments.split("=", 1)
            values[name] = value
    return values


def substitute(text: str, values: dict[str, str]) -> str:
    return re.sub(r"\$\{?(\w+)\}?", lambda match: values.get(match.group(1), match.group(0)), text)


def global_args() -> dict[str, str]:
    values = {}
    for keyword, arguments in dockerfile_instructions():
        if keyword == "FROM":
            break
        if keyword == "ARG" and "=" in arguments:
            name, value = arguments.split("=", 1)
            values[name] = value
    return values


def test_dockerfile_is_multi_stage_on_python_311_slim() -> None:
    stages = dockerfile_stages()
    assert len(stages) >= 2
    names = []
    for stage in stages:
        keyword, arguments = stage[0]
        assert keyword == "FROM"
        words = substitute(arguments, global_args()).split()
        assert words[0] == "python:3.11-slim", arguments
        names.append(words[2] if len(words) >= 3 and words[1].upper() == "AS" else None)
    assert names[0] == "builder"


def test_dockerfile_generates_stubs_and_builds_wheels_in_the_builder() -> None:
    builder = dockerfile_stages()[0]
    runs = [arguments for keyword, arguments in builder if keyword == "RUN"]
    assert any("grpcio-tools" in run and "mypy-protobuf" in run and "-c constraints.txt" in run for run in runs)
    codegen = [index for index, run in enumerate(runs) if "clients/python-proto/codegen.py" in run]
    wheel = [index for index, run in enumerate(runs) if "pip wheel" in run]
    assert codegen, "the builder does not run codegen.py"
    assert wheel, "the builder does not build wheels"
    assert codegen[0] < wheel[0], "stubs must be generated before the wheels are built"
    assert "-c constraints.txt" in runs[wheel[0]]
    # The contract's stubs and the engine; the engine serves without the client, so the image has none.
    assert "./clients/python-proto" in runs[wheel[0]].split()
    assert "." in runs[wheel[0]].split()
    assert "./clients/python" not in runs[wheel[0]].split()


def test_dockerfile_runtime_installs_only_wheels_and_no_build_tools() -> None:
    runtime = dockerfile_stages()[-1]
    runs = " ".join(arguments for keyword, arguments in runtime if keyword == "RUN")
    assert "--no-index" in runs
    assert "from=builder" in runs
    for tool in ("apt-get install", "build-essential", "gcc", "grpcio-tools", "mypy-protobuf", "codegen.py"):
        assert tool not in runs, tool
    assert "splendor-engine" in runs
    assert "splendor-client" not in runs, "the image serves; the client is not part of it"
    copies = [arguments for keyword, arguments in runtime if keyword in {"COPY", "ADD"}]
    assert all("--from=builder" in copy for copy in copies), copies


def test_dockerfile_runs_as_the_non_root_uid_the_deployment_expects() -> None:
    runtime = dockerfile_stages()[-1]
    users = [arguments for keyword, arguments in runtime if keyword == "USER"]
    assert users, "no USER in the runtime stage"
    user = substitute(users[-1], stage_args(runtime)).split(":")[0]
    assert user.isdigit(), "use a numeric UID so Kubernetes can verify runAsNonRoot"
    assert int(user) != 0
    deployment = the_deployment()
    pod_security = deployment["spec"]["template"]["spec"]["securityContext"]
    container_security = the_container(deployment)["securityContext"]
    assert int(user) == container_security.get("runAsUser", pod_security.get("runAsUser"))


def test_dockerfile_entrypoint_is_exec_form_console_script() -> None:
    runtime = dockerfile_stages()[-1]
    entrypoints = [arguments for keyword, arguments in runtime if keyword == "ENTRYPOINT"]
    commands = [arguments for keyword, arguments in runtime if keyword == "CMD"]
    assert entrypoints
    assert commands
    entrypoint = json.loads(entrypoints[-1])  # shell form is not JSON and fails here
    command = json.loads(commands[-1])
    assert entrypoint == ["splendor-engine"]
    assert command == ["serve"]
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    assert entrypoint[0] in scripts


def test_dockerfile_environment_and_ports_match_the_deployment() -> None:
    runtime = dockerfile_stages()[-1]
    env: dict[str, str] = {}
    for keyword, arguments in runtime:
        if keyword == "ENV":
            env.update(token.split("=", 1) for token in shlex.split(arguments))
    assert env["PYTHONUNBUFFERED"] == "1"
    assert env["SPLENDOR_ADDRESS"].startswith("0.0.0.0:")
    exposed = {
        int(port.split("/")[0]) for keyword, arguments in runtime if keyword == "EXPOSE" for port in arguments.split()
    }
    ports = container_ports(the_container(the_deployment()))
    assert exposed == set(ports.values())
    assert port_of(env["SPLENDOR_ADDRESS"]) == ports["grpc"]
    assert port_of(env["SPLENDOR_HTTP_ADDRESS"]) == ports["http"]
    assert int(env["SPLENDOR_METRICS_PORT"]) == ports["metrics"]
    deployment_env = container_env(the_container(the_deployment()))
    assert env["PROMETHEUS_MULTIPROC_DIR"] == deployment_env["PROMETHEUS_MULTIPROC_DIR"]


def test_dockerfile_copies_exist_and_are_not_ignored() -> None:
    patterns = [
        line.strip() for line in DOCKERIGNORE.read_text().splitlines() if line.strip() and not line.startswith("#")
    ]
    assert "**/.venv" in patterns or ".venv" in patterns
    sources = []
    for keyword, arguments in dockerfile_instructions():
        if keyword != "COPY" or "--from=" in arguments:
            continue
        words = [word for word in arguments.split() if not word.startswith("--")]
        sources += words[:-1]
    assert sources
    for source in sources:
        path = Path(source.rstrip("/"))
        assert (REPO / path).exists(), source
        for pattern in patterns:
            anywhere = pattern.removeprefix("**/")
            parts = path.parts
            ignored = fnmatch.fnmatch(str(path), pattern) or (
                pattern.startswith("**/") and any(fnmatch.fnmatch(part, anywhere) for part in parts)
            )
            assert not ignored, (source, pattern)


def test_compose_publishes_the_http_port_the_engine_listens_on() -> None:
    engine = compose()["services"]["engine"]
    http_port = port_of(compose_env(engine)["SPLENDOR_HTTP_ADDRESS"])
    assert compose_env(engine)["SPLENDOR_HTTP_ADDRESS"].startswith("0.0.0.0:")
    assert f"{http_port}:{http_port}" in engine["ports"]
