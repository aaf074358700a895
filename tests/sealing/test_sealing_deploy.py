"""The Kubernetes manifests hand every replica the same key ring, which the operator creates: no published key ships."""

from __future__ import annotations

from pathlib import PurePosixPath

import yaml

from engine_service.sealing import EXAMPLE_KEYS
from tests.deploy.test_deploy import K8S, all_resources, container_env, the_container, the_deployment

SECRET_NAME = "splendor-engine-sealing-keys"


def test_the_key_file_the_server_reads_is_the_operators_secret_mounted_read_only() -> None:
    deployment = the_deployment()
    container = the_container(deployment)
    key_file = PurePosixPath(container_env(container)["SPLENDOR_SEALING_KEYS_FILE"])
    (mount,) = [mount for mount in container["volumeMounts"] if mount["mountPath"] == str(key_file.parent)]
    assert mount["readOnly"] is True
    volumes = {volume["name"]: volume for volume in deployment["spec"]["template"]["spec"]["volumes"]}
    assert volumes[mount["name"]]["secret"]["secretName"] == SECRET_NAME


def test_the_kustomization_ships_no_secret_and_no_key() -> None:
    assert not [doc for doc in all_resources() if doc["kind"] == "Secret"]
    manifests = "".join(path.read_text() for path in K8S.rglob("*.yaml"))
    for key in EXAMPLE_KEYS:
        assert key.decode() not in manifests
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    assert all("secret" not in name for name in kustomization["resources"])
