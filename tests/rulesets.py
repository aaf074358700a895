"""Every ruleset the engine plays, for the tests that run them all: the base game, then each module the rules
registry holds (modules are played one at a time). A new module joins every such test with no edit of it.

Read at import, once the built-in modules are registered: a module a test registers for a while is not among them.
"""

from __future__ import annotations

from typing import Final

from engine_service.rules import registered_modules

MODULE_NAMES: Final = tuple(module.name for module in registered_modules())
RULESETS: Final = (frozenset[str](), *(frozenset({name}) for name in MODULE_NAMES))


def ruleset_name(modules: frozenset[str]) -> str:
    """``base``, or the module's name."""
    return next(iter(modules), "base")
