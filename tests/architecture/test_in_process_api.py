"""The engine's public in-process API (``engine_service.in_process``): what it answers, and how it refuses."""

from __future__ import annotations

import doctest

import pytest
from splendor.v1 import view_pb2

from engine_service import bots, in_process
from engine_service.codec import catalog, fill_view
from engine_service.rules import RuleViolation, view_for


def test_the_modules_docstring_example_runs() -> None:
    test = doctest.DocTestParser().get_doctest(in_process.__doc__ or "", {}, in_process.__name__, None, 0)
    assert test.examples, "the module docstring has no example"
    failed, attempted = doctest.DocTestRunner().run(test)
    assert (failed, attempted) == (0, len(test.examples))


def test_the_policy_names_have_one_source_the_bots_the_catalog_and_the_api_share() -> None:
    assert in_process.policy_names() == bots.policy_names()
    message = in_process.catalog_message()
    assert tuple(message.bot_policies) == bots.policy_names()
    assert tuple(message.search_policies) == tuple(name for name in bots.policy_names() if bots.is_search_policy(name))
    for name in bots.policy_names():
        assert in_process.make_policy(name, 1).name.partition(":")[0] == name


def test_the_old_policy_names_constant_still_answers_with_a_deprecation_warning() -> None:
    with pytest.deprecated_call(match="policy_names"):
        assert bots.policy_names() == in_process.POLICY_NAMES


def test_a_dealt_game_is_played_by_ids_and_policies() -> None:
    state = in_process.deal(2, 7, first_seat=0)
    legal = in_process.legal_actions(state)
    ids = [in_process.action_id(action) for action in legal]
    assert len(set(ids)) == len(ids) and all(0 <= i < in_process.ACTION_ID_COUNT for i in ids)
    assert in_process.action_from_id(ids[-1]) == legal[-1]
    after = in_process.play(state, legal[-1], 0)
    assert after.acting_seat == 1 and state.acting_seat == 0  # states are immutable
    chosen = in_process.make_policy("greedy", 3).choose(after)
    assert chosen in in_process.legal_actions(after)


def test_bad_rulesets_and_moves_are_refused_with_the_reason() -> None:
    with pytest.raises(RuleViolation, match="player"):
        in_process.deal(5, 1)
    with pytest.raises(RuleViolation, match="module"):
        in_process.deal(2, 1, modules=frozenset({"dragons"}))
    state = in_process.deal(2, 1, first_seat=0)
    with pytest.raises(RuleViolation):
        in_process.play(state, in_process.legal_actions(state)[0], seat=1)
    with pytest.raises(ValueError, match="unknown module 'dragons': use one of cities"):
        in_process.ruleset_action_ids("dragons")
    with pytest.raises(ValueError, match="unknown policy"):
        in_process.make_policy("smart", 1)


def test_the_ruleset_ids_are_the_base_games_then_the_modules() -> None:
    base = in_process.ruleset_action_ids(None)
    assert base == tuple(range(370))
    cities = in_process.ruleset_action_ids("cities")
    assert cities[:370] == base and len(cities) == 385 and list(cities) == sorted(cities)


def test_the_contract_messages_are_the_servers() -> None:
    state = in_process.deal(3, 2, first_seat=1)
    expected = view_pb2.GameView()
    fill_view(expected, view_for(state, 0))
    assert in_process.view_message(state, 0) == expected
    assert in_process.legal_action_messages(state, 0) == []  # seat 0 need not act
    messages = in_process.legal_action_messages(state, 1)
    assert [m.action_id for m in messages] == [in_process.action_id(a) for a in in_process.legal_actions(state)]
    assert all(message.action.WhichOneof("kind") for message in messages)
    assert in_process.catalog_message() is catalog(bots.policy_specs())


def test_the_observation_tables_describe_the_rulesets_layout() -> None:
    tables = in_process.observation_tables(frozenset({"orient"}), 3)
    assert tables.layout.name == "orient/3p"
    assert tables.market_slots > 12  # the Orient's own rows beside the base game's three of four
    assert len(tables.card_values[0]) == tables.card_features
    assert tables.empty_noble_row == tables.first_noble_row + len(tables.noble_values)
    state = in_process.deal(3, 4, modules=frozenset({"orient"}))
    assert len(in_process.encode_observation(state, 2)) == tables.layout.length
