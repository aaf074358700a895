"""Settings from the environment and the command line."""

from __future__ import annotations

import pytest

from engine_service import cli
from engine_service.server.app import bound_address
from engine_service.server.settings import Settings, defaults_from_env


def test_environment_overrides_the_defaults() -> None:
    env = {
        "SPLENDOR_ADDRESS": "127.0.0.1:6000",
        "SPLENDOR_MAX_MESSAGE_BYTES": "1024",
        "SPLENDOR_WORKERS": "3",
        "SPLENDOR_GRACE_SECONDS": "2.5",
        "SPLENDOR_LOG_LEVEL": "DEBUG",
    }
    assert defaults_from_env(env) == Settings("127.0.0.1:6000", 1024, 3, 2.5, "debug")
    assert defaults_from_env({}) == Settings()


@pytest.mark.parametrize(
    "env",
    [
        {"SPLENDOR_WORKERS": "0"},
        {"SPLENDOR_WORKERS": "many"},
        {"SPLENDOR_GRACE_SECONDS": "-1"},
        {"SPLENDOR_LOG_LEVEL": "loud"},
        {"SPLENDOR_MAX_MESSAGE_BYTES": "0"},
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
        ("--max-message-bytes", "SPLENDOR_MAX_MESSAGE_BYTES"),
        ("--workers", "SPLENDOR_WORKERS"),
        ("--grace-seconds", "SPLENDOR_GRACE_SECONDS"),
        ("--log-level", "SPLENDOR_LOG_LEVEL"),
    ]:
        assert flag in text and variable in text
    assert "localhost:50051" in text


def test_bad_values_exit_with_status_2(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["serve", "--workers", "0"]) == 2
    monkeypatch.setenv("SPLENDOR_GRACE_SECONDS", "soon")
    assert cli.main(["serve"]) == 2
    assert "SPLENDOR" not in capsys.readouterr().out  # errors go to stderr


def test_bound_address_reports_the_real_port() -> None:
    assert bound_address("127.0.0.1:0", 43210) == "127.0.0.1:43210"
    assert bound_address("[::1]:0", 5) == "[::1]:5"
