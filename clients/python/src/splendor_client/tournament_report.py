"""A tournament's results: per-bot summary (win rate, 95 % Wilson interval, Elo, time per move), CSV, JSON, PNG.

A win is a first place, shared or not; ``draws`` counts the shared ones among them.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .elo import fit_elo, pairwise_from_games, wilson_interval
from .tournament_games import GameRecord

ELO_METHOD = (
    "maximum-likelihood Bradley-Terry over pairwise results (a draw is half a win), "
    "one virtual draw between every two bots that met, mean 1500"
)


@dataclass(frozen=True)
class BotSummary:
    """One bot's results over the tournament."""

    bot: str
    games: int
    wins: int
    draws: int  # wins shared with another seat
    win_rate: float
    ci_low: float
    ci_high: float
    elo: float
    moves: int
    seconds_per_move: float
    cpu_seconds_per_move: float


def summarize(labels: Sequence[str], records: Sequence[GameRecord]) -> list[BotSummary]:
    """Per bot, in the order given."""
    elo = fit_elo(pairwise_from_games(list(zip(record.labels, record.places)) for record in records))
    summaries = []
    for label in labels:
        games = wins = draws = moves = 0
        seconds = cpu = 0.0
        for record in records:
            for seat, seat_label in enumerate(record.labels):
                if seat_label != label:
                    continue
                games += 1
                if record.places[seat] == 1:
                    wins += 1
                    draws += record.places.count(1) > 1
                moves += record.moves[seat]
                seconds += record.seconds[seat]
                cpu += record.cpu_seconds[seat]
        low, high = wilson_interval(wins, games)
        summaries.append(
            BotSummary(
                bot=label,
                games=games,
                wins=wins,
                draws=draws,
                win_rate=wins / games if games else 0.0,
                ci_low=low,
                ci_high=high,
                elo=elo.get(label, 1500.0),
                moves=moves,
                seconds_per_move=seconds / moves if moves else 0.0,
                cpu_seconds_per_move=cpu / moves if moves else 0.0,
            )
        )
    return summaries


def table(summaries: Sequence[BotSummary]) -> str:
    """A Markdown table of the summary."""
    lines = [
        "| bot | games | wins | win rate | 95 % CI | Elo | ms/move (wall) | ms/move (CPU) |",
        "| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |",
    ]
    for s in summaries:
        lines.append(
            f"| {s.bot} | {s.games} | {s.wins} | {s.win_rate:.1%} | {s.ci_low:.1%} to {s.ci_high:.1%} "
            f"| {s.elo:.0f} | {1000 * s.seconds_per_move:.2f} | {1000 * s.cpu_seconds_per_move:.2f} |"
        )
    return "\n".join(lines)


def write_csv(path: Path, records: Sequence[GameRecord]) -> None:
    """One row per game: its deal, each seat's bot, place, prestige, moves and seconds."""
    players = max((len(record.labels) for record in records), default=0)
    header = ["game", "deal_seed", "winners", "end_reason", "actions", "turns"]
    for seat in range(players):
        header += [f"seat{seat}_{name}" for name in ("bot", "place", "prestige", "moves", "seconds", "cpu_seconds")]
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(header)
        for record in sorted(records, key=lambda r: r.index):
            row: list[Any] = [
                record.index,
                record.deal_seed,
                ";".join(record.winners),
                record.end_reason,
                record.actions,
                record.turns,
            ]
            for seat, label in enumerate(record.labels):
                row += [
                    label,
                    record.places[seat],
                    record.prestige[seat],
                    record.moves[seat],
                    f"{record.seconds[seat]:.6f}",
                    f"{record.cpu_seconds[seat]:.6f}",
                ]
            writer.writerow(row)


def write_json(
    path: Path, settings: dict[str, Any], summaries: Sequence[BotSummary], records: Sequence[GameRecord]
) -> None:
    """The settings, the summary (with the Elo method) and every game."""
    document = {
        "settings": settings,
        "elo_method": ELO_METHOD,
        "confidence_interval": "Wilson score interval, 95 %",
        "bots": [asdict(summary) for summary in summaries],
        "games": [
            {**asdict(record), "winners": list(record.winners)} for record in sorted(records, key=lambda r: r.index)
        ],
    }
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


def write_chart(path: Path, summaries: Sequence[BotSummary], title: str) -> bool:
    """A PNG bar chart of win rates with their intervals and Elo; False if matplotlib is not installed."""
    try:  # an optional extra: imported only here
        import matplotlib  # noqa: PLC0415

        matplotlib.use("Agg")  # files only: no display needed
        from matplotlib import pyplot  # noqa: PLC0415
    except ImportError:
        return False
    figure, axes = pyplot.subplots(figsize=(1.6 * len(summaries) + 2.5, 4))
    names = [f"{s.bot}\n{s.win_rate:.0%}, Elo {s.elo:.0f}" for s in summaries]
    rates = [summary.win_rate for summary in summaries]
    errors = [  # clamped: at a rate of 0 or 1 rounding can put the bound a hair on the wrong side
        [max(0.0, summary.win_rate - summary.ci_low) for summary in summaries],
        [max(0.0, summary.ci_high - summary.win_rate) for summary in summaries],
    ]
    axes.bar(names, rates, yerr=errors, capsize=6, color="#4c72b0")
    axes.set_ylim(0, 1)
    axes.set_ylabel("win rate (95 % Wilson interval)")
    axes.set_title(title)
    figure.tight_layout()
    figure.savefig(path, format="png", dpi=100)
    pyplot.close(figure)
    return True
