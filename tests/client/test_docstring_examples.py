"""The ``>>>`` examples of the client's module docstrings run, as doctests, against a real server on a
free loopback port (the address they name is swapped for the server's). Every module of the package whose
docstring holds one is found and run: a new example runs with no edit here."""

from __future__ import annotations

import ast
import doctest
import importlib
from pathlib import Path

import pytest
import splendor_client

from tests.client.conftest import DOC_ADDRESS

PACKAGE = Path(splendor_client.__file__).parent


def modules_with_examples() -> list[str]:
    """The modules of ``splendor_client`` whose docstring holds a ``>>>`` example, by name."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        if ">>>" in docstring:
            parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
            found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


MODULES = modules_with_examples()


def test_the_examples_are_found_in_every_module_that_has_some() -> None:
    assert {"splendor_client.client", "splendor_client.bots", "splendor_client.describe"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_the_module_docstrings_examples_run(name: str, loopback_address: str) -> None:
    module = importlib.import_module(name)
    text = (module.__doc__ or "").replace(DOC_ADDRESS, loopback_address)
    # The module's own names, as ``python -m doctest`` gives them.
    test = doctest.DocTestParser().get_doctest(text, dict(vars(module)), name, module.__file__, 0)
    assert test.examples, f"{name} has no examples"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    failed, attempted = runner.run(test)
    assert attempted == len(test.examples) and failed == 0
