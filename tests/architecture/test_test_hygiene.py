"""Rules of the tests themselves, read from their sources with ``ast``, each shown able to fail on a planted test:

- no test waits for a fixed time: ``time.sleep`` is called in ``tests/polling.py`` only (``wait_until`` polls with a
  deadline; ``pace`` lets time pass on purpose, as a simulated player does);
- every test asserts something: an ``assert``, a ``raise``, ``pytest.raises``/``fail``..., directly or in a helper of
  the tests it calls (or a library's own checker, named below).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
SLEEPING_MODULE = TESTS / "polling.py"
ASSERTING_NAMES = frozenset({"raises", "warns", "deprecated_call", "fail", "approx"})
# Tests whose checks are a library's own checker, which raises on a failure.
LIBRARY_CHECKERS = frozenset({"api_test", "seed_test", "random_sim_test"})


def _sources() -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(TESTS.rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"))


def _is_sleep(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "sleep"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "time"
    )


def sleeps(path: Path, tree: ast.Module) -> list[str]:
    """The lines of ``tree`` that call ``time.sleep``."""
    return [f"{path.name}:{node.lineno}" for node in ast.walk(tree) if _is_sleep(node)]


def test_only_the_polling_module_sleeps() -> None:
    found = [line for path, tree in _sources() if path != SLEEPING_MODULE for line in sleeps(path, tree)]
    assert found == []
    assert sleeps(SLEEPING_MODULE, ast.parse(SLEEPING_MODULE.read_text(encoding="utf-8")))  # the check can see one


def test_a_planted_sleep_is_caught() -> None:
    planted = ast.parse("import time\n\ndef test_x():\n    time.sleep(0.5)\n    assert True\n")
    assert sleeps(Path("planted.py"), planted) == ["planted.py:4"]


def _asserts(function: ast.AST) -> bool:
    for node in ast.walk(function):
        if isinstance(node, ast.Assert | ast.Raise):
            return True
        name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
        if name in ASSERTING_NAMES or name in LIBRARY_CHECKERS:
            return True
    return False


def _module_of(path: Path) -> str:
    return ".".join(path.relative_to(TESTS.parent).with_suffix("").parts)


Scope = dict[str, list[tuple[ast.FunctionDef, str]]]  # a name -> the functions it may call, with their module


@cache
def _scopes() -> dict[str, Scope]:
    """For each test module, the functions its code may call by name: its own, and those it imports from other
    modules of the tests (``from tests.x import helper``, or ``from tests import x`` and ``x.helper()``)."""
    trees = dict(_sources())
    defined: dict[str, dict[str, tuple[ast.FunctionDef, str]]] = {}
    for path, tree in trees.items():
        module = _module_of(path)
        defined[module] = {node.name: (node, module) for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
    scopes = {}
    for path, tree in trees.items():
        module = _module_of(path)
        scope: Scope = {name: [function] for name, function in defined[module].items()}
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom) or not node.module:
                continue
            for alias in node.names:
                if node.module in defined and alias.name in defined[node.module]:
                    scope.setdefault(alias.asname or alias.name, []).append(defined[node.module][alias.name])
                elif f"{node.module}.{alias.name}" in defined:
                    for name, function in defined[f"{node.module}.{alias.name}"].items():
                        scope.setdefault(name, []).append(function)
        scopes[module] = scope
    return scopes


def _called_names(function: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            names.add(node.func.id)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            names.add(node.func.attr)
    return names


def checks_something(function: ast.FunctionDef, module: str, scopes: dict[str, Scope], depth: int = 4) -> bool:
    """Whether ``function`` (of ``module``) asserts, or calls, ``depth`` calls deep, a function of the tests that
    does, each call resolved where the caller is defined."""
    seen = {id(function)}
    frontier = [(function, module)]
    for _ in range(depth + 1):
        if any(_asserts(node) for node, _ in frontier):
            return True
        called = [
            helper
            for node, where in frontier
            for name in _called_names(node)
            for helper in scopes.get(where, {}).get(name, [])
            if id(helper[0]) not in seen
        ]
        seen |= {id(node) for node, _ in called}
        frontier = called
    return False


def _test_functions(tree: ast.Module) -> Iterator[ast.FunctionDef]:
    for node in tree.body:
        members = node.body if isinstance(node, ast.ClassDef) else [node]
        for member in members:
            if isinstance(member, ast.FunctionDef) and member.name.startswith("test"):
                yield member


def test_every_test_asserts_something_itself_or_through_its_helpers() -> None:
    scopes = _scopes()
    empty = [
        f"{path.relative_to(TESTS)}:{test.lineno} {test.name}"
        for path, tree in _sources()
        for test in _test_functions(tree)
        if not checks_something(test, _module_of(path), scopes)
    ]
    assert empty == []


@pytest.mark.parametrize(
    "source",
    [
        "def test_plays_six_moves():\n    for _ in range(6):\n        play()\n\ndef play():\n    return 1\n",
        "def test_logs():\n    print('checked')\n",
    ],
)
def test_a_test_that_checks_nothing_is_caught(source: str) -> None:
    tree = ast.parse(source)
    scope: Scope = {node.name: [(node, "planted")] for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
    assert [test.name for test in _test_functions(tree) if not checks_something(test, "planted", {"planted": scope})]
