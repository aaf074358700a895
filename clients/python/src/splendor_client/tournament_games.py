"""One tournament game: which bot sits where, and playing it in-process or through a server.

Seats rotate: game ``g`` of a ``P``-player tournament seats bot ``(s + g) % P`` at seat
``s``, and the ``P`` rotations of one deal share its seed, so every bot plays every deal
from every seat (the first seat is always seat 0).

The bots offered are the catalog's policies (``offered_bots``): in-process, the engine's
public in-process API (``local_engine``, imported when such a game is checked or played) plays
its policies (``random``, ``greedy``, ``ismcts[:iterations]``). Server games are played
several at once (``play_games``: ``--batch`` of them, default ``DEFAULT_BATCH``): each round
sends the move of every game whose seat a client-side bot plays in one BatchApplyActions call
(each item returns its game's next seat, legal actions and view), so those moves share a
call's cost; ``random`` and ``greedy`` are the client's bots choosing on that view, and
external programs too. Every other policy of the server's catalog (``ismcts``) is the server's
(``ApplyActionRequest.bot``): each of its moves is an ApplyAction call of its own, so its
search runs on the replica that serves the call with that call's whole deadline (a search
shares no time budget with other moves); a server busy with other searches refuses it "retry
later", and the game waits its turn (``when_free``). A search policy (the catalog's
``search_policies``) takes a number of iterations a move (``ismcts:300``). Each group of games
opens its own channel, so groups spread over the replicas behind one address (a Kubernetes
Service balances connections). The games and their results are the same whatever the batch.

Time per move: a bot's CPU is this process's CPU time while it chooses, except for a
server-side bot, whose choice costs the server, not this process: its CPU column counts
the whole ApplyAction call's wall time (the server reports no CPU time per call), an upper
bound of the server's CPU on an idle replica. ``check_server_bots`` asks the server to
validate each server-side bot (``validate_only``) before the first game, so a spelling or
a budget the server refuses stops the tournament before it starts.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, NamedTuple, TypeVar

from splendor.v1 import actions_pb2, catalog_pb2, engine_service_pb2, state_pb2, view_pb2

from .actions import ActionLike, as_action
from .bots import BOT_NAMES, make_bot
from .client import EngineClient, connect, server_bot
from .errors import EngineError, InvalidRequest
from .external_bot import ExternalBot
from .local_engine import local_engine

EXTERNAL_PREFIX = "cmd:"
DEFAULT_BATCH = 16  # server games played at once by one worker
MAX_ACTIONS = 10_000  # far beyond any real game: stops a broken bot or engine
BUSY_PATIENCE_SECONDS = 60.0  # how long a search move waits its turn on a busy server (``when_free``)
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
    return play_games([spec])[0]


def play_games(specs: Sequence[GameSpec]) -> list[GameRecord]:
    """Play games to their end, in order: in-process one after the other; through a server (``specs`` of one
    server) all at once, one BatchApplyActions call a round for the moves the client chooses."""
    if not specs:
        return []
    server = specs[0].server
    if server is None:
        return [_play_in_process(spec) for spec in specs]
    if any(spec.server != server for spec in specs):
        raise ValueError("games played together go through one server")
    return _play_on_server(specs, server)


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


class _ServerGame:
    """One game played through a server: its state, the next seat's legal actions and view, its seats' bots."""

    def __init__(self, spec: GameSpec, client: EngineClient, catalog: catalog_pb2.Catalog) -> None:
        self.spec = spec
        players = len(spec.bots)
        self.state = client.new_game(
            num_players=players, seed=spec.deal_seed, first_seat=0, modules=spec.modules, turn_limit=spec.turn_limit
        ).state
        self.externals = _start_programs(spec)
        self.server_bots = {seat: server_bot(bot) for seat, bot in enumerate(spec.bots) if is_server_bot(bot)}
        self.bots = {
            seat: make_bot(bot, catalog, spec.bot_seeds[seat])
            for seat, bot in enumerate(spec.bots)
            if seat not in self.externals and seat not in self.server_bots
        }
        listed = client.list_legal_actions(self.state)
        self.seat, self.legal, self.view = listed.seat, list(listed.actions), client.view(self.state, listed.seat).view
        self.clock = _Clock(players)
        self.actions = 0

    @property
    def over(self) -> bool:
        return self.state.end_reason != state_pb2.END_REASON_UNSPECIFIED

    def request(self) -> engine_service_pb2.ApplyActionRequest:
        """The next move's request, the next seat's legal actions and view asked back (a server bot's search or the
        client-side bot's choice, timed for its seat)."""
        _check_length(self.actions)
        seat = self.seat
        request = engine_service_pb2.ApplyActionRequest(state=self.state, seat=seat, include_legal_actions=True)
        if seat in self.server_bots:
            request.bot.CopyFrom(self.server_bots[seat])
            request.bot.seed = self.spec.bot_seeds[seat] * 100_003 + self.clock.moves[seat]  # a fresh seed a move
        else:
            chooser: Callable[[view_pb2.GameView, list[actions_pb2.LegalAction]], ActionLike] = (
                self.externals[seat].choose if seat in self.externals else self.bots[seat].choose
            )
            request.action.CopyFrom(as_action(self.clock.timed(seat, chooser, self.view, self.legal)))
        return request

    def absorb(self, response: engine_service_pb2.ApplyActionResponse) -> None:
        self.state, self.legal, self.view = response.state, list(response.legal_actions), response.view
        self.seat = response.acting_seat
        self.actions += 1

    def record(self, client: EngineClient) -> GameRecord:
        for seat, program in self.externals.items():
            program.finish(client.view(self.state, seat).view)
        state = self.state
        end_reason = _end_reason_name(state.end_reason)
        return _record(
            self.spec, self.clock, state.ranking, end_reason=end_reason, actions=self.actions, turns=state.turn
        )

    def close(self) -> None:
        for program in self.externals.values():
            program.close()


def _play_on_server(specs: Sequence[GameSpec], server: str) -> list[GameRecord]:
    records: dict[int, GameRecord] = {}
    with connect(server) as client:
        catalog = client.get_catalog()
        games: list[_ServerGame] = []
        try:
            for spec in specs:
                games.append(_ServerGame(spec, client, catalog))
            playing = [game for game in games if not game.over]
            while playing:
                # A server-side search is a call of its own (its own deadline, no budget shared with other moves);
                # every other game's move rides in this round's batch.
                batched = []
                for game in playing:
                    if game.seat in game.server_bots:
                        request = game.request()
                        game.absorb(
                            when_free(
                                partial(game.clock.timed, game.seat, client.apply_request, request, on_server=True)
                            )
                        )
                    else:
                        batched.append(game)
                if batched:
                    for game, result in zip(batched, client.apply_batch([game.request() for game in batched])):
                        if isinstance(result, EngineError):
                            raise result
                        game.absorb(result)
                playing = [game for game in playing if not game.over]
            for game in games:
                records[game.spec.index] = game.record(client)
        finally:
            for game in games:
                game.close()
    return [records[spec.index] for spec in specs]


def when_free(call: Callable[[], T], *, patience: float = BUSY_PATIENCE_SECONDS) -> T:
    """``call()``, tried again while the server answers that it is busy (``RESOURCE_EXHAUSTED``, "retry
    later"), waiting a jittered 50 ms, 100 ms... up to 1 s between tries, for at most ``patience`` seconds.

    A server runs few expensive calls at once (a search move is one) and refuses the others rather than
    queue them on threads cheap calls need: games searched on one server by several workers take turns.
    """
    give_up = time.monotonic() + patience
    pause = 0.05
    while True:
        try:
            return call()
        except EngineError as error:
            if error.code_name != "RESOURCE_EXHAUSTED" or time.monotonic() + pause > give_up:
                raise
        time.sleep(pause * random.uniform(0.5, 1.0))  # jittered: workers refused together retry apart
        pause = min(pause * 2, 1.0)


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
