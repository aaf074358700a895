"""``splendor-tournament``: many games between bots, seats rotated, with win rates, intervals and Elo.

    splendor-tournament ismcts greedy --in-process --games 100 --processes 2
    splendor-tournament greedy random random --server localhost:50051 --games 60
    splendor-tournament greedy "cmd:python my_bot.py" --in-process --games 20

One bot per seat (2 to 4). Built-in bots: the engine's policies (``random``, ``greedy``,
``ismcts[:iterations]``; with ``--server``, the server's catalog); ``cmd:<program>`` runs a
program of your own (protocol: ``splendor_client.external_bot``).
``--in-process`` plays on the engine in this process (the ``splendor-engine`` package,
through its public in-process API, imported only then; without it the run stops saying
what to install); ``--server host:port`` plays through the API, ``--batch`` games at once (16): one
BatchApplyActions call a round carries the moves of every game whose bot runs here, and
``ismcts`` searches on the server, one ApplyAction call a move, its time per move the call's
wall time (one address, e.g. a Kubernetes Service in front of many replicas: each group of
games opens its own connection). The games and results are the same whatever the batch and
the processes. Progress goes to standard error; the
table to standard output; ``results.csv``, ``results.json`` and ``results.png``
(with the ``tournament`` extra, matplotlib) to ``--out``.
Exit code 0 when every game was played, 1 when one could not be, 2 for a bad command line.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import signal
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TextIO

from .errors import EngineError
from .install_hints import CHART_COMMAND, ENGINE_COMMAND, WHERE
from .local_engine import EngineNotInstalled
from .tournament_games import (
    DEFAULT_BATCH,
    GameRecord,
    GameSpec,
    check_bot,
    check_server_bots,
    is_server_bot,
    offered_bots,
    play_games,
    schedule,
)
from .tournament_report import BotSummary, summarize, table, write_chart, write_csv, write_json

EXIT_OK = 0
EXIT_GAME_FAILED = 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="splendor-tournament",
        description="Play many games of Splendor between bots (seats rotated) and report win rates with 95 %% "
        "Wilson intervals, maximum-likelihood Elo and time per move, as a table, CSV, JSON and a PNG chart.",
    )
    parser.add_argument(
        "bots",
        nargs="+",
        metavar="BOT",
        help="one bot per seat, 2 to 4: random, greedy, ismcts[:iterations per move] (on the server with --server), "
        "or cmd:<program> (reads one JSON line per decision, answers an action id: see splendor_client.external_bot)",
    )
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument(
        "--in-process",
        action="store_true",
        help=f"play on the engine in this process (needs it: {WHERE}, {ENGINE_COMMAND})",
    )
    where.add_argument("--server", metavar="HOST:PORT", help="play through the engine at this address")
    parser.add_argument("--games", type=int, default=100, help="games to play (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=1, help="the first deal's seed; bots' seeds follow from it")
    parser.add_argument(
        "--modules",
        action="append",
        default=[],
        metavar="NAME",
        help="a Cities of Splendor module: cities, trading_posts, strongholds or orient (default: base game)",
    )
    parser.add_argument(
        "--turn-limit", type=int, default=0, help="end each game after this many turns (default: 0, no limit)"
    )
    parser.add_argument("--processes", type=int, default=1, help="worker processes (default: %(default)s)")
    parser.add_argument(
        "--batch",
        type=int,
        default=DEFAULT_BATCH,
        help="with --server: games each worker plays at once, their moves in one call a round (default: %(default)s)",
    )
    parser.add_argument(
        "--out", type=Path, default=Path("tournament-results"), help="output folder (default: %(default)s)"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not 2 <= len(args.bots) <= 4:
        parser.error(f"a game has 2 to 4 seats: give 2 to 4 bots, not {len(args.bots)}")
    if args.games < 1 or args.processes < 1 or args.batch < 1 or args.turn_limit < 0:
        parser.error("--games, --processes and --batch must be positive, --turn-limit 0 or more")
    modules = [name.strip() for value in args.modules for name in value.split(",") if name.strip()]
    try:
        offer = offered_bots(args.server)
        for bot in args.bots:
            check_bot(bot, args.server, offer)
        if args.server:
            check_server_bots(args.bots, args.server, modules=modules)
    except (ValueError, EngineNotInstalled) as error:
        parser.error(str(error))
    except EngineError as error:  # the server did not answer what it offers
        print(f"splendor-tournament: the server at {args.server}: {error}", file=sys.stderr)
        return EXIT_GAME_FAILED
    labels = _labels(args.bots)
    specs = schedule(
        labels, args.bots, args.games, args.seed, modules=modules, turn_limit=args.turn_limit, server=args.server
    )
    progress = _Progress(sys.stderr, len(specs), labels, quiet=args.quiet)
    records: list[GameRecord] = []
    # A terminated runner unwinds like an interrupted one, so its worker processes are stopped with it.
    previous_handler = signal.signal(signal.SIGTERM, _interrupt)
    try:
        for record in _played(specs, args.processes, args.batch if args.server else 1):
            records.append(record)
            progress.update(record)
    except KeyboardInterrupt:
        progress.finish()
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as error:  # a bot or the engine failed: say which, keep the traceback out
        progress.finish()
        print(f"splendor-tournament: a game could not be played: {error}", file=sys.stderr)
        return EXIT_GAME_FAILED
    finally:
        signal.signal(signal.SIGTERM, previous_handler)
    progress.finish()
    summaries = summarize(labels, records)
    args.out.mkdir(parents=True, exist_ok=True)
    settings = {
        "bots": list(args.bots),
        "players": len(args.bots),
        "games": args.games,
        "seed": args.seed,
        "modules": modules,
        "turn_limit": args.turn_limit,
        "mode": "server" if args.server else "in-process",
        "server": args.server,
        "processes": args.processes,
        "batch": args.batch if args.server else 1,
    }
    write_csv(args.out / "results.csv", records)
    write_json(args.out / "results.json", settings, summaries, records)
    title = f"{' vs '.join(labels)}: {len(records)} games" + (f" ({', '.join(modules)})" if modules else "")
    charted = write_chart(args.out / "results.png", summaries, title)
    on_server = [bot for bot in args.bots if args.server and is_server_bot(bot)]
    return _print_results(summaries, args.out, charted, on_server)


def _print_results(summaries: Sequence[BotSummary], out: Path, charted: bool, on_server: Sequence[str] = ()) -> int:
    lines = [table(summaries), "", f"results: {out / 'results.csv'}, {out / 'results.json'}"]
    if on_server:
        bots = ", ".join(dict.fromkeys(on_server))
        lines.insert(1, f"CPU of {bots} (on the server): the ApplyAction call's wall time; the server reports no CPU")
    lines.append(f"chart: {out / 'results.png'}" if charted else f"chart: skipped (needs matplotlib: {CHART_COMMAND})")
    try:
        print("\n".join(lines), flush=True)
    except BrokenPipeError:
        # The reader left (``| head``): the files are written, so this is a normal end.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return EXIT_OK


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _labels(bots: Sequence[str]) -> list[str]:
    """The bots' names in the results; repeated specs are numbered (``greedy#1``, ``greedy#2``)."""
    counts = Counter(bots)
    seen: Counter[str] = Counter()
    labels = []
    for bot in bots:
        seen[bot] += 1
        labels.append(f"{bot}#{seen[bot]}" if counts[bot] > 1 else bot)
    return labels


