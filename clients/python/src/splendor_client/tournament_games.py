"""One tournament game: which bot sits where, and playing it in-process or through a server.

Seats rotate: game ``g`` of a ``P``-player tournament seats bot ``(s + g) % P`` at seat
``s``, and the ``P`` rotations of one deal share its seed, so every bot plays every deal
from every seat (the first seat is always seat 0).

The bots offered are the catalog's policies (``offered_bots``): in-process, the engine's
public in-process API (``local_engine``, imported when such a game is checked or played) plays
its policies (``random``, ``greedy``, ``ismcts[:iterations]``). Server games play one
ApplyAction call a move (it returns the next seat's legal actions and view): ``random`` and
``greedy`` are the client's bots choosing on that view, every other policy of the server's
catalog (``ismcts``) is the server's (``ApplyActionRequest.bot``), so its search runs on the
replica that serves the call. A search policy (the catalog's ``search_policies``) takes a
number of iterations a move (``ismcts:300``). Each
game opens its own channel, so games spread over the replicas behind one address (a
Kubernetes Service balances connections).

Time per move: a bot's CPU is this process's CPU time while it chooses, except for a
server-side bot, whose choice costs the server, not this process: its CPU column counts
the whole ApplyAction call's wall time (the server reports no CPU time per call), an upper
bound of the server's CPU on an idle replica. ``check_server_bots`` asks the server to
validate each server-side bot (``validate_only``) before the first game, so a spelling or
a budget the server refuses stops the tournament before it starts.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeVar

from splendor.v1 import actions_pb2, engine_service_pb2, state_pb2, view_pb2

from .actions import ActionLike, as_action
from .bots import BOT_NAMES, make_bot
from .client import connect, server_bot
from .errors import InvalidRequest
from .external_bot import ExternalBot
from .local_engine import local_engine

EXTERNAL_PREFIX = "cmd:"
MAX_ACTIONS = 10_000  # far beyond any real game: stops a broken bot or engine
T = TypeVar("T")


@dataclass(frozen=True)
class GameSpec:
    """Everything one worker needs to play one game."""

    index: int
    deal_seed: int
    bots: tuple[str, ...]  # bot spec per seat (``greedy``, ``ismcts:400``, ``cmd:./my_bot``)
    labels: tuple[str, ...]  # the tournament's name of each seat's bot
    bot_seeds: tuple[int, ...]
    modules: tuple[str, ...] = ()
    turn_limit: int = 0  # 0: none
    server: str | None = None  # host:port, or None for in-process


@dataclass
class GameRecord:
    """How one game went, per seat."""

    index: int
    deal_seed: int
    labels: tuple[str, ...]
    places: tuple[int, ...]
    prestige: tuple[int, ...]
    end_reason: str
    actions: int
    turns: int
    moves: list[int] = field(default_factory=list)  # decisions taken per seat
    seconds: list[float] = field(default_factory=list)  # wall time spent choosing, per seat
    cpu_seconds: list[float] = field(default_factory=list)  # this process's CPU time spent choosing, per seat

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(label for label, place in zip(self.labels, self.places) if place == 1)


def schedule(
    labels: Sequence[str],
    bots: Sequence[str],
    games: int,
    seed: int,
    *,
    modules: Sequence[str] = (),
    turn_limit: int = 0,
    server: str | None = None,
) -> list[GameSpec]:
    """The games of a tournament, seats rotated over each deal."""
    players = len(bots)
    specs = []
    for index in range(games):
        rotation = index % players
        order = [(seat + rotation) % players for seat in range(players)]
        specs.append(
            GameSpec(
                index=index,
                deal_seed=seed + index // players,
                bots=tuple(bots[bot] for bot in order),
                labels=tuple(labels[bot] for bot in order),
                bot_seeds=tuple(seed * 1_000_003 + index * players + seat for seat in range(players)),
                modules=tuple(modules),
                turn_limit=turn_limit,
                server=server,
            )
        )
    return specs


class Offer(NamedTuple):
    """The bots one mode plays: their names, and those that take a number of iterations."""

    names: tuple[str, ...]
    searching: frozenset[str]


def offered_bots(server: str | None) -> Offer:
    """In-process, the engine's policies; through ``server``, the client's bots and the server's policies: both from
    the catalog (the engine's own, or the server's), so a policy the engine registers is offered with no other edit."""
    if server is None:
        catalog = local_engine().catalog_message()
        return Offer(tuple(catalog.bot_policies), frozenset(catalog.search_policies))
    with connect(server) as client:
        catalog = client.get_catalog()
    return Offer(tuple(dict.fromkeys((*BOT_NAMES, *catalog.bot_policies))), frozenset(catalog.search_policies))


def check_bot(spec: str, server: str | None, offer: Offer | None = None) -> None:
    """Raise ValueError unless ``spec`` names a bot this mode can run (``offer``: ``offered_bots(server)``)."""
    if spec.startswith(EXTERNAL_PREFIX):
        if not spec[len(EXTERNAL_PREFIX) :].strip():
            raise ValueError("cmd: needs a program, e.g. cmd:./my_bot")
        return
    offer = offer if offer is not None else offered_bots(server)
    kind, colon, argument = spec.partition(":")
    if kind not in offer.names:
        known = ", ".join(offer.names)
        raise ValueError(f"unknown bot {spec!r}: use {known} (a search policy takes :iterations) or cmd:<program>")
    if colon and not (kind in offer.searching and argument.isdigit() and int(argument) > 0):
        searching = ", ".join(sorted(offer.searching)) or "none here"
        raise ValueError(
            f"bad bot {spec!r}: only a search policy ({searching}) takes an argument, a positive number of iterations"
        )


def is_server_bot(bot: str) -> bool:
    """Whether a server game has ``bot`` play on the server: every policy but the client's own bots."""
    return not bot.startswith(EXTERNAL_PREFIX) and bot.partition(":")[0] not in BOT_NAMES


