"""The Kubernetes manifests hand every replica the same key ring, and the example ring is flagged as such."""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any

import yaml

from engine_service.sealing import parse_key_ring
from tests.deploy.test_deploy import K8S, all_resources, container_env, the_container, the_deployment


def the_secret(name: str) -> dict[str, Any]:
    (secret,) = [doc for doc in all_resources() if doc["kind"] == "Secret" and doc["metadata"]["name"] == name]
    return secret


def test_the_key_file_the_server_reads_is_the_secret_mounted_into_the_pod() -> None:
    deployment = the_deployment()
    container = the_container(deployment)
    key_file = PurePosixPath(container_env(container)["SPLENDOR_SEALING_KEYS_FILE"])
    (mount,) = [mount for mount in container["volumeMounts"] if mount["mountPath"] == str(key_file.parent)]
    assert mount["readOnly"] is True
    volumes = {volume["name"]: volume for volume in deployment["spec"]["template"]["spec"]["volumes"]}
    secret_name = volumes[mount["name"]]["secret"]["secretName"]
    assert key_file.name in the_secret(secret_name)["stringData"]


def test_the_example_ring_parses_and_is_flagged_as_the_published_example() -> None:
    container = the_container(the_deployment())
    key_file = PurePosixPath(container_env(container)["SPLENDOR_SEALING_KEYS_FILE"])
    (secret,) = [doc for doc in all_resources() if doc["kind"] == "Secret"]
    ring = parse_key_ring(secret["stringData"][key_file.name])
    assert ring.uses_example_key
    assert "EXAMPLE ONLY" in (K8S / "secret.example.yaml").read_text()


def test_the_kustomization_lists_the_example_secret() -> None:
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    assert "secret.example.yaml" in kustomization["resources"]
