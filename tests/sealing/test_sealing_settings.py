"""The key ring's settings: --sealing-keys-file / SPLENDOR_SEALING_KEYS_FILE and SPLENDOR_SEALING_KEYS, the example
key refused unless --allow-example-key, seat keys on unless --no-seat-keys, and ``splendor-engine keygen``."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine_service import cli
from engine_service.runtime.settings import Settings, defaults_from_env
from engine_service.sealing import KeyRing, parse_key_ring
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

    monkeypatch.setattr("engine_service.process.main.serve", must_not_serve)
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
        "engine_service.process.main.serve", lambda settings, ring: received.append((settings, ring)) or 0
    )
    path = tmp_path / "keys"
    path.write_text(KEY)
    assert cli.main(["serve", "--sealing-keys-file", str(path)]) == 0
    settings, ring = received[0]
    assert settings.sealing_keys_file == str(path)
    assert ring.current_id == "a" and not ring.generated  # loaded once, in the parent, and handed to the server


EXAMPLE_RING = "example:RVhBTVBMRS1LRVktRE8tTk9ULVVTRS1JTi1QUk9EISE="  # the published key of earlier releases


def test_the_server_refuses_to_start_with_the_published_example_key(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def must_not_serve(settings: Settings, ring: KeyRing) -> int:
        raise AssertionError("the server started with the published example key")

    monkeypatch.setattr("engine_service.process.main.serve", must_not_serve)
    monkeypatch.setenv("SPLENDOR_SEALING_KEYS", f"{KEY}\n{EXAMPLE_RING}")
    assert parse_key_ring(EXAMPLE_RING).uses_example_key
    assert cli.main(["serve"]) == 2
    message = capsys.readouterr().err
    assert "published example key" in message and "--allow-example-key" in message and "keygen" in message


@pytest.mark.parametrize("how", [["--allow-example-key"], []])
def test_a_throwaway_setup_may_start_with_the_example_key_when_it_says_so(
    monkeypatch: pytest.MonkeyPatch, how: list[str]
) -> None:
    received: list[Settings] = []
    monkeypatch.setattr("engine_service.process.main.serve", lambda settings, ring: received.append(settings) or 0)
    monkeypatch.setenv("SPLENDOR_SEALING_KEYS", EXAMPLE_RING)
    if not how:
        monkeypatch.setenv("SPLENDOR_ALLOW_EXAMPLE_KEY", "true")
    assert cli.main(["serve", *how]) == 0
    assert received[0].allow_example_key


def test_seat_keys_are_required_unless_turned_off_by_flag_or_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    received: list[Settings] = []
    monkeypatch.setattr("engine_service.process.main.serve", lambda settings, ring: received.append(settings) or 0)
    assert cli.main(["serve"]) == 0
    assert cli.main(["serve", "--no-seat-keys"]) == 0
    monkeypatch.setenv("SPLENDOR_SEAT_KEYS", "off")
    assert cli.main(["serve"]) == 0
    assert [settings.seat_keys for settings in received] == [True, False, False]


@pytest.mark.parametrize("value", ["maybe", "2", "nein"])
def test_a_boolean_variable_of_another_spelling_is_refused(value: str) -> None:
    with pytest.raises(ValueError, match="SPLENDOR_SEAT_KEYS"):
        defaults_from_env({"SPLENDOR_SEAT_KEYS": value})


def test_keygen_prints_a_ring_line_the_server_reads(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["keygen", "--key-id", "2026-12"]) == 0
    first = capsys.readouterr().out.strip()
    ring = parse_key_ring(first)
    assert ring.current_id == "2026-12" and not ring.uses_example_key
    assert cli.main(["keygen"]) == 0
    second = capsys.readouterr().out.strip()
    assert parse_key_ring(second).keys != ring.keys  # fresh random bytes each time
    assert cli.main(["keygen", "--key-id", "not a key id"]) == 2
