"""``EngineClient``: one method per call of the ``splendor.v1.EngineService``, with Python errors.

>>> from splendor_client import connect
>>> with connect("127.0.0.1:50051") as client:
...     game = client.new_game(num_players=2, seed=7)
...     legal = client.legal_actions(game.state)
...     game = client.apply(game.state, legal[0])

The service is stateless: every call takes the game the previous call returned, either
the plain ``GameState`` (a trusted platform's own copy) or a sealed game token:

>>> with connect("127.0.0.1:50051") as client:
...     game = client.new_game(num_players=2, seed=secrets.randbits(64), sealed=True, seat=0)
...     legal = client.legal_actions(game, seat=game.view.seat)   # a SealedGame, or its token
...     game = client.apply(game, legal[0], seat=game.view.seat)  # a new token, and that seat's view

Every failed call raises an ``EngineError`` (see ``splendor_client.errors``).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Literal, Self, overload

import grpc  # type: ignore[import-untyped, unused-ignore]
from splendor.v1 import (
    actions_pb2,
    catalog_pb2,
    config_pb2,
    engine_service_pb2,
    engine_service_pb2_grpc,
    events_pb2,
    sealing_pb2,
    state_pb2,
    view_pb2,
)

from .actions import ActionLike, as_action
from .errors import EngineError, from_rpc_error

ModuleLike = str | int
"""A module name (``"cities"``, ``"MODULE_CITIES"``) or a ``Module`` enum value."""

DEFAULT_ADDRESS = "localhost:50051"
DEFAULT_TIMEOUT = 10.0


@dataclass(frozen=True)
class GameResult:
    """A game after a call: the new full state and the events that led to it, in order."""

    state: state_pb2.GameState
    events: list[events_pb2.Event] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        """True once the game has ended."""
        return self.state.end_reason != state_pb2.END_REASON_UNSPECIFIED


@dataclass(frozen=True)
class ViewResult:
    """What one seat (or a spectator) may see: the redacted game and the redacted events."""

    view: view_pb2.GameView
    events: list[events_pb2.Event] = field(default_factory=list)


@dataclass(frozen=True)
class ReplayResult:
    """A replayed game: the final state, every event, and the state digest after each action."""

    state: state_pb2.GameState
    events: list[events_pb2.Event] = field(default_factory=list)
    state_digests: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class SealedGame:
    """A game held as a sealed token: the token to send back, what it is bound to, and what one seat
    (or a spectator) may see. The holder can neither read nor alter the state inside the token.

    ``binding.step`` counts the actions applied since the deal: a platform that relays tokens keeps
    the last step it handed out per ``binding.game_id`` and refuses any other (a rewind or a replay).
    """

    token: bytes
    binding: sealing_pb2.SealedStateBinding
    view: view_pb2.GameView
    events: list[events_pb2.Event] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        """True once the game has ended."""
        return self.view.end_reason != state_pb2.END_REASON_UNSPECIFIED

    @property
    def acting_seat(self) -> int:
        """The seat that must act: the pending decision's seat, else the seat whose turn it is."""
        return self.view.pending_decision.seat if self.view.HasField("pending_decision") else self.view.seat


@dataclass(frozen=True)
class SealedReplay:
    """A replayed game as a new token (a new game id, ``step`` = the number of actions), and the digests."""

    game: SealedGame
    state_digests: list[str] = field(default_factory=list)


GameLike = state_pb2.GameState | bytes | SealedGame
"""A game to send: a plain state, a token, or the ``SealedGame`` holding one."""


def _with_game(request: Any, game: GameLike) -> Any:
    """Put ``game`` in the request's ``state_source``."""
    if isinstance(game, SealedGame):
        request.sealed_state = game.token
    elif isinstance(game, bytes):
        request.sealed_state = game
    else:
        request.state.CopyFrom(game)
    return request


def _sealed(response: Any) -> SealedGame:
    return SealedGame(response.sealed_state, response.sealed_state_binding, response.view, list(response.events))


def module_value(module: ModuleLike) -> config_pb2.Module.ValueType:
    """The ``Module`` enum value of a module name (``"cities"``, ``"trading_posts"``...) or value."""
    if isinstance(module, str):
        key = module.strip().upper().replace("-", "_").replace(" ", "_")
        name = key if key.startswith("MODULE_") else f"MODULE_{key}"
        try:
            return config_pb2.Module.Value(name)
        except ValueError:
            known = ", ".join(n.removeprefix("MODULE_").lower() for n in config_pb2.Module.keys()[1:])
            raise ValueError(f"unknown module {module!r}: use one of {known}") from None
    return config_pb2.Module.ValueType(int(module))