def check_server_bots(bots: Sequence[str], server: str, *, modules: Sequence[str] = ()) -> None:
    """Raise ValueError unless the server accepts every server-side bot (its policy and its iterations)."""
    choices = [(bot, server_bot(bot)) for bot in dict.fromkeys(bots) if is_server_bot(bot)]
    if not choices:
        return
    with connect(server) as client:
        state = client.new_game(num_players=len(bots), seed=1, modules=modules).state
        for bot, choice in choices:
            request = engine_service_pb2.ApplyActionRequest(state=state, bot=choice, validate_only=True)
            try:
                client.apply_request(request)  # a refused choice fails before any search
            except InvalidRequest as error:
                raise ValueError(f"the server refuses bot {bot!r}: {error}") from error


def play_game(spec: GameSpec) -> GameRecord:
    """Play one game to its end."""
    return _play_on_server(spec) if spec.server is not None else _play_in_process(spec)


class _Clock:
    """Time spent choosing, per seat."""

    def __init__(self, players: int) -> None:
        self.moves = [0] * players
        self.seconds = [0.0] * players
        self.cpu = [0.0] * players

    def timed(self, seat: int, choose: Callable[..., T], *args: Any, on_server: bool = False) -> T:
        """``choose(*args)`` timed for ``seat``; ``on_server``: the choice runs in the call (CPU: its wall time)."""
        wall, cpu = time.perf_counter(), time.process_time()
        result = choose(*args)
        elapsed = time.perf_counter() - wall
        self.seconds[seat] += elapsed
        self.cpu[seat] += elapsed if on_server else time.process_time() - cpu
        self.moves[seat] += 1
        return result


def _play_in_process(spec: GameSpec) -> GameRecord:
    engine = local_engine()
    players = len(spec.bots)
    state = engine.deal(
        players, spec.deal_seed, modules=frozenset(spec.modules), turn_limit=spec.turn_limit, first_seat=0
    )
    externals = _start_programs(spec)
    policies = {
        seat: engine.make_policy(bot, spec.bot_seeds[seat])
        for seat, bot in enumerate(spec.bots)
        if seat not in externals
    }
    clock = _Clock(players)
    actions = 0
    try:
        while state.end_reason is None:
            _check_length(actions)
            seat = state.acting_seat
            if seat in externals:
                view, legal = engine.view_message(state, seat), engine.legal_action_messages(state, seat)
                action = engine.action_from_id(clock.timed(seat, externals[seat].choose, view, legal))
            else:
                action = clock.timed(seat, policies[seat].choose, state)
            state = engine.play(state, action, seat)
            actions += 1
        for seat, program in externals.items():
            program.finish(engine.view_message(state, seat))
    finally:
        for program in externals.values():
            program.close()
    return _record(spec, clock, state.ranking, end_reason=state.end_reason.value, actions=actions, turns=state.turn)


