"""The policy registry: the built-in policies in strength order, and a misregistered policy refused as it registers."""

from __future__ import annotations

import re

import pytest

from engine_service.bots import (
    GreedyPolicy,
    Policy,
    PolicySpec,
    SearchSettings,
    UnknownPolicy,
    is_search_policy,
    make_policy,
    policy_names,
    policy_spec,
    register_policy,
    registered_policy,
)
from engine_service.rules import Action, GameState, legal_actions


class FirstLegal:
    """A policy of a test: the first legal action."""

    name = "first_legal"

    def choose(self, state: GameState) -> Action:
        return legal_actions(state)[0]

    def reseed(self, seed: int) -> None:
        del seed


def _first_legal(seed: int, settings: SearchSettings) -> Policy:
    return FirstLegal()


FIRST_LEGAL = PolicySpec("first_legal", "the first legal action", _first_legal)


def test_the_built_in_policies_are_registered_weakest_first() -> None:
    assert policy_names() == ("random", "greedy", "ismcts")
    assert [name for name in policy_names() if is_search_policy(name)] == ["ismcts"]
    for name in policy_names():
        assert policy_spec(name).summary
        assert make_policy(name, 1).name.partition(":")[0] == name


def test_a_registered_policy_is_made_by_name_while_registered_and_gone_after() -> None:
    with registered_policy(FIRST_LEGAL):
        assert policy_names()[-1] == "first_legal"
        assert isinstance(make_policy("first_legal", 7), FirstLegal)
    assert "first_legal" not in policy_names()
    with pytest.raises(UnknownPolicy, match=re.escape("unknown policy 'first_legal': use one of random, greedy")):
        make_policy("first_legal", 7)


def _greedy_in_disguise(seed: int, settings: SearchSettings) -> Policy:
    return GreedyPolicy(seed)


def _no_choice(seed: int, settings: SearchSettings) -> Policy:
    class Named:
        name = "mute"

    return Named()  # type: ignore[return-value]


@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        (FIRST_LEGAL._replace(name="FirstLegal"), "use lowercase letters, digits and underscores"),
        (FIRST_LEGAL._replace(name="first:2"), "use lowercase letters, digits and underscores"),
        (FIRST_LEGAL._replace(name=""), "use lowercase letters, digits and underscores"),
        (FIRST_LEGAL._replace(name="greedy"), "policy greedy is already registered"),
        (FIRST_LEGAL._replace(summary=" "), "give a one-line summary"),
        (PolicySpec("smart", "plays well", _greedy_in_disguise), "makes a policy named 'greedy', not 'smart'"),
        (PolicySpec("mute", "says nothing", _no_choice), "has no choose(state) and reseed(seed)"),
    ],
)
def test_a_misregistered_policy_is_refused_saying_what_is_wrong(spec: PolicySpec, reason: str) -> None:
    before = policy_names()
    with pytest.raises(ValueError, match=re.escape(reason)):
        register_policy(spec)
    assert policy_names() == before
