"""``splendor-play``: play one whole game against a running engine, with bots or a person, and narrate it.

    splendor-engine serve &                 # start the server (default localhost:50051)
    splendor-play                           # a 2-player game of random moves, seed chosen for you
    splendor-play --players 3 --seed 1 --bot greedy --board
    splendor-play --human 0 --modules orient   # you play seat 0 against a bot
    splendor-play --sealed --bot ismcts:200,greedy   # a sealed game; seat 0's bot searches on the server
    splendor-play --address 127.0.0.1:50999 --quiet

It fetches the catalog, deals a game, then for each move asks the engine for the
legal actions (pending decisions included), lets the seat's bot (or the person at
the keyboard) pick one from that seat's own view of the game, applies it and
prints what happened. Everything printed comes from one seat's view (``--view``;
the human seat by default, else a spectator's): the events are redacted by the
engine, so the card another seat drew blind is never shown. With ``--sealed`` the game
travels as a token dealt from a seed the server draws (``--seed`` asks for a public deal
instead), every seat's moves, views and legal actions with that seat's key, as a hot-seat
front end holds them. ``random`` and ``greedy`` are the client's bots; any other name is a
policy the server offers (its catalog's ``bot_policies``; ``ismcts[:N]`` searches there, N
iterations a move), and choose on the server. Exit code 0 when the
game finished, 1 when it did not (or the engine refused something, or the person
quit), 2 when no engine answered at the address or the command line was wrong.
Closing the output (``splendor-play | head``) ends the game quietly.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import textwrap
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TextIO

import grpc  # type: ignore[import-untyped, unused-ignore]
from splendor.v1 import actions_pb2, catalog_pb2, events_pb2, state_pb2, view_pb2

from .bots import BOT_NAMES, Bot, acting_seat, make_bot
from .client import (
    DEFAULT_ADDRESS,
    DEFAULT_TIMEOUT,
    EngineClient,
    GameResult,
    MoveLike,
    SealedGame,
    connect,
    module_value,
    server_bot,
)
from .compact_board import compact_board_lines
from .describe import Describer, player_name, plural, winners_text
from .errors import EngineError


class UnknownBot(ValueError):
    """A bot that is neither the client's nor a policy of the server."""


EXIT_FINISHED = 0
EXIT_NOT_FINISHED = 1
EXIT_UNREACHABLE = 2
DEFAULT_MAX_TURNS = 2000
_UNREACHABLE_CODES = ("UNAVAILABLE", "DEADLINE_EXCEEDED", "UNIMPLEMENTED")


@dataclass
class Outcome:
    """How a game went: its last position (the state, or a sealed game's view) and what it took."""

    state: state_pb2.GameState | view_pb2.GameView
    calls: int
    seconds: float
    seed: int | None = None  # the deal's: given, or revealed once a sealed game is over

    @property
    def finished(self) -> bool:
        """True when the game ended by the rules."""
        return self.state.end_reason != state_pb2.END_REASON_UNSPECIFIED


class StuckError(RuntimeError):
    """The game did not end within the move budget, or the engine listed no move for an unfinished game."""


class PersonQuit(RuntimeError):
    """The person playing a seat quit (``q`` or the end of the input)."""


Ask = Callable[[str], str]
"""Reads one answer from the person at the keyboard after showing a prompt (``input``)."""

MOVE_GROUPS: tuple[tuple[str, frozenset[str]], ...] = (
    ("Buy", frozenset({"purchase_card"})),
    ("Take gems", frozenset({"take_gems", "take_two_gems", "take_gem"})),
    ("Reserve", frozenset({"reserve_card", "reserve_from_deck"})),
)
"""How a person's moves are listed: buys first, then gems, then whatever else (a decision's
answers, pass), and the many reserves last."""

