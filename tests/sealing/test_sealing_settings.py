"""The key ring's settings: --sealing-keys-file / SPLENDOR_SEALING_KEYS_FILE and SPLENDOR_SEALING_KEYS."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine_service import cli
from engine_service.sealing import KeyRing
from engine_service.server.settings import Settings, defaults_from_env
from tests.sealing.rings import key_line

KEY = key_line("a", 1)


def test_the_environment_sets_the_key_file_or_the_keys() -> None:
    assert defaults_from_env({"SPLENDOR_SEALING_KEYS_FILE": "/run/keys"}).sealing_keys_file == "/run/keys"
    assert defaults_from_env({"SPLENDOR_SEALING_KEYS": KEY}).sealing_keys == KEY
    assert defaults_from_env({}) == Settings()


def test_a_key_file_and_keys_together_are_refused() -> None:
    with pytest.raises(ValueError, match="not both"):
        defaults_from_env({"SPLENDOR_SEALING_KEYS_FILE": "/run/keys", "SPLENDOR_SEALING_KEYS": KEY})


def test_settings_never_show_the_keys() -> None:
    settings = Settings(sealing_keys=KEY)
    assert KEY.split(":")[1] not in repr(settings)
    assert KEY.split(":")[1] not in str(settings)


def test_help_documents_the_key_file_flag_and_both_variables(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for expected in ("--sealing-keys-file", "SPLENDOR_SEALING_KEYS_FILE", "SPLENDOR_SEALING_KEYS ", "KEY_ID:retired"):
        assert expected in text


def test_a_bad_key_file_stops_the_server_before_it_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def must_not_serve(settings: Settings) -> int:
        raise AssertionError("the server started with a bad key ring")

    monkeypatch.setattr("engine_service.server.app.serve", must_not_serve)
    path = tmp_path / "keys"
    path.write_text("a:tooshort")
    assert cli.main(["serve", "--sealing-keys-file", str(path)]) == 2
    assert "sealing keys" in capsys.readouterr().err
    assert cli.main(["serve", "--sealing-keys-file", str(tmp_path / "missing")]) == 2
    assert "cannot read" in capsys.readouterr().err
    monkeypatch.setenv("SPLENDOR_SEALING_KEYS", "a:retired")
    assert cli.main(["serve"]) == 2
    assert "must be a key" in capsys.readouterr().err


def test_a_good_key_file_reaches_the_server_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    received: list[tuple[Settings, KeyRing]] = []
    monkeypatch.setattr(
        "engine_service.server.app.serve", lambda settings, ring: received.append((settings, ring)) or 0
    )
    path = tmp_path / "keys"
    path.write_text(KEY)
    assert cli.main(["serve", "--sealing-keys-file", str(path)]) == 0
    settings, ring = received[0]
    assert settings.sealing_keys_file == str(path)
    assert ring.current_id == "a" and not ring.generated  # loaded once, in the parent, and handed to the server