def _play_on_server(spec: GameSpec) -> GameRecord:
    players = len(spec.bots)
    assert spec.server is not None
    with connect(spec.server) as client:
        catalog = client.get_catalog()
        state = client.new_game(
            num_players=players, seed=spec.deal_seed, first_seat=0, modules=spec.modules, turn_limit=spec.turn_limit
        ).state
        externals = _start_programs(spec)
        server_bots = {seat: server_bot(bot) for seat, bot in enumerate(spec.bots) if is_server_bot(bot)}
        bots = {
            seat: make_bot(bot, catalog, spec.bot_seeds[seat])
            for seat, bot in enumerate(spec.bots)
            if seat not in externals and seat not in server_bots
        }
        listed = client.list_legal_actions(state)
        seat, legal, view = listed.seat, list(listed.actions), client.view(state, listed.seat).view
        clock = _Clock(players)
        actions = 0
        try:
            while state.end_reason == state_pb2.END_REASON_UNSPECIFIED:
                _check_length(actions)
                # One call a move: the response carries the next acting seat, its legal actions and its view.
                request = engine_service_pb2.ApplyActionRequest(state=state, seat=seat, include_legal_actions=True)
                if seat in server_bots:
                    request.bot.CopyFrom(server_bots[seat])
                    request.bot.seed = spec.bot_seeds[seat] * 100_003 + clock.moves[seat]  # a fresh seed a move
                    response = clock.timed(seat, client.apply_request, request, on_server=True)  # searches there
                else:
                    chooser: Callable[[view_pb2.GameView, list[actions_pb2.LegalAction]], ActionLike] = (
                        externals[seat].choose if seat in externals else bots[seat].choose
                    )
                    request.action.CopyFrom(as_action(clock.timed(seat, chooser, view, legal)))
                    response = client.apply_request(request)
                state, legal, view = response.state, list(response.legal_actions), response.view
                seat = response.acting_seat
                actions += 1
            for seat, program in externals.items():
                program.finish(client.view(state, seat).view)
        finally:
            for program in externals.values():
                program.close()
    return _record(
        spec, clock, state.ranking, end_reason=_end_reason_name(state.end_reason), actions=actions, turns=state.turn
    )


def _record(spec: GameSpec, clock: _Clock, ranking: Any, *, end_reason: str, actions: int, turns: int) -> GameRecord:
    """A finished game's record from its ranking (core ``Standing``s or their messages: seat, place, prestige)."""
    places = {standing.seat: standing for standing in ranking}
    seats = range(len(spec.bots))
    return GameRecord(
        index=spec.index,
        deal_seed=spec.deal_seed,
        labels=spec.labels,
        places=tuple(places[seat].place for seat in seats),
        prestige=tuple(places[seat].prestige for seat in seats),
        end_reason=end_reason,
        actions=actions,
        turns=turns,
        moves=clock.moves,
        seconds=clock.seconds,
        cpu_seconds=clock.cpu,
    )


def _end_reason_name(value: state_pb2.EndReason.ValueType) -> str:
    return state_pb2.EndReason.Name(value).removeprefix("END_REASON_")


def _start_programs(spec: GameSpec) -> dict[int, ExternalBot]:
    """The ``cmd:`` seats' programs, started (each game and seat has its own)."""
    return {
        seat: ExternalBot(bot[len(EXTERNAL_PREFIX) :], seat)
        for seat, bot in enumerate(spec.bots)
        if bot.startswith(EXTERNAL_PREFIX)
    }


def _check_length(actions: int) -> None:
    if actions >= MAX_ACTIONS:
        raise RuntimeError(f"the game did not end within {MAX_ACTIONS} actions")