SPECTATOR = "spectator"
MAX_WIDTH = 100


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``splendor-play``."""
    parser = argparse.ArgumentParser(
        prog="splendor-play",
        description="Play one game of Splendor between bots on a running splendor-engine, printing every event.",
    )
    parser.add_argument(
        "--address",
        default=os.environ.get("SPLENDOR_ADDRESS", DEFAULT_ADDRESS),
        help="the engine's host:port (default: $SPLENDOR_ADDRESS or %(default)s)",
    )
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2, help="number of seats (default: 2)")
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="the game's seed (default: a random one, printed; with --sealed, one the server draws and reveals "
        "at the end, and a given seed deals a public deal)",
    )
    parser.add_argument(
        "--sealed",
        action="store_true",
        help="play a sealed game: a token and seat keys, each seat seeing and acting with its own key",
    )
    parser.add_argument(
        "--modules",
        action="append",
        default=[],
        metavar="NAME[,NAME]",
        help="a Cities of Splendor module to enable: cities, trading_posts, strongholds or orient "
        "(default: the base game)",
    )
    parser.add_argument(
        "--bot",
        default="random",
        metavar="BOT[:N]",
        help=f"the bot of every seat, or a comma-separated list, one per player in seat order (default: random): "
        f"the client's {' or '.join(BOT_NAMES)}, or a policy the server offers (its catalog's bot_policies), "
        "choosing on the server; a search policy takes N iterations a move (ismcts:200)",
    )
    parser.add_argument(
        "--max-turns",
        type=int,
        default=DEFAULT_MAX_TURNS,
        help="stop a game still running after this many turns, all seats together (default: %(default)s)",
    )
    parser.add_argument(
        "--timeout", type=float, default=DEFAULT_TIMEOUT, help="deadline of each call, seconds (default: %(default)s)"
    )
    parser.add_argument(
        "--human",
        action="append",
        default=[],
        metavar="SEAT[,SEAT]",
        help="a seat (0-based: seat 0 is Player 1) played by you at the keyboard instead of a bot; repeat for a "
        "hot-seat game",
    )
    parser.add_argument(
        "--view",
        default=None,
        metavar="SEAT|spectator",
        help="whose view the narration and the board show (default: the first --human seat, else a spectator)",
    )
    parser.add_argument("--board", action="store_true", help="print the table after every turn, not only at the end")
    parser.add_argument("--quiet", "-q", action="store_true", help="print only the one-line summary")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``splendor-play``; returns the exit code. A closed output ends it quietly."""
    try:
        return _main(argv)
    except BrokenPipeError:
        # The reader went away (``| head``): stop writing, without a traceback on the way out.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_NOT_FINISHED


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    modules = [name for value in args.modules for name in value.split(",") if name.strip()]
    bot_names = [name.strip() for name in args.bot.split(",") if name.strip()]
    try:
        for name in modules:
            module_value(name)
        humans = sorted({int(seat) for value in args.human for seat in value.split(",") if seat.strip()})
        viewer = _viewer(args.view, humans)
    except ValueError as error:
        parser.error(str(error))
    if not bot_names or any(not _is_bot_spelling(name) for name in bot_names):
        parser.error("--bot: use a bot's name, NAME:N for a search policy, or a comma-separated list of them")
    if args.max_turns < 1:
        parser.error("--max-turns must be at least 1")
    if any(not 0 <= seat < args.players for seat in humans) or (viewer is not None and viewer >= args.players):
        parser.error(f"--human and --view take seats 0 to {args.players - 1}")
    seed = args.seed
    if seed is None and not args.sealed:
        seed = random.SystemRandom().randrange(1_000_000)
    out = sys.stdout
    try:
        with connect(args.address, timeout=args.timeout) as client:
            outcome = play_game(
                client,
                players=args.players,
                seed=seed,
                modules=modules,
                bot_names=bot_names,
                max_turns=args.max_turns,
                out=None if args.quiet else out,
                humans=humans,
                viewer=viewer,
                board=args.board,
                sealed=args.sealed,
            )
    except EngineError as error:
        return _report_engine_error(error, args.address)
    except UnknownBot as error:
        print(f"splendor-play: --bot: {error}", file=sys.stderr)
        return EXIT_UNREACHABLE
    except StuckError as error:
        print(f"splendor-play: {error}", file=sys.stderr)
        return EXIT_NOT_FINISHED
    except PersonQuit:
        print("splendor-play: the game was left unfinished", file=sys.stderr)
        return EXIT_NOT_FINISHED
    except KeyboardInterrupt:
        print("splendor-play: interrupted", file=sys.stderr)
        return 130
    print(summary(outcome, seed=outcome.seed, bot_names=bot_names, humans=humans), file=out)
    out.flush()
    return EXIT_FINISHED if outcome.finished else EXIT_NOT_FINISHED


