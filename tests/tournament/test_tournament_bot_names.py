"""Which bots a tournament offers: the engine's policies in-process, the client's bots and the server's policies
through a server, both read from a catalog."""

from __future__ import annotations

import re
import sys

import pytest
from splendor_client.bots import BOT_NAMES
from splendor_client.local_engine import INSTALL_HINT
from splendor_client.tournament import main
from splendor_client.tournament_games import check_bot, is_server_bot, offered_bots

from engine_service.bots import is_search_policy, policy_names


def test_an_in_process_tournament_offers_the_engines_policies() -> None:
    offer = offered_bots(None)
    assert offer.names == policy_names()
    assert offer.searching == {name for name in policy_names() if is_search_policy(name)}


def test_a_server_tournament_offers_the_clients_bots_and_the_servers_policies(address: str) -> None:
    offer = offered_bots(address)
    assert set(offer.names) == {*BOT_NAMES, *policy_names()}
    assert [name for name in offer.names if is_server_bot(name)] == [n for n in policy_names() if n not in BOT_NAMES]


@pytest.mark.parametrize("server", [False, True])
def test_an_unknown_bot_is_refused_naming_the_known_ones(server: bool, request: pytest.FixtureRequest) -> None:
    address = request.getfixturevalue("address") if server else None
    with pytest.raises(ValueError, match="unknown bot 'alphazero'") as refused:
        check_bot("alphazero", address)
    assert all(name in str(refused.value) for name in policy_names())


@pytest.mark.parametrize("server", [False, True])
@pytest.mark.parametrize("spec", ["greedy:3", "ismcts:0", "ismcts:", "ismcts:fast"])
def test_only_a_search_policy_takes_a_number_of_iterations(
    spec: str, server: bool, request: pytest.FixtureRequest
) -> None:
    address = request.getfixturevalue("address") if server else None
    reason = f"bad bot {spec!r}: only a search policy (ismcts) takes an argument"
    with pytest.raises(ValueError, match=re.escape(reason)):
        check_bot(spec, address)


def test_an_in_process_tournament_without_the_engine_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "engine_service", None)  # as if the package were not installed
    with pytest.raises(SystemExit) as stopped:
        main(["greedy", "random", "--in-process"])
    assert stopped.value.code == 2
    assert INSTALL_HINT in capsys.readouterr().err


def test_a_server_tournament_without_a_server_says_which_address_did_not_answer(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["greedy", "random", "--server", "127.0.0.1:1", "--games", "1"]) == 1
    assert "splendor-tournament: the server at 127.0.0.1:1: UNAVAILABLE" in capsys.readouterr().err
