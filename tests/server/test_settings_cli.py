"""Settings from the environment and the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine_service import cli
from engine_service.cli import deprecated_flags
from engine_service.process.main import bound_address
from engine_service.runtime.settings import (
    DEPRECATED_ENV,
    ENV,
    Settings,
    defaults_from_env,
    deprecated_variables,
    grpc_server_options,
)
from engine_service.sealing import KeyRing


def test_environment_overrides_the_defaults() -> None:
    env = {
        "SPLENDOR_ADDRESS": "127.0.0.1:6000",
        "SPLENDOR_MAX_RESPONSE_BYTES": "1024",
        "SPLENDOR_THREADS": "3",
        "SPLENDOR_GRACE_SECONDS": "2.5",
        "SPLENDOR_LOG_LEVEL": "DEBUG",
    }
    assert defaults_from_env(env) == Settings("127.0.0.1:6000", 1024, 3, 2.5, "debug")
    assert defaults_from_env({}) == Settings()
    operations = {
        "SPLENDOR_LOG_FORMAT": "JSON",
        "SPLENDOR_METRICS_PORT": "0",
        "SPLENDOR_PROCESSES": "4",
        "SPLENDOR_MAX_CONCURRENT_RPCS": "7",
        "SPLENDOR_KEEPALIVE_TIME_SECONDS": "30",
        "SPLENDOR_KEEPALIVE_TIMEOUT_SECONDS": "5",
        "SPLENDOR_MIN_PING_INTERVAL_SECONDS": "1",
        "SPLENDOR_MAX_CONNECTION_AGE_SECONDS": "60",
        "SPLENDOR_MAX_CONNECTION_AGE_GRACE_SECONDS": "6",
        "SPLENDOR_MAX_BOT_ITERATIONS": "40",
        "SPLENDOR_MAX_BATCH_ITEMS": "32",
    }
    assert defaults_from_env(operations) == Settings(
        log_format="json",
        metrics_port=0,
        processes=4,
        max_concurrent_rpcs=7,
        keepalive_time_seconds=30,
        keepalive_timeout_seconds=5,
        min_ping_interval_seconds=1,
        max_connection_age_seconds=60,
        max_connection_age_grace_seconds=6,
        max_bot_iterations=40,
        max_batch_items=32,
    )


def test_the_documented_defaults() -> None:
    defaults = Settings()
    assert (defaults.metrics_port, defaults.processes, defaults.max_concurrent_rpcs) == (9464, 1, 100)
    assert (defaults.log_format, defaults.max_connection_age_seconds) == ("auto", 300)


def test_settings_become_grpc_server_options() -> None:
    settings = Settings(max_response_bytes=1000, max_request_bytes=700, max_connection_age_seconds=2.5)
    options = dict(grpc_server_options(settings))
    assert options["grpc.max_send_message_length"] == 1000
    assert options["grpc.max_receive_message_length"] == 700
    assert options["grpc.so_reuseport"] == 0
    assert options["grpc.keepalive_time_ms"] == 60_000 and options["grpc.keepalive_timeout_ms"] == 20_000
    assert options["grpc.http2.min_ping_interval_without_data_ms"] == 10_000
    assert options["grpc.keepalive_permit_without_calls"] == 1
    assert options["grpc.max_connection_age_ms"] == 2500 and options["grpc.max_connection_age_grace_ms"] == 30_000
    assert dict(grpc_server_options(Settings(), reuse_port=True))["grpc.so_reuseport"] == 1
    unlimited = dict(grpc_server_options(Settings(max_connection_age_seconds=0)))
    assert "grpc.max_connection_age_ms" not in unlimited and "grpc.max_connection_age_grace_ms" not in unlimited


@pytest.mark.parametrize(
    "env",
    [
        {"SPLENDOR_THREADS": "0"},
        {"SPLENDOR_THREADS": "many"},
        {"SPLENDOR_WORKERS": "0"},
        {"SPLENDOR_GRACE_SECONDS": "-1"},
        {"SPLENDOR_LOG_LEVEL": "loud"},
        {"SPLENDOR_MAX_RESPONSE_BYTES": "0"},
        {"SPLENDOR_MAX_MESSAGE_BYTES": "0"},
        {"SPLENDOR_LOG_FORMAT": "xml"},
        {"SPLENDOR_METRICS_PORT": "70000"},
        {"SPLENDOR_PROCESSES": "0"},
        {"SPLENDOR_MAX_CONCURRENT_RPCS": "-1"},
        {"SPLENDOR_KEEPALIVE_TIME_SECONDS": "0"},
        {"SPLENDOR_MAX_CONNECTION_AGE_SECONDS": "-5"},
        {"SPLENDOR_MAX_BOT_ITERATIONS": "0"},
        {"SPLENDOR_MAX_BATCH_ITEMS": "0"},
    ],
)
def test_bad_environment_values_are_refused(env: dict[str, str]) -> None:
    with pytest.raises(ValueError):
        defaults_from_env(env)


def test_help_documents_every_flag_and_variable(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["serve", "--help"])
    assert exited.value.code == 0
    text = capsys.readouterr().out
    for flag, variable in [
        ("--address", "SPLENDOR_ADDRESS"),
        ("--max-response-bytes", "SPLENDOR_MAX_RESPONSE_BYTES"),
        ("--threads", "SPLENDOR_THREADS"),
        ("--grace-seconds", "SPLENDOR_GRACE_SECONDS"),
        ("--log-level", "SPLENDOR_LOG_LEVEL"),
        ("--log-format", "SPLENDOR_LOG_FORMAT"),
        ("--metrics-port", "SPLENDOR_METRICS_PORT"),
        ("--processes", "SPLENDOR_PROCESSES"),
        ("--max-concurrent-rpcs", "SPLENDOR_MAX_CONCURRENT_RPCS"),
        ("--keepalive-time-seconds", "SPLENDOR_KEEPALIVE_TIME_SECONDS"),
        ("--keepalive-timeout-seconds", "SPLENDOR_KEEPALIVE_TIMEOUT_SECONDS"),
        ("--min-ping-interval-seconds", "SPLENDOR_MIN_PING_INTERVAL_SECONDS"),
        ("--max-connection-age-seconds", "SPLENDOR_MAX_CONNECTION_AGE_SECONDS"),
        ("--max-connection-age-grace-seconds", "SPLENDOR_MAX_CONNECTION_AGE_GRACE_SECONDS"),
        ("--max-bot-iterations", "SPLENDOR_MAX_BOT_ITERATIONS"),
        ("--max-batch-items", "SPLENDOR_MAX_BATCH_ITEMS"),
    ]:
        assert flag in text and variable in text
    assert "localhost:50051" in text and "9464" in text
    assert "--workers" in text and "--max-message-bytes" in text  # the deprecated names still work


def test_the_deprecated_names_still_set_their_settings_and_say_their_new_names(
    capsys: pytest.CaptureFixture[str],
) -> None:
    old = {"SPLENDOR_WORKERS": "3", "SPLENDOR_MAX_MESSAGE_BYTES": "1024"}
    assert defaults_from_env(old) == Settings(threads=3, max_response_bytes=1024)
    assert defaults_from_env({**old, "SPLENDOR_THREADS": "5"}).threads == 5  # the new name wins
    assert deprecated_variables(old) == [
        "SPLENDOR_WORKERS is deprecated: set SPLENDOR_THREADS",
        "SPLENDOR_MAX_MESSAGE_BYTES is deprecated: set SPLENDOR_MAX_RESPONSE_BYTES",
    ]
    assert deprecated_flags(["serve", "--workers", "2", "--max-message-bytes=10"]) == [
        "--workers is deprecated: use --threads",
        "--max-message-bytes is deprecated: use --max-response-bytes",
    ]
    with pytest.deprecated_call(match="Settings.threads"):
        assert Settings(threads=4).workers == 4
    with pytest.deprecated_call(match="Settings.max_response_bytes"):
        assert Settings(max_response_bytes=9).max_message_bytes == 9
    assert cli.main(["serve", "--workers", "0"]) == 2
    assert "splendor-engine: --workers is deprecated: use --threads" in capsys.readouterr().err


def test_bad_values_exit_with_status_2(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["serve", "--workers", "0"]) == 2
    assert cli.main(["serve", "--threads", "0"]) == 2
    assert cli.main(["serve", "--processes", "0"]) == 2
    monkeypatch.setenv("SPLENDOR_GRACE_SECONDS", "soon")
    assert cli.main(["serve"]) == 2
    assert "SPLENDOR" not in capsys.readouterr().out  # errors go to stderr


def test_bound_address_reports_the_real_port() -> None:
    assert bound_address("127.0.0.1:0", 43210) == "127.0.0.1:43210"
    assert bound_address("[::1]:0", 5) == "[::1]:5"


def test_the_handlers_get_the_bounds_of_the_settings() -> None:
    settings = Settings(
        max_replay_actions=9,
        max_response_bytes=5000,
        max_bot_iterations=12,
        seat_keys=False,
        max_batch_items=7,
        max_request_bytes=3000,
    )
    config = settings.api_config(KeyRing.generate())
    assert (config.max_replay_actions, config.max_response_bytes, config.max_bot_iterations) == (9, 5000, 12)
    assert (config.max_batch_items, config.max_request_bytes) == (7, 3000)
    assert config.seat_keys is False


def test_the_operations_guide_lists_every_variable_and_every_deprecated_name() -> None:
    guide = (Path(__file__).resolve().parents[2] / "docs" / "operations.md").read_text(encoding="utf-8")
    for variable in [*ENV.values(), *DEPRECATED_ENV]:
        assert f"`{variable}`" in guide, variable
