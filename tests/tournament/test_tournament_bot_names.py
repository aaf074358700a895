"""Which bots a tournament offers: the engine's policy names in-process, the same names through a server."""

from __future__ import annotations

import re
import sys

import pytest
from splendor_client.bots import BOT_NAMES
from splendor_client.local_engine import INSTALL_HINT
from splendor_client.tournament import main
from splendor_client.tournament_games import SERVER_POLICIES, check_bot

from engine_service.policy_names import POLICY_NAMES

SERVER = "127.0.0.1:1"  # never dialled: check_bot only reads the spelling


def test_a_server_tournament_offers_the_engines_policy_names() -> None:
    # The client's own bots and the server's policies together: the names the engine lists, no more, no fewer.
    assert sorted((*BOT_NAMES, *SERVER_POLICIES)) == sorted(POLICY_NAMES)


@pytest.mark.parametrize("server", [None, SERVER])
def test_an_unknown_bot_is_refused_naming_the_known_ones(server: str | None) -> None:
    with pytest.raises(ValueError, match="unknown bot 'alphazero'") as refused:
        check_bot("alphazero", server)
    assert all(name in str(refused.value) for name in POLICY_NAMES)


@pytest.mark.parametrize("server", [None, SERVER])
@pytest.mark.parametrize("spec", ["greedy:3", "ismcts:0", "ismcts:", "ismcts:fast"])
def test_only_ismcts_takes_a_number_of_iterations(spec: str, server: str | None) -> None:
    with pytest.raises(ValueError, match=re.escape(f"bad bot {spec!r}: only ismcts takes an argument")):
        check_bot(spec, server)


def test_an_in_process_tournament_without_the_engine_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "engine_service", None)  # as if the package were not installed
    with pytest.raises(SystemExit) as stopped:
        main(["greedy", "random", "--in-process"])
    assert stopped.value.code == 2
    assert INSTALL_HINT in capsys.readouterr().err