def game_config(
    num_players: int = 2,
    seed: int = 0,
    first_seat: int | None = None,
    modules: Iterable[ModuleLike] = (),
    turn_limit: int = 0,
) -> config_pb2.GameConfig:
    """A ``GameConfig``; ``first_seat=None`` lets the seed draw the first seat."""
    config = config_pb2.GameConfig(
        num_players=num_players,
        seed=seed,
        modules=[module_value(module) for module in modules],
        turn_limit=turn_limit,
    )
    if first_seat is not None:
        config.first_seat = first_seat
    return config


class EngineClient:
    """A synchronous client of the engine service over one gRPC channel.

    Build it with ``connect(address)``, or from a channel of your own. Use it as a
    context manager, or call ``close()``, to close the channel it owns.
    """

    def __init__(
        self,
        channel: grpc.Channel,
        *,
        timeout: float | None = DEFAULT_TIMEOUT,
        metadata: Sequence[tuple[str, str]] = (),
        owns_channel: bool = False,
    ) -> None:
        """Wrap ``channel``; ``timeout`` is the deadline of each call in seconds (``None``: no deadline)."""
        self.channel: grpc.Channel = channel
        self.timeout = timeout
        self.metadata: tuple[tuple[str, str], ...] = tuple(metadata)
        self._owns_channel = owns_channel
        self._stub: Any = engine_service_pb2_grpc.EngineServiceStub(channel)

    # Lifecycle.

    def close(self) -> None:
        """Close the channel if this client opened it (``connect`` does)."""
        if self._owns_channel:
            self.channel.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def wait_until_ready(self, timeout: float = DEFAULT_TIMEOUT) -> None:
        """Block until the channel is connected; ``EngineError(UNAVAILABLE)`` after ``timeout`` seconds."""
        try:
            grpc.channel_ready_future(self.channel).result(timeout=timeout)
        except grpc.FutureTimeoutError:
            raise EngineError(grpc.StatusCode.UNAVAILABLE, f"no engine answered within {timeout:g}s") from None

    # The service.

    def get_catalog(self) -> catalog_pb2.Catalog:
        """The static game data: cards, nobles and the action-id layout."""
        response: engine_service_pb2.GetCatalogResponse = self._call(
            self._stub.GetCatalog, engine_service_pb2.GetCatalogRequest()
        )
        return response.catalog

    @overload
    def create_game(
        self, config: config_pb2.GameConfig, *, sealed: Literal[False] = False, seat: int | None = None
    ) -> GameResult: ...
    @overload
    def create_game(
        self, config: config_pb2.GameConfig, *, sealed: Literal[True], seat: int | None = None
    ) -> SealedGame: ...
    def create_game(
        self, config: config_pb2.GameConfig, *, sealed: bool = False, seat: int | None = None
    ) -> GameResult | SealedGame:
        """Deal a game: its state and the deal's events (``GameStarted``, then each revealed card).

        ``sealed``: a ``SealedGame`` instead (a token, its binding, the view and events of ``seat``,
        a spectator's without one); use an unpredictable seed (64 random bits) for a sealed game.
        """
        request = engine_service_pb2.CreateGameRequest(config=config, sealed=sealed)
        if sealed and seat is not None:
            request.seat = seat
        response: engine_service_pb2.CreateGameResponse = self._call(self._stub.CreateGame, request)
        if sealed:
            return _sealed(response)
        return GameResult(response.state, list(response.events))

    @overload
    def new_game(
        self,
        num_players: int = 2,
        seed: int = 0,
        first_seat: int | None = None,
        modules: Iterable[ModuleLike] = (),
        turn_limit: int = 0,
        *,
        sealed: Literal[False] = False,
        seat: int | None = None,
    ) -> GameResult: ...
    @overload
    def new_game(
        self,
        num_players: int = 2,
        seed: int = 0,
        first_seat: int | None = None,
        modules: Iterable[ModuleLike] = (),
        turn_limit: int = 0,
        *,
        sealed: Literal[True],
        seat: int | None = None,
    ) -> SealedGame: ...
    def new_game(
        self,
        num_players: int = 2,
        seed: int = 0,
        first_seat: int | None = None,
        modules: Iterable[ModuleLike] = (),
        turn_limit: int = 0,
        *,
        sealed: bool = False,
        seat: int | None = None,
    ) -> GameResult | SealedGame:
        """Deal a game from plain arguments (see ``game_config``); ``sealed``/``seat`` as in ``create_game``."""
        config = game_config(num_players, seed, first_seat, modules, turn_limit)
        if sealed:
            return self.create_game(config, sealed=True, seat=seat)
        return self.create_game(config)

    def list_legal_actions(
        self, game: GameLike, *, seat: int | None = None
    ) -> engine_service_pb2.ListLegalActionsResponse:
        """The full ``ListLegalActions`` response: the legal actions and the seat that must act.

        For a sealed game, ``seat`` is the seat asking: the purchases of cards the acting seat
        reserved blind are listed only when it is the acting seat.
        """
        request = _with_game(engine_service_pb2.ListLegalActionsRequest(), game)
        if seat is not None:
            request.seat = seat
        response: engine_service_pb2.ListLegalActionsResponse = self._call(self._stub.ListLegalActions, request)
        return response

    def legal_actions(self, game: GameLike, *, seat: int | None = None) -> list[actions_pb2.LegalAction]:
        """Every legal action of the seat that must act (the pending decision's answers while one is pending)."""
        return list(self.list_legal_actions(game, seat=seat).actions)

    @overload
    def apply(
        self,
        game: state_pb2.GameState,
        action: ActionLike,
        *,
        seat: int | None = None,
        validate_only: bool = False,
        expected_turn: int | None = None,
    ) -> GameResult: ...
    @overload
    def apply(
        self,
        game: bytes | SealedGame,
        action: ActionLike,
        *,
        seat: int | None = None,
        validate_only: bool = False,
        expected_turn: int | None = None,
    ) -> SealedGame: ...
    def apply(
        self,
        game: GameLike,
        action: ActionLike,
        *,
        seat: int | None = None,
        validate_only: bool = False,
        expected_turn: int | None = None,
    ) -> GameResult | SealedGame:
        """Apply an action (an ``Action``, a ``LegalAction`` or an action id) and return the new game.

        ``game``: a plain state (the result holds the new state and every event) or a token or
        ``SealedGame`` (the result is a ``SealedGame``: the new token, and the view and events of
        ``seat``, a spectator's without one).
        ``seat``: the sender, refused with ``NOT_YOUR_TURN`` unless it must act.
        ``validate_only``: only check; the result holds the unchanged game and no events.
        ``expected_turn``: refused with ``STALE_STATE`` unless the game is at that turn.
        Raises ``RuleRejected`` for an illegal move.
        """
        request = _with_game(
            engine_service_pb2.ApplyActionRequest(action=as_action(action), validate_only=validate_only), game
        )
        if seat is not None:
            request.seat = seat
        if expected_turn is not None:
            request.expected_turn = expected_turn
        response: engine_service_pb2.ApplyActionResponse = self._call(self._stub.ApplyAction, request)
        if request.WhichOneof("state_source") == "sealed_state":
            return _sealed(response)
        return GameResult(response.state, list(response.events))

    def view(
        self,
        game: GameLike,
        seat: int | None = None,
        events: Iterable[events_pb2.Event] = (),
    ) -> ViewResult:
        """The game (and ``events``) as ``seat`` may see them; ``seat=None`` for a spectator."""
        request = _with_game(engine_service_pb2.GetPlayerViewRequest(events=list(events)), game)
        if seat is not None:
            request.seat = seat
        response: engine_service_pb2.GetPlayerViewResponse = self._call(self._stub.GetPlayerView, request)
        return ViewResult(response.view, list(response.events))

    @overload
    def replay(
        self,
        config: config_pb2.GameConfig,
        actions: Iterable[ActionLike],
        *,
        sealed: Literal[False] = False,
        seat: int | None = None,
        digests: bool = True,
        events: bool = True,
    ) -> ReplayResult: ...
    @overload
    def replay(
        self,
        config: config_pb2.GameConfig,
        actions: Iterable[ActionLike],
        *,
        sealed: Literal[True],
        seat: int | None = None,
        digests: bool = True,
        events: bool = True,
    ) -> SealedReplay: ...
    def replay(
        self,
        config: config_pb2.GameConfig,
        actions: Iterable[ActionLike],
        *,
        sealed: bool = False,
        seat: int | None = None,
        digests: bool = True,
        events: bool = True,
    ) -> ReplayResult | SealedReplay:
        """Replay an action log from its config: the final state, every event and a digest after each action.

        ``sealed``: the final game as a new token instead (a new game id, ``step`` = the number of
        actions), with the view and events of ``seat`` (a spectator's without one). ``digests=False``
        or ``events=False``: leave those out (a replay costs little more than its moves without both).
        """
        request = engine_service_pb2.ReplayGameRequest(
            config=config,
            actions=[as_action(a) for a in actions],
            sealed=sealed,
            skip_state_digests=not digests,
            skip_events=not events,
        )
        if sealed and seat is not None:
            request.seat = seat
        response: engine_service_pb2.ReplayGameResponse = self._call(self._stub.ReplayGame, request)
        if sealed:
            return SealedReplay(_sealed(response), list(response.state_digests))
        return ReplayResult(response.state, list(response.events), list(response.state_digests))

    def apply_request(self, request: engine_service_pb2.ApplyActionRequest) -> engine_service_pb2.ApplyActionResponse:
        """The full ``ApplyAction`` response to a request of your own (server-side bots, legal actions, observation)."""
        response: engine_service_pb2.ApplyActionResponse = self._call(self._stub.ApplyAction, request)
        return response

    def view_request(
        self, request: engine_service_pb2.GetPlayerViewRequest
    ) -> engine_service_pb2.GetPlayerViewResponse:
        """The full ``GetPlayerView`` response to a request of your own (e.g. with ``include_observation``)."""
        response: engine_service_pb2.GetPlayerViewResponse = self._call(self._stub.GetPlayerView, request)
        return response

    def simulate(self, request: engine_service_pb2.SimulateRequest) -> engine_service_pb2.SimulateResponse:
        """Playouts on the server from a position (see ``SimulateRequest``)."""
        response: engine_service_pb2.SimulateResponse = self._call(self._stub.Simulate, request)
        return response

    def determinize(self, request: engine_service_pb2.DeterminizeRequest) -> engine_service_pb2.DeterminizeResponse:
        """Full states consistent with what one seat sees (see ``DeterminizeRequest``)."""
        response: engine_service_pb2.DeterminizeResponse = self._call(self._stub.Determinize, request)
        return response

    def health(self, service: str = "") -> str:
        """The ``grpc.health.v1`` status of ``service`` (``""``: the whole server): ``"SERVING"``, ``"NOT_SERVING"``...

        Needs the ``grpcio-health-checking`` package, imported only here.
        """
        health_pb2: Any = importlib.import_module("grpc_health.v1.health_pb2")
        health_pb2_grpc: Any = importlib.import_module("grpc_health.v1.health_pb2_grpc")

        stub: Any = health_pb2_grpc.HealthStub(self.channel)
        response: Any = self._call(stub.Check, health_pb2.HealthCheckRequest(service=service))
        return str(health_pb2.HealthCheckResponse.ServingStatus.Name(response.status))

    def _call(self, method: Any, request: Any) -> Any:
        """Run one unary call with the client's deadline and metadata, converting gRPC errors."""
        try:
            return method(request, timeout=self.timeout, metadata=self.metadata or None)
        except grpc.RpcError as error:
            raise from_rpc_error(error) from error


def connect(
    address: str = DEFAULT_ADDRESS,
    timeout: float | None = DEFAULT_TIMEOUT,
    *,
    credentials: grpc.ChannelCredentials | None = None,
    options: Sequence[tuple[str, Any]] = (),
    metadata: Sequence[tuple[str, str]] = (),
) -> EngineClient:
    """A client of the engine at ``address`` (``host:port``), over a plaintext channel unless ``credentials``.

    Connecting is lazy: an unreachable server shows as ``EngineError(UNAVAILABLE)``
    on the first call (or use ``wait_until_ready``). ``timeout`` is each call's deadline.
    """
    if credentials is None:
        channel = grpc.insecure_channel(address, options=list(options))
    else:
        channel = grpc.secure_channel(address, credentials, options=list(options))
    return EngineClient(channel, timeout=timeout, metadata=metadata, owns_channel=True)
