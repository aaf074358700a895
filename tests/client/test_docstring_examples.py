"""The ``>>>`` examples of the client's module docstrings run, as doctests, against a real server on a
free loopback port (the address they name is swapped for the server's)."""

from __future__ import annotations

import doctest
from types import ModuleType

import pytest
import splendor_client
from splendor_client import actions, client, conformance, tokens

from tests.client.conftest import DOC_ADDRESS


@pytest.mark.parametrize(
    "module", [splendor_client, client, actions, tokens, conformance], ids=lambda module: module.__name__
)
def test_the_module_docstrings_examples_run(module: ModuleType, loopback_address: str) -> None:
    text = (module.__doc__ or "").replace(DOC_ADDRESS, loopback_address)
    test = doctest.DocTestParser().get_doctest(text, {}, module.__name__, module.__file__, 0)
    assert test.examples, f"{module.__name__} has no examples"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    failed, attempted = runner.run(test)
    assert attempted == len(test.examples) and failed == 0
