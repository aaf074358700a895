"""Wilson intervals and maximum-likelihood Elo on small examples with known answers."""

from __future__ import annotations

import math

import pytest
from splendor_client.elo import PairwiseResults, expected_score, fit_elo, pairwise_from_games, wilson_interval


def test_wilson_interval_of_8_wins_in_10_games() -> None:
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4)
    assert high == pytest.approx(0.9433, abs=1e-4)


def test_wilson_interval_of_no_wins_starts_at_zero() -> None:
    low, high = wilson_interval(0, 10)
    assert low == 0.0
    assert high == pytest.approx(0.2775, abs=1e-4)  # z^2 / (n + z^2)


def test_wilson_interval_without_games_is_everything() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_wilson_interval_refuses_more_wins_than_games() -> None:
    with pytest.raises(ValueError, match="11 successes in 10 trials"):
        wilson_interval(11, 10)


def _results(*games: tuple[str, str, int]) -> PairwiseResults:
    """(winner, loser, how many times) triples."""
    results = PairwiseResults()
    for winner, loser, times in games:
        for _ in range(times):
            results.add(winner, loser)
    return results


def test_elo_of_three_wins_in_four_without_prior_is_400_log10_3_apart() -> None:
    ratings = fit_elo(_results(("a", "b", 3), ("b", "a", 1)), prior_draws=0)
    assert ratings["a"] - ratings["b"] == pytest.approx(400 * math.log10(3), abs=1e-6)  # 190.85
    assert (ratings["a"] + ratings["b"]) / 2 == pytest.approx(1500)


def test_one_virtual_draw_shrinks_three_in_four_to_three_and_a_half_in_five() -> None:
    ratings = fit_elo(_results(("a", "b", 3), ("b", "a", 1)), prior_draws=1)
    assert ratings["a"] - ratings["b"] == pytest.approx(400 * math.log10(3.5 / 1.5), abs=1e-6)  # 147.19


def test_elo_of_three_bots_with_consistent_odds_is_exact() -> None:
    # a beats b 2:1, b beats c 2:1, a beats c 4:1: Bradley-Terry strengths 4, 2, 1 fit exactly.
    results = _results(("a", "b", 2), ("b", "a", 1), ("b", "c", 2), ("c", "b", 1), ("a", "c", 4), ("c", "a", 1))
    ratings = fit_elo(results, prior_draws=0)
    step = 400 * math.log10(2)  # 120.41
    assert ratings["a"] - ratings["b"] == pytest.approx(step, abs=1e-6)
    assert ratings["b"] - ratings["c"] == pytest.approx(step, abs=1e-6)
    assert ratings["b"] == pytest.approx(1500, abs=1e-6)


def test_draws_only_rate_everyone_1500() -> None:
    results = PairwiseResults()
    results.add("a", "b", draw=True)
    results.add("b", "a", draw=True)
    assert fit_elo(results, prior_draws=0) == pytest.approx({"a": 1500, "b": 1500})


def test_a_bot_that_never_scores_needs_a_prior() -> None:
    with pytest.raises(ValueError, match="unbounded"):
        fit_elo(_results(("a", "b", 5)), prior_draws=0)
    ratings = fit_elo(_results(("a", "b", 5)), prior_draws=1)
    assert expected_score(ratings["a"], ratings["b"]) == pytest.approx(5.5 / 6)


def test_a_game_splits_into_pairwise_results_by_place() -> None:
    results = pairwise_from_games([[("a", 1), ("b", 2), ("c", 2), ("a", 3)]])
    assert results.score[("a", "b")] == 1.0  # a's first seat beat b, a's last seat lost to b
    assert results.score[("b", "a")] == 1.0
    assert results.games[frozenset(("a", "b"))] == 2
    assert results.score[("b", "c")] == 0.5  # shared place: a draw
    assert results.score[("c", "b")] == 0.5
    assert results.games[frozenset(("a", "c"))] == 2  # the two seats of a are not compared with each other


def test_expected_score_400_points_apart_is_ten_to_one() -> None:
    assert expected_score(1900, 1500) == pytest.approx(10 / 11)
