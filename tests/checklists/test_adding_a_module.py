"""Checklist "Adding a game module" (docs/architecture.md): every module of the contract is registered in the rules,
has its protobuf adapter, is named throughout the contract, offered by the web page, documented in docs/rules.md
and covered by the conformance vectors, each check shown to catch a planted module; and a server refuses to start
with a module registered in the rules but given no adapter (it would leave the module's state out of every answer).

The clients need no edit (their module names come from the contract's ``Module`` enum), and the tests that play
every ruleset read the registry (``tests/rulesets.py``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pytest

from engine_service.codec.modules import ModuleAdapter, ModuleWithoutAdapter, check_adapters, registered_adapter
from engine_service.http import HttpServer
from engine_service.rules import registered, registered_modules
from engine_service.runtime.settings import Settings
from engine_service.server.app import build_server
from tests.checklists.coverage import (
    contract_modules,
    missing_adapters,
    missing_from_conformance,
    missing_from_contract,
    missing_from_rules,
    missing_from_rules_doc,
    missing_from_web_page,
)
from tests.rules.test_registry_plugin import BEACONS_MODULE
from tests.rulesets import MODULE_NAMES

PLANTED = "beacons"  # the test module of tests/rules/test_registry_plugin.py, unknown to the contract
PLACES: list[Callable[[Iterable[str]], list[str]]] = [
    missing_from_rules,
    missing_adapters,
    missing_from_contract,
    missing_from_web_page,
    missing_from_rules_doc,
    missing_from_conformance,
]
SETTINGS = Settings(address="127.0.0.1:0", http_address="127.0.0.1:0", metrics_port=0)


def test_the_rules_register_exactly_the_contracts_modules() -> None:
    assert tuple(module.name for module in registered_modules()) == MODULE_NAMES
    assert sorted(MODULE_NAMES) == sorted(contract_modules())


@pytest.mark.parametrize("place", PLACES, ids=lambda place: place.__name__)
def test_every_module_is_where_it_must_be(place: Callable[[Iterable[str]], list[str]]) -> None:
    assert place(contract_modules()) == []


def test_a_module_the_rules_lack_is_caught() -> None:
    assert missing_from_rules([*contract_modules(), PLANTED]) == [PLANTED]


@pytest.mark.parametrize("place", PLACES[1:], ids=lambda place: place.__name__)
def test_a_module_registered_in_the_rules_only_is_caught_in_every_other_place(
    place: Callable[[Iterable[str]], list[str]],
) -> None:
    with registered(BEACONS_MODULE):
        assert place([*contract_modules(), PLANTED]) == [PLANTED]


def test_a_server_refuses_to_start_with_a_module_that_has_no_adapter() -> None:
    with registered(BEACONS_MODULE):
        with pytest.raises(ModuleWithoutAdapter, match=f"no protobuf adapter for module {PLANTED}: write"):
            build_server(SETTINGS)
        with pytest.raises(ModuleWithoutAdapter, match=PLANTED):
            HttpServer(SETTINGS)
        with registered_adapter(PLANTED, ModuleAdapter(read=lambda message: message, write=lambda out, state: None)):
            check_adapters()  # given one, it may be served
    check_adapters()
