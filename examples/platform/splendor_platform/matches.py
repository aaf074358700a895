"""The platform's logic: deal a sealed match, bind a session to each human seat, apply a seat's move, let the bots
move, and serve every seat's view from the database. One engine call per move, human or bot.

A move is one ``ApplyAction`` carrying the newest token (from the database), the moving seat and its key (the
platform holds every key; browsers never see one), ``expected_step`` (the step the browser saw: a rewind or a
move that lost a race to another is refused by the engine with STEP_MISMATCH) and ``audiences`` (every seat and
the spectators): the answer holds what each of them may see after the move, and the legal actions of whoever
must act next, which the platform stores. Looking is then a database read.

Moves on one match are serialized by a lock per match in this process, and the database write is conditional on
the step the move was read at, so a second process racing on the same match cannot overwrite a move either.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final, TypeVar

import grpc
from splendor.v1 import actions_pb2, engine_service_pb2, events_pb2, sealing_pb2, view_pb2
from splendor_client import (
    EngineClient,
    EngineError,
    InvalidRequest,
    MoveLike,
    RuleRejected,
    SealedGame,
    server_bot,
)

from .store import SPECTATORS, Match, Store

HUMAN: Final = "human"
Result = TypeVar("Result")


class Refused(Exception):
    """A request the platform turns down: ``status`` is the HTTP status, ``reason`` the engine's reason or ours."""

    def __init__(self, status: int, reason: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.reason = reason
        self.message = message


@dataclass(frozen=True)
class SeatState:
    """What one seat (``seat`` None: a spectator) is shown: the game as it may see it, the events of the moves
    since the step it last saw, and its legal actions when it must act."""

    match: str
    seat: int | None
    step: int
    acting_seat: int | None
    view: view_pb2.GameView
    events: list[events_pb2.Event]
    legal_actions: list[actions_pb2.LegalAction]

    @property
    def finished(self) -> bool:
        return self.acting_seat is None


@dataclass
class Stats:
    """Engine calls by method; by who moved, each move's engine call and whole handling (the call and the database
    write) in ms; moves and refusals; retried calls."""

    calls: Counter[str] = field(default_factory=Counter)
    engine_ms: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    handled_ms: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    moves: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)
    retries: int = 0


