"""Start-up for people (issue 41): with console output the server prints where to go (the browser game, Connect,
gRPC, metrics), which core runs and, for a generated key, why and how to keep one; a pure core says how to get the
compiled one in one info line. JSON output stays JSON lines."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time

import pytest
from structlog.testing import capture_logs

import engine_service.core_info
from engine_service.core_info import compiled_core_hint, core_kind, log_rules_core, running_from_a_checkout
from engine_service.process.banner import KEY_FILE, banner, openable
from tests.ops.support import ROOT, Server

BANNER_SECONDS = 30


def test_a_wildcard_host_is_opened_as_localhost() -> None:
    assert openable("0.0.0.0:8080") == "localhost:8080"
    assert openable("[::]:50051") == "localhost:50051"
    assert openable("127.0.0.1:9464") == "127.0.0.1:9464"


def test_the_banner_names_every_address_to_open_and_how_to_keep_a_generated_key() -> None:
    text = banner(
        grpc_address="0.0.0.0:50051",
        http_address="0.0.0.0:8080",
        metrics_address="0.0.0.0:9464",
        key_generated=True,
        grace_seconds=10,
    )
    assert "play in a browser   http://localhost:8080/\n" in text
    assert "http://localhost:8080/splendor.v1.EngineService/<Method>" in text
    assert "gRPC                localhost:50051" in text
    assert "metrics             http://localhost:9464/metrics" in text
    assert f"splendor-engine keygen > {KEY_FILE}" in text
    assert f"--sealing-keys-file {KEY_FILE}" in text and "SPLENDOR_SEALING_KEYS_FILE" in text
    assert re.search(r"^Rules core: (pure Python: .*make serve.*|compiled \(mypyc\))\.$", text, re.MULTILINE), text


def test_without_http_metrics_or_a_generated_key_the_banner_leaves_their_lines_out() -> None:
    text = banner(
        grpc_address="127.0.0.1:50051", http_address=None, metrics_address=None, key_generated=False, grace_seconds=3
    )
    assert "browser" not in text and "metrics" not in text and "Sealing key" not in text
    assert text.endswith("Stop with Ctrl-C (calls in flight get 3 s to finish).")


def test_a_pure_core_says_in_one_info_line_how_to_get_the_compiled_one(monkeypatch: pytest.MonkeyPatch) -> None:
    # Run from a checkout (the compiled test pass imports a copy of the package from the build folder instead).
    monkeypatch.setattr(engine_service.core_info, "core_kind", lambda: "pure")
    monkeypatch.setattr(engine_service.core_info, "running_from_a_checkout", lambda: True)
    with capture_logs() as logs:
        log_rules_core()
    events = [(line["event"], line["log_level"]) for line in logs]
    assert events == [("rules_core", "info"), ("rules_core_hint", "info")]
    assert "make serve" in logs[1]["hint"]  # a checkout: the Makefile builds it


def test_the_checkout_is_recognised_as_one() -> None:
    if core_kind() == "compiled":  # the compiled pass runs a copy of the package in the build folder
        assert not running_from_a_checkout()
    else:
        assert running_from_a_checkout()


def test_an_installed_pure_core_says_to_reinstall_with_a_compiler(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine_service.core_info, "core_kind", lambda: "pure")
    monkeypatch.setattr(engine_service.core_info, "running_from_a_checkout", lambda: False)
    hint = compiled_core_hint()
    assert hint is not None and "C compiler" in hint and "reinstall" in hint


def test_the_compiled_core_needs_no_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine_service.core_info, "core_kind", lambda: "compiled")
    with capture_logs() as logs:
        log_rules_core()
    assert [line["event"] for line in logs] == ["rules_core"]


@pytest.mark.e2e
def test_a_console_server_prints_the_banner_with_the_ports_it_bound() -> None:
    command = [sys.executable, "-m", "engine_service.cli", "serve", "--address", "127.0.0.1:0"]
    command += ["--http-address", "127.0.0.1:0", "--metrics-port", "0", "--log-format", "console"]
    environment = {key: value for key, value in os.environ.items() if not key.startswith("SPLENDOR_")}
    environment["PYTHONPATH"] = str(ROOT)
    process = subprocess.Popen(command, cwd=ROOT, env=environment, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        lines: list[str] = []
        deadline = time.monotonic() + BANNER_SECONDS
        while not lines or not lines[-1].startswith("Stop with Ctrl-C"):
            assert time.monotonic() < deadline, lines
            lines.append(process.stdout.readline().rstrip("\n"))
        started = next(line for line in lines if "server_started" in line)
        grpc_port = re.search(r" port=(\d+)", started)
        http = re.search(r"http_address=127\.0\.0\.1:(\d+)", started)
        assert grpc_port and http, started
        assert f"  play in a browser   http://127.0.0.1:{http[1]}/" in lines
        assert f"  gRPC                127.0.0.1:{grpc_port[1]} (with reflection: buf curl, grpcurl)" in lines
        generated = "Sealing key: none configured, so one was generated for this run: sealed games end when it stops."
        assert generated in lines
        assert lines.index(started) < lines.index("Stop with Ctrl-C (calls in flight get 10 s to finish).")
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


@pytest.mark.e2e
def test_json_output_has_no_banner() -> None:
    with Server() as server:
        assert server.stop() == 0
        server.wait_for(lambda: server.events("server_stopped"))  # every line before it read too
    assert server.not_json == []
