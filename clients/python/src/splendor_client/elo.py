"""Win rates with Wilson confidence intervals, and Elo ratings fitted by maximum likelihood.

Elo: every game is split into pairwise results between the bots at its table (the better
place wins, a shared place is a draw, two seats of one bot are skipped). The ratings
are the maximum-likelihood Bradley-Terry strengths of those results (a draw counts half
a win to each side), found by Hunter's minorization-maximization iteration (2004) and
put on the Elo scale: a difference of ``D`` points means an expected score of
``1 / (1 + 10 ** (-D / 400))``; the mean rating is 1500. ``prior_draws`` virtual draws
between every two bots that met keep the ratings finite when one bot wins every game.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence

ELO_MEAN = 1500.0
ELO_SCALE = 400.0
Z_95 = 1.959963984540054  # the standard normal's 0.975 quantile


def wilson_interval(successes: float, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default); (0, 1) without trials."""
    if trials <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes in {trials} trials")
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


class PairwiseResults:
    """Wins and games between each two bots (a draw is half a win each)."""

    def __init__(self) -> None:
        self.score: defaultdict[tuple[str, str], float] = defaultdict(float)  # (a, b): a's points against b
        self.games: defaultdict[frozenset[str], float] = defaultdict(float)
        self.bots: list[str] = []

    def add(self, winner: str, loser: str, draw: bool = False) -> None:
        """One result between two different bots."""
        if winner == loser:
            raise ValueError("a bot does not play itself")
        for bot in (winner, loser):
            if bot not in self.bots:
                self.bots.append(bot)
        self.score[(winner, loser)] += 0.5 if draw else 1.0
        self.score[(loser, winner)] += 0.5 if draw else 0.0
        self.games[frozenset((winner, loser))] += 1

    def add_game(self, places: Sequence[tuple[str, int]]) -> None:
        """Every pairwise result of one game, from (bot, place) per seat (1 = first)."""
        for index, (bot, place) in enumerate(places):
            for other, other_place in places[index + 1 :]:
                if bot == other:
                    continue
                if place == other_place:
                    self.add(bot, other, draw=True)
                elif place < other_place:
                    self.add(bot, other)
                else:
                    self.add(other, bot)


def fit_elo(results: PairwiseResults, prior_draws: float = 1.0, iterations: int = 10_000) -> dict[str, float]:
    """Maximum-likelihood Elo ratings of the bots in ``results`` (mean 1500)."""
    bots = list(results.bots)
    if not bots:
        return {}
    pairs = [(a, b) for a in bots for b in bots if a != b and frozenset((a, b)) in results.games]
    games = {pair: results.games[frozenset(pair)] + prior_draws for pair in pairs}
    wins = {bot: sum(results.score[(bot, b)] + prior_draws / 2 for a, b in pairs if a == bot) for bot in bots}
    if any(points <= 0 for points in wins.values()):
        raise ValueError("a bot scored nothing: its rating is unbounded (use prior_draws > 0)")
    strength = dict.fromkeys(bots, 1.0)
    for _ in range(iterations):
        updated = {}
        for bot in bots:
            denominator = sum(games[(a, b)] / (strength[a] + strength[b]) for a, b in pairs if a == bot)
            updated[bot] = wins[bot] / denominator if denominator else 1.0
        # Only ratios matter: fix the geometric mean at 1 so the mean rating is 1500.
        log_mean = sum(math.log(value) for value in updated.values()) / len(bots)
        updated = {bot: value / math.exp(log_mean) for bot, value in updated.items()}
        change = max(abs(math.log(updated[bot] / strength[bot])) for bot in bots)
        strength = updated
        if change < 1e-12:
            break
    return {bot: ELO_MEAN + ELO_SCALE * math.log10(strength[bot]) for bot in bots}


def expected_score(rating: float, other: float) -> float:
    """The expected score of a bot rated ``rating`` against one rated ``other``."""
    return 1.0 / (1.0 + 10 ** ((other - rating) / ELO_SCALE))


def pairwise_from_games(games: Iterable[Sequence[tuple[str, int]]]) -> PairwiseResults:
    """The pairwise results of many games, each given as (bot, place) per seat."""
    results = PairwiseResults()
    for places in games:
        results.add_game(places)
    return results
