"""Splendor in OpenSpiel: the registered ``python_splendor`` game passes OpenSpiel's own checks and bots."""

from __future__ import annotations

import importlib
import re
import sys

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra (open_spiel) is not installed")

import splendor_client.openspiel  # noqa: E402, F401  (registers python_splendor)
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from splendor_client.local_engine import INSTALL_HINT, EngineNotInstalled  # noqa: E402
from splendor_client.openspiel import DEALS, MODULES, action_space  # noqa: E402

from engine_service.rules import view_for  # noqa: E402

RULESETS = [(module, players) for module in MODULES for players in (2, 3, 4)]


def _played(game: pyspiel.Game, seed: int, actions: int) -> pyspiel.State:
    """A state ``actions`` random moves after deal ``seed``."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    state.apply_action(seed % DEALS)
    for _ in range(actions):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize(("module", "players"), RULESETS)
def test_random_sim_test_passes_with_serialization(module: str, players: int) -> None:
    game = pyspiel.load_game(f"python_splendor(players={players},module={module})")
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_the_game_declares_chance_imperfect_information_and_the_ruleset_actions() -> None:
    game = pyspiel.load_game("python_splendor(players=3,module=orient)")
    game_type = game.get_type()
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game_type.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.num_players() == 3
    assert game.num_distinct_actions() == action_space(game).size < 8920
    assert pyspiel.load_game("python_splendor").num_distinct_actions() == 370
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == DEALS


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(Exception, match="players is 2 to 4"):
        pyspiel.load_game("python_splendor(players=5)")
    with pytest.raises(Exception, match="module is one of"):
        pyspiel.load_game("python_splendor(module=atlantis)")


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    state = _played(pyspiel.load_game("python_splendor"), 3, 4)
    before = str(state)
    illegal = next(action for action in range(370) if action not in state.legal_actions())
    with pytest.raises(Exception, match="not legal"):
        state.apply_action(illegal)
    assert str(state) == before


def test_tensors_and_strings_are_the_seats_view() -> None:
    game = pyspiel.load_game("python_splendor(players=2,module=cities)")
    state = _played(game, 5, 12)
    tensor = np.asarray(state.observation_tensor(0))
    assert tensor.shape == (game.observation_tensor_size(),)
    assert np.array_equal(tensor, np.asarray(state.information_state_tensor(0)))
    assert "Bank:" in state.observation_string(0)
    assert state.information_state_string(0) != state.information_state_string(1)


def test_resampling_keeps_the_players_view_and_changes_hidden_cards() -> None:
    game = pyspiel.load_game("python_splendor(players=3)")
    state = _played(game, 7, 30)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for player in range(3):
        samples = [state.resample_from_infostate(player, sampler) for _ in range(5)]
        assert all(view_for(sample.core, player) == view_for(state.core, player) for sample in samples)
        assert any(sample.core.decks != state.core.decks for sample in samples)
        assert all(
            sample.information_state_string(player) == state.information_state_string(player) for sample in samples
        )


def test_clones_and_deserialized_states_play_on_alike() -> None:
    game = pyspiel.load_game("python_splendor(players=2,module=strongholds)")
    state = _played(game, 11, 20)
    copies = [state.clone(), game.deserialize_state(state.serialize())]
    action = state.legal_actions()[-1]
    for copy in [state, *copies]:
        copy.apply_action(action)
    assert str(copies[0]) == str(copies[1]) == str(state)


def test_openspiels_ismcts_bot_plays_whole_games() -> None:
    game = pyspiel.load_game("python_splendor(players=2)")
    rng = np.random.RandomState(4)
    bots = [
        ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, max_simulations=4, random_state=rng)
        for _ in range(2)
    ]
    state = game.new_initial_state()
    state.apply_action(9)
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    assert sorted(state.returns()) in ([-1.0, 1.0], [1.0, 1.0])


def test_without_the_engine_the_game_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "engine_service", None)  # as if the package were not installed
    for name in ("splendor_client.openspiel", "splendor_client.openspiel.game"):
        monkeypatch.delitem(sys.modules, name)  # imported afresh; the registered game's modules come back after
    with pytest.raises(EngineNotInstalled, match=re.escape(INSTALL_HINT)):
        importlib.import_module("splendor_client.openspiel")
