"""Bots playing sealed games to their end over gRPC, each call landing wherever the balancer sends it.

A player is a thread with a channel of its own (``splendor_client``'s, with its documented round robin
and retry policy) that keeps several games going at once, one move of each in turn: its acting seat
asks for its legal actions, picks one at random and applies it. Every call carries a request id of its
own (``x-request-id``, which the replicas log), so the run can match each call a player made with the
replicas' log lines. A call that still fails after the client's retries is a failure seen by a player,
and its game is lost.
"""

from __future__ import annotations

import itertools
import random
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import grpc
from splendor.v1 import actions_pb2, config_pb2, view_pb2
from splendor_client import EngineClient, EngineError, SealedGame, read_token_header
from splendor_client.balancing import channel_options, channel_target

from tests.polling import pace

REQUEST_ID = "x-request-id"
CALL_TIMEOUT = 30.0


def token_key_id(token: bytes) -> str:
    """The id of the key that sealed ``token``, in clear in its header (what a platform checks before a
    key is retired)."""
    return read_token_header(token).key_id


@dataclass
class PlayedGame:
    """One game as its player saw it."""

    player: str
    transport: str
    game_id: str = ""
    num_players: int = 2
    created_key: str = ""  # the key that sealed the game's first token (and issued its seat keys)
    created_at: float = 0.0
    live_key: str = ""  # the key that sealed its latest token, while it is played
    moves: list[actions_pb2.Action] = field(default_factory=list)
    final_view: view_pb2.GameView | None = None  # the last move's answer: the acting seat's view of the end
    error: str = ""  # the failure that lost it

    @property
    def finished(self) -> bool:
        return self.final_view is not None


@dataclass
class CallRecord:
    request_id: str
    method: str
    code: str  # the outcome the player saw, after the client's retries
    at: float = 0.0  # when it ended (time.monotonic)
    tries: int = 0  # how many times the client sent it (0: not counted, inside gRPC's own retries)


class _CallDetailsFields(NamedTuple):
    method: str
    timeout: float | None
    metadata: Sequence[tuple[str, str]] | None
    credentials: grpc.CallCredentials | None
    wait_for_ready: bool | None
    compression: grpc.Compression | None


class _CallDetails(_CallDetailsFields, grpc.ClientCallDetails):  # type: ignore[misc]
    """A call's details with one more metadata entry (gRPC's own are read-only)."""


class _RequestIds(grpc.UnaryUnaryClientInterceptor):
    """Gives each call a request id of its own and records the outcome the player saw."""

    def __init__(self, prefix: str, record: Callable[[CallRecord], None]) -> None:
        self._ids = (f"{prefix}-{n}" for n in itertools.count())
        self._lock = threading.Lock()
        self._record = record

    def intercept_unary_unary(self, continuation: Any, details: Any, request: Any) -> Any:
        with self._lock:
            request_id = next(self._ids)
        metadata = (*(details.metadata or ()), (REQUEST_ID, request_id))
        with_id = _CallDetails(
            details.method, details.timeout, metadata, details.credentials, details.wait_for_ready, details.compression
        )
        outcome = continuation(with_id, request)
        code = outcome.code()
        method = details.method.rsplit("/", 1)[-1]
        self._record(CallRecord(request_id, method, code.name if code else "OK", time.monotonic()))
        return outcome


class Player(threading.Thread):
    """Plays ``games_at_once`` sealed games at a time until told to stop starting new ones.

    ``target``: one address (the proxy) or several replicas (client-side round robin). ``pace``: seconds
    to wait after each move while ``paced`` is set (a human's thinking time; games that must outlast a
    phase of the run), none once it is cleared.
    """

    def __init__(
        self,
        name: str,
        transport: str,
        target: str | Sequence[str],
        *,
        games_at_once: int,
        seed: int,
        starting: threading.Event,
        paced: threading.Event | None = None,
        pace: float = 0.0,
        num_players: Sequence[int] = (2,),
    ) -> None:
        super().__init__(name=name, daemon=True)
        self.transport = transport
        self.games_at_once = games_at_once
        self.rng = random.Random(seed)
        self.starting = starting  # set while new games may start
        self.paced = paced
        self.pace = pace
        self.num_players = tuple(num_players)
        self.games: list[PlayedGame] = []
        self.calls: list[CallRecord] = []
        self.seen: Counter[str] = Counter()
        self._lock = threading.Lock()
        channel = grpc.insecure_channel(channel_target(target), options=channel_options(()))
        self._channel = channel
        intercepted = grpc.intercept_channel(channel, _RequestIds(name, self._record))
        self.client = EngineClient(intercepted, timeout=CALL_TIMEOUT)
        self.handles: dict[str, SealedGame] = {}  # the live games' latest handles, by game id

    def _record(self, call: CallRecord) -> None:
        with self._lock:
            self.calls.append(call)
            self.seen[call.code] += 1

    def live(self) -> list[PlayedGame]:
        with self._lock:
            return [game for game in self.games if not game.finished and not game.error]

    def run(self) -> None:
        try:
            active: list[PlayedGame] = []
            while True:
                while self.starting.is_set() and len(active) < self.games_at_once:
                    game = self._start()
                    if game is not None:
                        active.append(game)
                if not active:
                    if not self.starting.is_set():
                        return
                    pace(0.05)  # every new game failed: try again
                    continue
                for game in list(active):
                    self._move(game)
                    if game.finished or game.error:
                        active.remove(game)
                if self.paced is not None and self.paced.is_set():
                    pace(self.pace)
        finally:
            self._channel.close()

    def _start(self) -> PlayedGame | None:
        played = PlayedGame(self.name, self.transport, num_players=self.rng.choice(self.num_players))
        with self._lock:
            self.games.append(played)
        try:
            config = config_pb2.GameConfig(num_players=played.num_players)
            game = self.client.create_game(config, sealed=True, seat=0)
        except EngineError as error:
            played.error = f"CreateGame: {error}"
            return None
        played.game_id, played.created_at = game.binding.game_id, time.monotonic()
        played.created_key = played.live_key = token_key_id(game.token)
        self.handles[played.game_id] = game
        return played

    def _move(self, played: PlayedGame) -> None:
        game = self.handles[played.game_id]
        seat = game.acting_seat
        try:
            legal = self.client.legal_actions(game, seat=seat)
            chosen = self.rng.choice(legal)
            game = self.client.apply(game, chosen, seat=seat)
        except EngineError as error:
            played.error = f"{error}"
            return
        played.moves.append(chosen.action)
        played.live_key = token_key_id(game.token)
        self.handles[played.game_id] = game
        if game.finished:
            played.final_view, played.live_key = game.view, ""
            del self.handles[played.game_id]