class Platform:
    """Matches in ``store``, played through ``engine``. ``retry_seconds``: how long an engine call is retried
    while the engine is unreachable (a restart, a rollout) before the request fails."""

    def __init__(self, store: Store, engine: EngineClient, *, retry_seconds: float = 30.0) -> None:
        self.store = store
        self.engine = engine
        self.retry_seconds = retry_seconds
        self.stats = Stats()
        self._locks: defaultdict[str, threading.Lock] = defaultdict(threading.Lock)
        self._locks_lock = threading.Lock()

    # Matches.

    def create_match(self, players: Sequence[str], modules: Sequence[str] = ()) -> tuple[str, dict[int, str]]:
        """Deal a sealed match for ``players`` (by seat: ``"human"`` or a bot policy such as ``"greedy"``); the
        match id and one new session per human seat. Dealing costs one call, plus one view per seat."""
        game = self._call("CreateGame", lambda: self.engine.new_game(len(players), modules=modules, sealed=True))
        keys = [game.seat_keys[seat] for seat in range(len(players))]
        views = [self._first_view(game, seat) for seat in range(len(players))]
        views.append(engine_service_pb2.AudienceView(view=game.view, events=game.events))
        match = Match(game.binding.game_id, game.token, game.binding.step, game.acting_seat, keys, list(players))
        sessions = {secrets.token_urlsafe(24): seat for seat, player in enumerate(players) if player == HUMAN}
        self.store.add_match(match, sessions, views)
        with self._lock(match.id):
            self._bots_move(match.id)
        return match.id, {seat: session for session, seat in sessions.items()}

    def _first_view(self, game: SealedGame, seat: int) -> engine_service_pb2.AudienceView:
        looked = self._call("GetPlayerView", lambda: self.engine.view(game, seat))
        legal: list[actions_pb2.LegalAction] = []
        if seat == game.acting_seat:
            legal = self._call("ListLegalActions", lambda: self.engine.legal_actions(game, seat=seat))
        return engine_service_pb2.AudienceView(seat=seat, view=looked.view, events=game.events, legal_actions=legal)

    # What a session sees.

    def seat_of(self, session: str) -> tuple[str, int]:
        bound = self.store.session(session)
        if bound is None:
            raise Refused(401, "NO_SESSION", "no such session: sign in to a match first")
        return bound

    def state(self, session: str, since: int = -1) -> SeatState:
        """The session's seat's view, its events since step ``since`` and its legal actions: no engine call."""
        match_id, seat = self.seat_of(session)
        return self._shown(match_id, seat, since)

    def watch(self, match_id: str, since: int = -1) -> SeatState:
        """What spectators see."""
        return self._shown(match_id, None, since)

    def _shown(self, match_id: str, seat: int | None, since: int) -> SeatState:
        seen = self.store.seen(match_id, SPECTATORS if seat is None else seat, since)
        if not seen:
            raise Refused(404, "NO_MATCH", f"no match {match_id}")
        events = [event for step, shown in seen if step > since for event in shown.events]
        step, last = seen[-1]
        view = last.view
        acting = view.pending_decision.seat if view.HasField("pending_decision") else view.seat
        over = view.end_reason != 0
        return SeatState(match_id, seat, step, None if over else acting, view, events, list(last.legal_actions))

    # Moves.

    def move(self, session: str, step: int, action_id: int) -> SeatState:
        """The session's seat plays ``action_id``, believing the match at ``step``; then the bots move.

        Refused (nothing changed) with the engine's reason: STEP_MISMATCH (409) when the match is no longer at
        ``step`` (a rewind, a double click, a race), NOT_YOUR_TURN or an illegal move (422).
        """
        match_id, seat = self.seat_of(session)
        with self._lock(match_id):
            match = self.store.match(match_id)
            self._apply(match, seat, action_id, expected_step=step)
            self._bots_move(match_id)
        return self._shown(match_id, seat, step)

    def _bots_move(self, match_id: str) -> None:
        """While a bot must act, it moves (one call each). The caller holds the match's lock."""
        match = self.store.match(match_id)
        while match.acting_seat is not None and match.players[match.acting_seat] != HUMAN:
            seat = match.acting_seat
            bot = server_bot(match.players[seat], seed=match.step)
            self._apply(match, seat, bot, expected_step=match.step)
            match = self.store.match(match_id)

    def _apply(self, match: Match, seat: int, move: MoveLike, *, expected_step: int) -> None:
        """One ApplyAction: ``seat`` plays ``move`` (an action id, or a server bot), every audience's view returned."""
        keys = dict(enumerate(match.seat_keys))
        game = SealedGame(match.token, sealing_pb2.SealedStateBinding(), view_pb2.GameView(), seat_keys=keys)
        audiences: list[int | None] = [*range(len(match.players)), None]
        player = match.players[seat]
        started = time.perf_counter()
        try:
            moved = self._call(
                "ApplyAction",
                lambda: self.engine.apply(game, move, seat=seat, expected_step=expected_step, audiences=audiences),
            )
        except RuleRejected as refused:
            self.stats.refused[refused.reason] += 1
            status = 409 if refused.reason == "STEP_MISMATCH" else 422
            raise Refused(status, refused.reason, refused.message) from None
        except InvalidRequest as refused:
            self.stats.refused[refused.reason] += 1
            raise Refused(400, refused.reason, refused.message) from None
        called = time.perf_counter()
        views = [
            engine_service_pb2.AudienceView(
                seat=audience, view=shown.view, events=shown.events, legal_actions=shown.legal_actions
            )
            for audience, shown in moved.audience_views.items()
        ]
        binding = moved.binding
        acting = binding.acting_seat if binding.HasField("acting_seat") else None
        assert moved.applied is not None
        entry = (seat, player, moved.applied.action_id)
        kind = HUMAN if player == HUMAN else "bot"
        self.stats.engine_ms[kind].append((called - started) * 1000)
        if not self.store.record_move(
            match, token=moved.token, step=binding.step, acting_seat=acting, move=entry, views=views
        ):
            raise Refused(409, "STEP_MISMATCH", "another move was made on this match meanwhile")
        self.stats.moves[kind] += 1
        self.stats.handled_ms[kind].append((time.perf_counter() - started) * 1000)

    # The engine.

    def _call(self, method: str, call: Callable[[], Result]) -> Result:
        """``call`` (one engine call), retried while the engine is unreachable, up to ``retry_seconds``. Every
        call is a pure function of its request, so a retry is always safe."""
        deadline = time.monotonic() + self.retry_seconds
        pause = 0.05
        while True:
            try:
                result = call()
            except EngineError as error:
                if error.code != grpc.StatusCode.UNAVAILABLE:
                    self.stats.calls[method] += 1  # answered: a refusal
                    raise
                if time.monotonic() + pause > deadline:
                    raise Refused(503, "ENGINE_UNAVAILABLE", "the engine is unreachable: try again") from None
                self.stats.retries += 1
                time.sleep(pause)  # back off while the engine restarts
                pause = min(pause * 2, 1.0)
                continue
            self.stats.calls[method] += 1
            return result

    def _lock(self, match_id: str) -> threading.Lock:
        with self._locks_lock:
            return self._locks[match_id]