def _viewer(text: str | None, humans: Sequence[int]) -> int | None:
    """The seat of ``--view`` (``None``: a spectator); by default the first human seat."""
    if text is None:
        return humans[0] if humans else None
    if text.strip().lower() == SPECTATOR:
        return None
    if not text.strip().isdigit():
        raise ValueError(f"--view takes a seat number or {SPECTATOR!r}, not {text!r}")
    return int(text)


def play_game(
    client: EngineClient,
    *,
    players: int = 2,
    seed: int | None = 0,
    modules: Sequence[str] = (),
    bot_names: Sequence[str] = ("random",),
    max_turns: int = DEFAULT_MAX_TURNS,
    out: TextIO | None = None,
    humans: Collection[int] = (),
    viewer: int | None = None,
    board: bool = False,
    ask: Ask | None = None,
    sealed: bool = False,
) -> Outcome:
    """Play one game to its end through ``client``, printing what ``viewer`` may see to ``out`` (``None``: silent).

    Each seat's bot (``bot_names`` used seat by seat, cycling) picks among the listed legal
    actions from its own view (another policy of the server, e.g. ``ismcts[:N]``, chooses on the server;
    ``UnknownBot`` if the server has no such policy); the seats in ``humans``
    are asked through ``ask`` (``input``) instead. The narration is ``viewer``'s (``None``: a
    spectator's): events redacted by the engine, and with ``board`` the table after every turn.
    ``sealed``: the game is a token with seat keys, each call made with its seat's key;
    ``seed=None`` then lets the server draw the deal (revealed at the end), a seed is a public
    deal. Raises ``StuckError`` if the game is still running after ``max_turns`` turns,
    ``PersonQuit`` if the person quits, and ``EngineError`` if a call fails.
    """
    started = time.perf_counter()
    catalog = client.get_catalog()
    describer = Describer(catalog)
    bot_seed = seed or 0
    bots = _client_bots(bot_names, players, catalog, bot_seed)
    dealt: GameResult | SealedGame
    if sealed:  # a given seed is a public deal; without one the server draws it
        public = seed is not None
        dealt = client.new_game(players, seed or 0, modules=modules, sealed=True, seat=viewer, public_deal=public)
    else:
        dealt = client.new_game(num_players=players, seed=seed or 0, modules=modules)
    held, position, events = _after(dealt)
    calls = 2
    _say(out, f"Splendor engine: {len(catalog.cards)} cards, {len(catalog.nobles)} nobles.")
    who = ", ".join(f"{player_name(seat)} is you" for seat in sorted(humans))
    deal = f"seed {seed}" if seed is not None else "a seed the server draws (shown at the end)"
    kind = "sealed game" if sealed else "game"
    _say(
        out,
        f"New {kind}: {players} players, {deal}, {_seats_text(players, bot_names, humans)}{'; ' + who if who else ''}.",
    )
    _say(out, f"Shown as {player_name(viewer) if viewer is not None else 'a spectator'} sees it.")
    seen = client.view(held, viewer, events=events)
    calls += 1
    _print_events(out, describer, "deal", seen.events)
    applied = 0
    while position.end_reason == state_pb2.END_REASON_UNSPECIFIED:
        if position.turn >= max_turns or applied >= 4 * max_turns:
            raise StuckError(f"the game was still running after {position.turn} turns (--max-turns {max_turns})")
        seat = acting_seat(position)
        if seat in humans or seat in bots:
            listing = client.list_legal_actions(held, seat=seat)
            if not listing.actions:
                raise StuckError(f"the engine listed no legal action at turn {position.turn} but the game is not over")
            view = client.view(held, seat).view
            calls += 2
            chooser = partial(_ask_person, out, ask or input, describer) if seat in humans else bots[seat].choose
            move: MoveLike = chooser(view, listing.actions)
        else:  # a server-side bot: a fresh seed a move
            move = server_bot(bot_names[seat % len(bot_names)], seed=(bot_seed * 10 + seat) * 100_003 + applied)
        label = f"turn {position.turn + 1}"
        result = client.apply(held, move, seat=seat, expected_turn=position.turn)
        held, position, events = _after(result)
        seen = client.view(held, viewer, events=events)
        calls += 2
        applied += 1
        _print_events(out, describer, label, seen.events)
        if board and out is not None and any(event.WhichOneof("kind") == "turn_ended" for event in events):
            _print_board(out, describer, seen.view)
    if out is not None:
        _print_board(out, describer, seen.view)
    revealed = position.revealed_seed if isinstance(position, view_pb2.GameView) else None
    return Outcome(position, calls, time.perf_counter() - started, seed if seed is not None else revealed)


