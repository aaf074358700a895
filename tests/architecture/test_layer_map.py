"""Rule: the engine's packages import one another only as the layer map of docs/architecture.md allows (its table,
read here: "may import"), and the map names every package of ``engine_service``; a planted import the map does not
allow is caught, and so is a package the map leaves out."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

import pytest

from tests.architecture.import_graph import ROOT, SourceFile, imports_of, sources_under, within

ENGINE = "engine_service"
MAP = ROOT / "docs" / "architecture.md"
ROW = re.compile(r"^\| `engine_service\.(\w+)` \| [^|]+ \| ([^|]+) \|$")


def layer_map(text: str) -> dict[str, frozenset[str]]:
    """The table of the page's "## The layer map" section: package (``api``) -> the packages it may import."""
    section = text.split("\n## The layer map\n", 1)[1].split("\n## ", 1)[0]
    rows = [ROW.match(line) for line in section.splitlines()]
    return {row[1]: frozenset(re.findall(r"`(\w+)`", row[2])) for row in rows if row}


def package_of(module: str) -> str | None:
    """``api`` for ``engine_service.api.apply``; None outside the engine or for its root."""
    parts = module.split(".")
    return parts[1] if parts[0] == ENGINE and len(parts) > 1 else None


def breaches(allowed: dict[str, frozenset[str]], sources: Iterable[SourceFile]) -> list[str]:
    """The imports between the engine's packages the map does not allow, and the packages it does not name."""
    found = []
    for source in sources:
        importer = package_of(source.module)
        if importer is None:
            continue
        if importer not in allowed:
            found.append(f"{source.path}: package {importer} is not in the layer map")
            continue
        for imported in imports_of(source):
            target = package_of(imported.target) if within(imported.target, ENGINE) else None
            if target is not None and target != importer and target not in allowed[importer]:
                found.append(f"{source.path}:{imported.line} {importer} imports {target}")
    return found


@cache
def _engine() -> tuple[SourceFile, ...]:
    return tuple(sources_under(ROOT / ENGINE))


@cache
def _map() -> dict[str, frozenset[str]]:
    return layer_map(MAP.read_text(encoding="utf-8"))


def test_every_import_between_the_engines_packages_is_one_the_map_allows() -> None:
    assert breaches(_map(), _engine()) == []


def test_the_map_names_every_package_of_the_engine_and_only_those() -> None:
    packages = {package for source in _engine() if (package := package_of(source.module)) is not None}
    assert set(_map()) == packages
    assert all(allowed <= packages for allowed in _map().values())


def test_the_map_is_layered_no_package_may_import_one_that_may_import_it() -> None:
    allowed = _map()
    assert [(a, b) for a in allowed for b in allowed[a] if a in allowed.get(b, frozenset())] == []


@pytest.mark.parametrize(
    ("module", "text"),
    [
        ("engine_service.rules.fake", "from engine_service.api import METHODS"),
        ("engine_service.bots.fake", "def f():\n    from ..codec import catalog"),
        ("engine_service.codec.fake", "from engine_service import sealing"),
        ("engine_service.api.fake", "from engine_service.runtime.settings import Settings"),
    ],
)
def test_an_import_the_map_does_not_allow_is_caught(module: str, text: str) -> None:
    assert len(breaches(_map(), [SourceFile(module, text, "fake.py")])) == 1


def test_a_package_the_map_leaves_out_is_caught() -> None:
    planted = SourceFile("engine_service.plugins.fake", "from engine_service.rules import GameState", "fake.py")
    assert breaches(_map(), [planted]) == ["fake.py: package plugins is not in the layer map"]


def test_the_map_is_read_from_its_table() -> None:
    text = "# A\n\n## The layer map\n\n| `engine_service.x` | it | `y`, `z` |\n| `engine_service.y` | it | nothing |\n"
    assert layer_map(text) == {"x": frozenset({"y", "z"}), "y": frozenset()}
