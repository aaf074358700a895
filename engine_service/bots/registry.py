"""The server-side bot policies: the one table the API, the catalog, the in-process door and the clients read.

Each entry names a policy, says in one line how it plays, whether it searches (takes
``BotChoice.iterations``; ``Simulate`` refuses it: too costly per playout) and makes it from a
seed and the search's settings. The built-in policies are registered at the bottom of this
file, weakest first: ``GetCatalog`` lists them in that order, and the web page's "strong bot" is
the last. A name is spelt in lowercase letters, digits and underscores (``ismcts:300`` asks a
search policy for 300 iterations a move). A test registers a policy of its own for the length of
a ``with`` block (``registered_policy``).

Every policy is checked as it is registered: a name that is taken or badly spelt, an empty
summary, or a factory that makes a policy of another name is refused with ``ValueError``; a
name nobody registered is ``UnknownPolicy``, never another policy in its place.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Final, NamedTuple

from .ismcts import SearchSettings
from .policies import GreedyPolicy, IsmctsPolicy, Policy, RandomPolicy

_NAME: Final = re.compile(r"[a-z][a-z0-9_]*\Z")


class PolicySpec(NamedTuple):
    """One server-side bot policy: its name, what it does, and how it is made."""

    name: str
    summary: str  # one line for people: how it plays
    make: Callable[[int, SearchSettings], Policy]  # (seed, search settings) -> the policy
    searches: bool = False  # searches at every move: takes iterations, and Simulate refuses it


class UnknownPolicy(ValueError):
    """A policy name nobody registered; the message lists the registered ones."""


_POLICIES: Final[dict[str, PolicySpec]] = {}


def register_policy(spec: PolicySpec) -> None:
    """Add a policy after the others; raises ``ValueError`` saying what is wrong with a misregistered one."""
    if not _NAME.match(spec.name):
        raise ValueError(f"policy name {spec.name!r}: use lowercase letters, digits and underscores")
    if spec.name in _POLICIES:
        raise ValueError(f"policy {spec.name} is already registered")
    if not spec.summary.strip():
        raise ValueError(f"policy {spec.name}: give a one-line summary of how it plays")
    made = spec.make(0, SearchSettings(iterations=1))
    made_name = str(getattr(made, "name", "")).partition(":")[0]
    if made_name != spec.name:
        raise ValueError(f"policy {spec.name}: its factory makes a policy named {made_name!r}, not {spec.name!r}")
    if not (callable(getattr(made, "choose", None)) and callable(getattr(made, "reseed", None))):
        raise ValueError(f"policy {spec.name}: what its factory makes has no choose(state) and reseed(seed)")
    _POLICIES[spec.name] = spec


def unregister_policy(name: str) -> None:
    """Remove a policy registered earlier."""
    del _POLICIES[name]


@contextmanager
def registered_policy(spec: PolicySpec) -> Iterator[PolicySpec]:
    """The policy registered for the duration of a ``with`` block (tests)."""
    register_policy(spec)
    try:
        yield spec
    finally:
        unregister_policy(spec.name)


def policy_specs() -> tuple[PolicySpec, ...]:
    """The registered policies, weakest first."""
    return tuple(_POLICIES.values())


def policy_names() -> tuple[str, ...]:
    """The registered policies' names, weakest first."""
    return tuple(_POLICIES)


def policy_spec(name: str) -> PolicySpec:
    """The policy registered as ``name``; ``UnknownPolicy`` naming the registered ones otherwise."""
    spec = _POLICIES.get(name)
    if spec is None:
        raise UnknownPolicy(f"unknown policy {name!r}: use one of {', '.join(_POLICIES)}")
    return spec


def is_search_policy(name: str) -> bool:
    """Whether ``name`` is a registered policy that searches at every move."""
    spec = _POLICIES.get(name)
    return spec is not None and spec.searches


def make_policy(name: str, seed: int) -> Policy:
    """A policy by name, ``<name>`` or, for one that searches, ``<name>:<iterations per move>``."""
    kind, colon, argument = name.partition(":")
    spec = policy_spec(kind)
    if not colon:
        return spec.make(seed, SearchSettings())
    if not spec.searches:
        raise ValueError(f"{kind} does not search: it takes no iterations ({name!r})")
    if not (argument.isdigit() and int(argument) > 0):
        raise ValueError(f"{kind} takes a positive number of iterations per move, not {argument!r}")
    return spec.make(seed, SearchSettings(iterations=int(argument)))


def _random(seed: int, settings: SearchSettings) -> Policy:
    return RandomPolicy(seed)


def _greedy(seed: int, settings: SearchSettings) -> Policy:
    return GreedyPolicy(seed)


def _ismcts(seed: int, settings: SearchSettings) -> Policy:
    return IsmctsPolicy(seed, settings)


register_policy(PolicySpec("random", "any legal action, uniformly", _random))
register_policy(PolicySpec("greedy", "buys the most points it can, else takes gems toward its nearest card", _greedy))
register_policy(
    PolicySpec("ismcts", "information-set Monte Carlo tree search, 400 iterations a move by default", _ismcts, True)
)