Held = state_pb2.GameState | SealedGame
"""What ``play_game`` sends back with each call: the plain state, or the sealed game with every seat's key."""


def _after(
    result: GameResult | SealedGame,
) -> tuple[Held, state_pb2.GameState | view_pb2.GameView, list[events_pb2.Event]]:
    if isinstance(result, SealedGame):
        return result, result.view, result.events
    return result.state, result.state, result.events


def _is_bot_spelling(name: str) -> bool:
    """A client-side bot's name, or the spelling of a server-side one (``ismcts:200``); the server says which
    policies it has (``unknown_bots``)."""
    if name in BOT_NAMES:
        return True
    try:
        server_bot(name)
    except ValueError:
        return False
    return True


def _client_bots(bot_names: Sequence[str], players: int, catalog: catalog_pb2.Catalog, bot_seed: int) -> dict[int, Bot]:
    """The seats played by the client's bots, seeded; ``UnknownBot`` for a name the server has no such policy of."""
    unknown = unknown_bots(bot_names, catalog)
    if unknown:
        offered = ", ".join(dict.fromkeys((*BOT_NAMES, *catalog.bot_policies)))
        searching = ", ".join(catalog.search_policies) or "none"
        raise UnknownBot(f"no bot {', '.join(map(repr, unknown))} here: use {offered} (N iterations: {searching})")
    return {
        seat: make_bot(name, catalog, seed=bot_seed * 10 + seat)
        for seat in range(players)
        if (name := bot_names[seat % len(bot_names)]) in BOT_NAMES
    }


def unknown_bots(bot_names: Sequence[str], catalog: catalog_pb2.Catalog) -> list[str]:
    """The names in ``bot_names`` that are neither a client-side bot nor a policy of the server's ``catalog`` (with
    iterations, a search policy)."""
    unknown = []
    for name in bot_names:
        if name in BOT_NAMES:
            continue
        choice = server_bot(name)
        searching = choice.policy in catalog.search_policies
        if choice.policy not in catalog.bot_policies or (choice.iterations and not searching):
            unknown.append(name)
    return unknown


def _ask_person(
    out: TextIO | None,
    ask: Ask,
    describer: Describer,
    view: view_pb2.GameView,
    legal: Sequence[actions_pb2.LegalAction],
) -> actions_pb2.LegalAction:
    """Show the table and the numbered legal actions, and read the person's choice."""
    screen = out or sys.stdout
    _print_board(screen, describer, view)
    seat = view.viewer_seat
    heading = (
        describer.event(_decision_event(view))
        if view.pending_decision.kind != state_pb2.DECISION_KIND_UNSPECIFIED
        else f"Your move, {player_name(seat)}"
    )
    print(f"{heading}:", file=screen)
    legal = listed_in_order(legal)
    group = None
    for number, option in enumerate(legal, start=1):
        if _group_of(option) != group:
            group = _group_of(option)
            print(f"  {group}:", file=screen)
        print(_wrap(f"{number:>4}. {describer.action(option.action)}", indent=6), file=screen)
    screen.flush()
    while True:
        try:
            answer = ask(f"Choose 1-{len(legal)} (b: the table again, q: quit): ").strip().lower()
        except EOFError as error:
            raise PersonQuit from error
        if answer in ("q", "quit"):
            raise PersonQuit
        if answer in ("b", "board"):
            _print_board(screen, describer, view)
            continue
        if answer.isdigit() and 1 <= int(answer) <= len(legal):
            return legal[int(answer) - 1]
        print(f"Please answer a number from 1 to {len(legal)}, b or q.", file=screen)


def _group_of(option: actions_pb2.LegalAction) -> str:
    kind = option.action.WhichOneof("kind") or ""
    return next((title for title, kinds in MOVE_GROUPS if kind in kinds), "Other moves")