def _played(specs: list[GameSpec], processes: int, batch: int = 1) -> Iterator[GameRecord]:
    """Every game's record, as groups of ``batch`` games played together finish (``play_games``)."""
    groups = [specs[start : start + batch] for start in range(0, len(specs), batch)]
    if processes == 1:
        for group in groups:
            yield from play_games(group)
        return
    # Spawned, not forked: workers open gRPC channels of their own, which must not be inherited.
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        for records in pool.imap_unordered(play_games, groups):
            yield from records


class _Progress:
    """One updating line on a terminal; a plain line per game otherwise."""

    def __init__(self, stream: TextIO, total: int, labels: Sequence[str], quiet: bool) -> None:
        self.stream = stream
        self.total = total
        self.labels = labels
        self.quiet = quiet
        self.tty = stream.isatty()
        self.wins: Counter[str] = Counter()
        self.done = 0
        self.started = time.perf_counter()

    def update(self, record: GameRecord) -> None:
        self.done += 1
        self.wins.update(record.winners)
        if self.quiet:
            return
        elapsed = time.perf_counter() - self.started
        remaining = elapsed / self.done * (self.total - self.done)
        wins = "  ".join(f"{label} {self.wins[label]}" for label in self.labels)
        line = f"game {self.done}/{self.total}  wins: {wins}  {elapsed:.0f}s elapsed, ~{remaining:.0f}s left"
        try:
            if self.tty:
                self.stream.write("\r\x1b[K" + line)
            else:
                self.stream.write(line + "\n")
            self.stream.flush()
        except (BrokenPipeError, OSError):
            self.quiet = True  # nobody reads the progress any more; the results still get written

    def finish(self) -> None:
        if self.tty and not self.quiet and self.done:
            try:
                self.stream.write("\n")
                self.stream.flush()
            except (BrokenPipeError, OSError):
                self.quiet = True


if __name__ == "__main__":
    sys.exit(main())
