"""Who imports whom, read from the source with ``ast`` (nothing is imported): fast, and exact.

Every import counts wherever it stands: at the top, inside a function, under
``TYPE_CHECKING``, relative (``from ..http import app``) or spelt as a call
(``importlib.import_module("x")``, ``__import__("x")``). An import ``from a.b import c``
is recorded as ``a.b.c``: ``c`` may be a module or a name in ``a.b``, and a rule about
``a.b`` covers both.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DYNAMIC_IMPORTS = frozenset({"import_module", "__import__"})


@dataclass(frozen=True)
class SourceFile:
    """One Python file as a module: ``engine_service.http.app``, its source, where it lies (for messages)."""

    module: str
    text: str
    path: str
    is_package: bool = False  # an ``__init__.py``: relative imports start from the module itself


@dataclass(frozen=True)
class Import:
    importer: SourceFile
    line: int
    target: str  # the absolute dotted name imported


@dataclass(frozen=True)
class Rule:
    """A rule of the import graph: ``forbidden(importer, target)`` names the imports that break it."""

    name: str
    forbidden: Callable[[str, str], bool]


def within(module: str, package: str) -> bool:
    """Whether ``module`` is ``package`` or lies inside it."""
    return module == package or module.startswith(package + ".")


def sources_under(directory: Path, root: Path = ROOT) -> list[SourceFile]:
    """Every ``.py`` file under ``directory`` (a package, or a folder of them), named relative to its top package."""
    base = directory.parent if (directory / "__init__.py").exists() else directory
    files = []
    for path in sorted(directory.rglob("*.py")):
        parts = path.relative_to(base).with_suffix("").parts
        is_package = parts[-1] == "__init__"
        module = ".".join(parts[:-1] if is_package else parts)
        files.append(SourceFile(module, path.read_text(encoding="utf-8"), str(path.relative_to(root)), is_package))
    return files


def imports_of(source: SourceFile) -> list[Import]:
    """Every import of one file, as absolute module names."""
    found = []
    for node in ast.walk(ast.parse(source.text, source.path)):
        if isinstance(node, ast.Import):
            found += [Import(source, node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(source, node.module, node.level)
            found += [Import(source, node.lineno, f"{base}.{alias.name}") for alias in node.names]
        elif isinstance(node, ast.Call) and _called_name(node.func) in DYNAMIC_IMPORTS and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.append(Import(source, node.lineno, first.value))
    return found


def violations(rule: Rule, sources: Iterable[SourceFile]) -> list[str]:
    """The imports that break ``rule``, one line each: ``path:line imports target``."""
    return [
        f"{found.importer.path}:{found.line} imports {found.target}"
        for source in sources
        for found in imports_of(source)
        if rule.forbidden(source.module, found.target)
    ]


def _absolute(source: SourceFile, module: str | None, level: int) -> str:
    if level == 0:
        return module or ""
    package = source.module.split(".")
    if not source.is_package:
        package = package[:-1]
    if level - 1 >= len(package):
        raise ValueError(f"{source.path}: a relative import beyond the top package")
    anchor = package[: len(package) - (level - 1)]
    return ".".join([*anchor, module] if module else anchor)


def _called_name(function: ast.expr) -> str | None:
    if isinstance(function, ast.Name):
        return function.id
    if isinstance(function, ast.Attribute):
        return function.attr
    return None
