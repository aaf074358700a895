"""The client's one door to the engine in this process (``splendor_client.local_engine``)."""

from __future__ import annotations

import importlib.abc
import re
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec

import pytest
from splendor_client.local_engine import INSTALL_HINT, EngineNotInstalled, local_engine

import engine_service
from engine_service import in_process

FACADE = "engine_service.in_process"


def test_the_door_opens_on_the_engines_in_process_api() -> None:
    assert local_engine() is in_process


def test_without_the_engine_in_process_play_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "engine_service", None)  # as if the package were not installed
    with pytest.raises(
        EngineNotInstalled, match=rf"{re.escape(FACADE)}.*{re.escape(INSTALL_HINT)}.*play against a server"
    ) as raised:
        local_engine()
    assert isinstance(raised.value, ImportError)


class _MissingDependency(importlib.abc.MetaPathFinder):
    """Finds the facade by failing as an engine whose own dependency is missing would."""

    def find_spec(self, name: str, path: Sequence[str] | None, target: object = None) -> ModuleSpec | None:
        if name == FACADE:
            raise ModuleNotFoundError("No module named 'not_installed_dependency'", name="not_installed_dependency")
        return None


def test_an_engine_missing_one_of_its_own_dependencies_keeps_its_own_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, FACADE)
    monkeypatch.delattr(engine_service, "in_process")
    monkeypatch.setattr(sys, "meta_path", [_MissingDependency(), *sys.meta_path])
    with pytest.raises(ModuleNotFoundError) as raised:
        local_engine()
    assert not isinstance(raised.value, EngineNotInstalled)
    assert raised.value.name == "not_installed_dependency"