def listed_in_order(legal: Sequence[actions_pb2.LegalAction]) -> list[actions_pb2.LegalAction]:
    """The legal actions as a person is offered them: buys, gems, other moves, then reserves (stable within each)."""
    rank = {"Buy": 0, "Take gems": 1, "Other moves": 2, "Reserve": 3}
    return sorted(legal, key=lambda option: rank[_group_of(option)])


def _decision_event(view: view_pb2.GameView) -> events_pb2.Event:
    decision = view.pending_decision
    required = events_pb2.DecisionRequired(
        seat=decision.seat,
        kind=decision.kind,
        amount=decision.amount,
        options=decision.options,
        colors=decision.colors,
    )
    return events_pb2.Event(decision_required=required)


def _print_board(out: TextIO, describer: Describer, view: view_pb2.GameView) -> None:
    for line in compact_board_lines(view, describer):
        print(_wrap(line, indent=4), file=out)


def summary(outcome: Outcome, *, seed: int | None, bot_names: Sequence[str], humans: Collection[int] = ()) -> str:
    """The one-line summary of a game (``seed=None``: a sealed game's, still hidden).

    ``humans``: the seats people played, named as humans (the others as their bots).
    """
    state = outcome.state
    dealt = f"seed {seed}" if seed is not None else "seed hidden"
    facts = (
        f"{len(state.players)} players, {dealt}, {_seats_text(len(state.players), bot_names, humans)}, "
        f"{outcome.calls} calls in {outcome.seconds:.2f}s"
    )
    turns = f"{plural(state.turn, 'turn')} ({plural(state.round, 'round')})"
    if not outcome.finished:
        return f"Unfinished after {turns}: {facts}."
    best = max((standing.prestige for standing in state.ranking), default=0)
    return f"{winners_text(state.winners)[:-1]} with {best} prestige after {turns}: {facts}."


def _print_events(out: TextIO | None, describer: Describer, label: str, events: Sequence[events_pb2.Event]) -> None:
    if out is None:
        return
    for event in events:
        kind = event.WhichOneof("kind")
        if kind == "turn_ended":  # the next line's label says it
            continue
        text = describer.event(event)
        print(text if kind == "game_ended" else _wrap(f"[{label:>9}] {text}", indent=12), file=out)


def _wrap(text: str, *, indent: int) -> str:
    """A long line folded to the terminal's width (at most ``MAX_WIDTH``), continuation lines indented."""
    width = min(MAX_WIDTH, shutil.get_terminal_size((MAX_WIDTH, 24)).columns)
    return textwrap.fill(text, width=max(width, 40), subsequent_indent=" " * indent, break_on_hyphens=False)


def _say(out: TextIO | None, text: str) -> None:
    if out is not None:
        print(text, file=out)


def _seats_text(players: int, bot_names: Sequence[str], humans: Collection[int] = ()) -> str:
    """Who played: ``"greedy bots"``, ``"bots greedy, random (player by player)"``, or seat by seat when
    people played some (``"Player 1 human, Player 2 greedy bot"``)."""
    if not humans:
        if len(set(bot_names)) == 1:
            return f"{bot_names[0]} bots"
        return "bots " + ", ".join(bot_names) + " (player by player)"
    seats = [
        f"{player_name(seat)} {'human' if seat in humans else bot_names[seat % len(bot_names)] + ' bot'}"
        for seat in range(players)
    ]
    return ", ".join(seats)


def _report_engine_error(error: EngineError, address: str) -> int:
    """Explain a failed call on stderr; returns the exit code."""
    if error.code_name in _UNREACHABLE_CODES:
        if error.code == grpc.StatusCode.UNIMPLEMENTED:
            problem = "something answers there, but it is not a Splendor engine"
        elif error.code == grpc.StatusCode.DEADLINE_EXCEEDED:
            problem = "the engine did not answer in time (see --timeout)"
        else:
            problem = "no engine is answering there"
        print(
            f"splendor-play: cannot reach the Splendor engine at {address}: {problem}.\n"
            f"  ({error})\n"
            f"  Start one with:   splendor-engine serve --address {address}\n"
            "  or point this client at it with --address HOST:PORT (or the SPLENDOR_ADDRESS variable).",
            file=sys.stderr,
        )
        return EXIT_UNREACHABLE
    print(f"splendor-play: the engine refused a request: {error}", file=sys.stderr)
    return EXIT_NOT_FINISHED


if __name__ == "__main__":
    raise SystemExit(main())
