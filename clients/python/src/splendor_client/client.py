"""``EngineClient``: one method per call of the ``splendor.v1.EngineService``, with Python errors.

>>> from splendor_client import connect
>>> with connect("127.0.0.1:50051") as client:
...     game = client.new_game(num_players=2, seed=7)
...     legal = client.legal_actions(game.state)
...     game = client.apply(game.state, legal[0])

The service is stateless: every call takes the game the previous call returned, either
the plain ``GameState`` (a trusted platform's own copy) or a sealed game: a token, dealt
from a seed the server draws, with one key per seat that the ``SealedGame`` keeps and sends:

>>> with connect("127.0.0.1:50051") as client:
...     game = client.new_game(num_players=2, sealed=True, seat=0)  # holds every seat's key
...     seat = game.acting_seat
...     game = client.apply(game, client.legal_actions(game, seat=seat)[0], seat=seat)
...     mine = client.join(game.token, seat=1, seat_key=game.seat_keys[1])  # what a player is handed
...     legal = client.legal_actions(mine)  # looks and acts as seat 1, with seat 1's key

Every failed call raises an ``EngineError`` (see ``splendor_client.errors``).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Literal, Self, overload

import grpc  # type: ignore[import-untyped, unused-ignore]
from splendor.v1 import (
    actions_pb2,
    bots_pb2,
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
from .balancing import ROUTING_KEY_HEADER, channel_options, channel_target
from .errors import EngineError, from_rpc_error, from_status
from .tokens import TokenHeaderError, read_token_header

ModuleLike = str | int
"""A module name (``"cities"``, ``"MODULE_CITIES"``) or a ``Module`` enum value."""

DEFAULT_ADDRESS = "localhost:50051"
DEFAULT_TIMEOUT = 10.0


@dataclass(frozen=True)
class ViewResult:
    """What one seat (or a spectator) may see: the redacted game and the redacted events; in a move's
    ``audience_views``, also the seat's legal actions when it must act next."""

    view: view_pb2.GameView
    events: list[events_pb2.Event] = field(default_factory=list)
    legal_actions: list[actions_pb2.LegalAction] = field(default_factory=list)


Audiences = Mapping[int | None, ViewResult]
"""The game after a move as each audience asked for may see it, by seat (``None``: a spectator)."""


@dataclass(frozen=True)
class GameResult:
    """A game after a call: the new full state and the events that led to it, in order.

    After ``apply``: ``applied``, the action applied with its id (a server bot's choice); and with
    ``audiences``, each audience's view and events in ``audience_views``.
    """

    state: state_pb2.GameState
    events: list[events_pb2.Event] = field(default_factory=list)
    applied: actions_pb2.LegalAction | None = None
    audience_views: Audiences = field(default_factory=dict)

    @property
    def finished(self) -> bool:
        """True once the game has ended."""
        return self.state.end_reason != state_pb2.END_REASON_UNSPECIFIED


@dataclass(frozen=True)
class ReplayResult:
    """A replayed game: the final state, every event, and the state digest after each action."""

    state: state_pb2.GameState
    events: list[events_pb2.Event] = field(default_factory=list)
    state_digests: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class SealedGame:
    """A game held as a sealed token: the token to send back, what it is bound to, what one seat
    (or a spectator) may see, and the seat keys its holder was given. The holder can neither read
    nor alter the state inside the token.

    ``binding.step`` counts the actions applied since the deal: a platform that relays tokens keeps
    the last step it handed out per ``binding.game_id`` and refuses any other (a rewind or a replay).

    ``seat_keys`` maps a seat to its key: every seat's for the game's creator (a platform, a
    hot-seat front end), one for a player (``EngineClient.join``). The client sends the right key
    with each call that names a seat or acts; a handle with one key looks and acts as its seat.

    After ``apply``, also what the response carried: ``applied`` (the action applied with its id: a
    server bot's choice), ``legal_actions`` (with ``include_legal_actions``) and ``audience_views``
    (with ``audiences``: each audience's view and events, by seat, ``None`` for a spectator).
    """

    token: bytes
    binding: sealing_pb2.SealedStateBinding
    view: view_pb2.GameView
    events: list[events_pb2.Event] = field(default_factory=list)
    seat_keys: Mapping[int, str] = field(default_factory=dict)
    applied: actions_pb2.LegalAction | None = None
    legal_actions: list[actions_pb2.LegalAction] = field(default_factory=list)
    audience_views: Audiences = field(default_factory=dict)

    @property
    def finished(self) -> bool:
        """True once the game has ended."""
        return self.view.end_reason != state_pb2.END_REASON_UNSPECIFIED

    @property
    def acting_seat(self) -> int | None:
        """The seat that must act (the pending decision's seat, else the seat whose turn it is); None once over."""
        if self.finished:
            return None
        return self.view.pending_decision.seat if self.view.HasField("pending_decision") else self.view.seat

    @property
    def own_seat(self) -> int | None:
        """The seat of a one-key handle (a player's), which calls name by default; ``None`` otherwise."""
        return next(iter(self.seat_keys)) if len(self.seat_keys) == 1 else None


@dataclass(frozen=True)
class SealedReplay:
    """A replayed game as a new token (a new game id, ``step`` = the number of actions), and the digests."""

    game: SealedGame
    state_digests: list[str] = field(default_factory=list)


GameLike = state_pb2.GameState | bytes | SealedGame
"""A game to send: a plain state, a token, or the ``SealedGame`` holding one (and its seat keys)."""

MoveLike = ActionLike | bots_pb2.BotChoice
"""An action to apply, or a server-side bot (``BotChoice``, see ``server_bot``) to choose it."""


def _with_game(request: Any, game: GameLike, seat: int | None, seat_key: str | None) -> Any:
    """Put ``game`` in the request's ``state_source``, and ``seat`` and its key (see ``_key_for``)."""
    if isinstance(game, SealedGame):
        request.sealed_state = game.token
    elif isinstance(game, bytes):
        request.sealed_state = game
    else:
        request.state.CopyFrom(game)
    if seat is not None:
        request.seat = seat
    key = _key_for(game, seat, seat_key)
    if key:
        request.seat_key = key
    return request


def _seat_for(game: GameLike, seat: int | None) -> int | None:
    """The seat a call names: the caller's, else a one-key handle's own seat."""
    if seat is None and isinstance(game, SealedGame):
        return game.own_seat
    return seat


def _key_for(game: GameLike, seat: int | None, seat_key: str | None) -> str:
    """The key a sealed call sends: the caller's, else the handle's key of ``seat`` ("" when it has none)."""
    if seat_key is not None:
        return seat_key
    if isinstance(game, SealedGame) and seat is not None:
        return game.seat_keys.get(seat, "")
    return ""


def _sealed(response: Any, seat_keys: Mapping[int, str]) -> SealedGame:
    """The sealed game a response hands out, with all it carries beside the token."""
    moved = isinstance(response, engine_service_pb2.ApplyActionResponse)
    return SealedGame(
        response.sealed_state,
        response.sealed_state_binding,
        response.view,
        list(response.events),
        seat_keys,
        applied=response.applied if moved and response.HasField("applied") else None,
        legal_actions=list(response.legal_actions) if moved else [],
        audience_views=_audience_views(response) if moved else {},
    )


def _audience_views(response: engine_service_pb2.ApplyActionResponse) -> dict[int | None, ViewResult]:
    return {
        (out.seat if out.HasField("seat") else None): ViewResult(out.view, list(out.events), list(out.legal_actions))
        for out in response.audience_views
    }


def _audiences(game: GameLike, audiences: Iterable[int | None] | Literal["all"]) -> list[engine_service_pb2.Audience]:
    """The request's audiences, each seat's with the key the handle holds for it."""
    if audiences == "all":
        count = game.view.num_players if isinstance(game, SealedGame) else len(getattr(game, "players", ()))
        audiences = [*range(count), None]
    out = []
    for seat in audiences:
        if seat is None:
            out.append(engine_service_pb2.Audience())
        else:
            out.append(engine_service_pb2.Audience(seat=seat, seat_key=_key_for(game, seat, None)))
    return out


def _keys_of(response: Any) -> dict[int, str]:
    """The seat keys a CreateGame or ReplayGame response hands out, by seat."""
    return dict(enumerate(str(key) for key in response.seat_keys))


def server_bot(spec: str, seed: int = 0) -> bots_pb2.BotChoice:
    """The server-side bot ``spec`` names: a policy of the server (``EngineClient.bot_policies``: ``random``,
    ``greedy``, ``ismcts`` on this engine), with ``:<iterations>`` for a search policy (``ismcts:300``).

    Pass it to ``EngineClient.apply`` instead of an action: the server's policy chooses the acting
    seat's move from what that seat may see. Raises ``ValueError`` for a malformed spec (the server
    refuses unknown policies and iterations above its bound with ``InvalidRequest``).
    """
    policy, colon, argument = spec.strip().partition(":")
    if not policy or (colon and not (argument.isdigit() and int(argument) > 0)):
        raise ValueError(f"bad bot {spec!r}: use a policy name, or <search policy>:<iterations> with a positive number")
    return bots_pb2.BotChoice(policy=policy, seed=seed, iterations=int(argument or 0))


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

    def bot_policies(self) -> list[str]:
        """The server-side bot policies this server plays (``server_bot``), weakest first: its catalog's list."""
        return list(self.get_catalog().bot_policies)

    @overload
    def create_game(
        self, config: config_pb2.GameConfig, *, sealed: Literal[False] = False, seat: int | None = None
    ) -> GameResult: ...
    @overload
    def create_game(
        self,
        config: config_pb2.GameConfig,
        *,
        sealed: Literal[True],
        seat: int | None = None,
        public_deal: bool = False,
        expires_in_seconds: int = 0,
    ) -> SealedGame: ...
    def create_game(
        self,
        config: config_pb2.GameConfig,
        *,
        sealed: bool = False,
        seat: int | None = None,
        public_deal: bool = False,
        expires_in_seconds: int = 0,
    ) -> GameResult | SealedGame:
        """Deal a game: its state and the deal's events (``GameStarted``, then each revealed card).

        ``sealed``: a ``SealedGame`` instead (a token, its binding, the view and events of ``seat``,
        a spectator's without one, and every seat's key). The server draws a sealed game's seed and
        never reveals it before the end: leave ``config.seed`` 0 (else ``InvalidRequest``,
        ``SEED_NOT_ALLOWED``) unless ``public_deal``, which deals from ``config.seed`` as given,
        so that whoever knows it knows every deck order (tests, replays of known deals).
        ``expires_in_seconds``: a sealed game's tokens are refused (``SEALED_STATE_EXPIRED``) that long
        after the deal (``binding.expires_at``); 0, never.
        """
        request = engine_service_pb2.CreateGameRequest(config=config, sealed=sealed)
        if sealed and seat is not None:
            request.seat = seat
        if sealed and public_deal:
            request.public_deal = True
        if sealed and expires_in_seconds:
            request.expires_in_seconds = expires_in_seconds
        response: engine_service_pb2.CreateGameResponse = self._call(self._stub.CreateGame, request)
        if sealed:
            return _sealed(response, _keys_of(response))
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
        public_deal: bool = False,
        expires_in_seconds: int = 0,
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
        public_deal: bool = False,
        expires_in_seconds: int = 0,
    ) -> GameResult | SealedGame:
        """Deal a game from plain arguments (see ``game_config``); ``sealed``, ``seat``, ``public_deal`` and
        ``expires_in_seconds`` as in ``create_game`` (a sealed game takes a ``seed`` only with ``public_deal=True``)."""
        config = game_config(num_players, seed, first_seat, modules, turn_limit)
        if sealed:
            return self.create_game(
                config, sealed=True, seat=seat, public_deal=public_deal, expires_in_seconds=expires_in_seconds
            )
        return self.create_game(config)

    def join(self, game: bytes | SealedGame, *, seat: int, seat_key: str | None = None) -> SealedGame:
        """One player's handle on a sealed game: the token and ``seat``'s key only, with that seat's view.

        What a platform hands a player is a token and one key: ``join(token, seat=1, seat_key=key)``.
        From a ``SealedGame`` holding every key, ``join(game, seat=1)`` keeps only seat 1's (and the
        binding; a bare token's is read from its header). The handle's calls name its seat by default.
        Raises ``PermissionDenied`` when the key is not that seat's.
        """
        key = _key_for(game, seat, seat_key)
        request = _with_game(engine_service_pb2.GetPlayerViewRequest(), game, seat, key)
        response: engine_service_pb2.GetPlayerViewResponse = self._call(self._stub.GetPlayerView, request, game)
        # The engine opened the token: its header reads.
        binding = game.binding if isinstance(game, SealedGame) else read_token_header(game).binding
        token = game.token if isinstance(game, SealedGame) else game
        return SealedGame(token, binding, response.view, [], {seat: key})

    def list_legal_actions(
        self, game: GameLike, *, seat: int | None = None, seat_key: str | None = None
    ) -> engine_service_pb2.ListLegalActionsResponse:
        """The full ``ListLegalActions`` response: the legal actions and the seat that must act (``acting_seat``).

        For a sealed game, ``seat`` is the seat asking (a one-key handle's own by default), with its
        key: a seat that is not acting is listed no actions; without a seat (a spectator) the acting
        seat's are listed but the purchases of cards it reserved blind. ``seat_key`` overrides the key
        a ``SealedGame`` holds (or gives one for a token).
        """
        seat = _seat_for(game, seat)
        request = _with_game(engine_service_pb2.ListLegalActionsRequest(), game, seat, seat_key)
        response: engine_service_pb2.ListLegalActionsResponse = self._call(self._stub.ListLegalActions, request, game)
        return response

    def legal_actions(
        self, game: GameLike, *, seat: int | None = None, seat_key: str | None = None
    ) -> list[actions_pb2.LegalAction]:
        """Every legal action of the seat that must act (the pending decision's answers while one is pending)."""
        return list(self.list_legal_actions(game, seat=seat, seat_key=seat_key).actions)

    @overload
    def apply(
        self,
        game: state_pb2.GameState,
        action: MoveLike,
        *,
        seat: int | None = None,
        validate_only: bool = False,
        expected_turn: int | None = None,
        seat_key: str | None = None,
        expected_step: int | None = None,
        audiences: Iterable[int | None] | Literal["all"] = (),
    ) -> GameResult: ...
    @overload
    def apply(
        self,
        game: bytes | SealedGame,
        action: MoveLike,
        *,
        seat: int | None = None,
        validate_only: bool = False,
        expected_turn: int | None = None,
        seat_key: str | None = None,
        expected_step: int | None = None,
        audiences: Iterable[int | None] | Literal["all"] = (),
    ) -> SealedGame: ...
    def apply(
        self,
        game: GameLike,
        action: MoveLike,
        *,
        seat: int | None = None,
        validate_only: bool = False,
        expected_turn: int | None = None,
        seat_key: str | None = None,
        expected_step: int | None = None,
        audiences: Iterable[int | None] | Literal["all"] = (),
    ) -> GameResult | SealedGame:
        """Apply an action (an ``Action``, a ``LegalAction`` or an action id) and return the new game.

        ``action`` may also be a ``BotChoice`` (``server_bot("ismcts:200")``): the server's policy
        chooses the acting seat's move.
        ``game``: a plain state (the result holds the new state and every event) or a token or
        ``SealedGame`` (the result is a ``SealedGame``: the new token, and the view and events of
        ``seat``, a spectator's without one).
        ``seat``: the sender, refused with ``NOT_YOUR_TURN`` unless it must act (a one-key handle's
        own seat by default). A sealed call sends the key of ``seat``, or without one of the seat
        that must act (it acts as that seat); ``seat_key`` overrides it.
        ``validate_only``: only check; the result holds the unchanged game and no events.
        ``expected_turn``: refused with ``STALE_STATE`` unless the game is at that turn.
        ``expected_step``: for a sealed game, refused with ``STEP_MISMATCH`` unless the token is at that
        step (``binding.step``): a platform sends the step of the newest token it handed out, so rewinds
        and the loser of two concurrent moves are refused.
        ``audiences``: seats (``None``: a spectator), or ``"all"`` for every seat and a spectator, whose
        view and events after the move the result carries in ``audience_views``, each as ``view`` would
        give it (a sealed handle sends each seat's key it holds).
        Raises ``RuleRejected`` for an illegal move, ``PermissionDenied`` without the right key.
        """
        request = engine_service_pb2.ApplyActionRequest(validate_only=validate_only)
        if isinstance(action, bots_pb2.BotChoice):
            request.bot.CopyFrom(action)
        else:
            request.action.CopyFrom(as_action(action))
        seat = _seat_for(game, seat)
        acting = seat if seat is not None or not isinstance(game, SealedGame) else game.acting_seat
        _with_game(request, game, seat, _key_for(game, acting, seat_key))
        if expected_turn is not None:
            request.expected_turn = expected_turn
        if expected_step is not None:
            request.expected_step = expected_step
        request.audiences.extend(_audiences(game, audiences))
        response: engine_service_pb2.ApplyActionResponse = self._call(self._stub.ApplyAction, request, game)
        if isinstance(game, SealedGame):
            return _sealed(response, game.seat_keys)
        if isinstance(game, bytes):
            return _sealed(response, {})
        applied = response.applied if response.HasField("applied") else None
        return GameResult(response.state, list(response.events), applied, _audience_views(response))

    def view(
        self,
        game: GameLike,
        seat: int | None = None,
        events: Iterable[events_pb2.Event] = (),
        *,
        seat_key: str | None = None,
    ) -> ViewResult:
        """The game (and ``events``) as ``seat`` may see them; ``seat=None`` for a spectator (a one-key handle
        sees as its own seat: pass its ``token`` for a spectator's view). A sealed call sends ``seat``'s key."""
        seat = _seat_for(game, seat)
        request = _with_game(engine_service_pb2.GetPlayerViewRequest(events=list(events)), game, seat, seat_key)
        response: engine_service_pb2.GetPlayerViewResponse = self._call(self._stub.GetPlayerView, request, game)
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
        expires_in_seconds: int = 0,
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
        expires_in_seconds: int = 0,
    ) -> ReplayResult | SealedReplay:
        """Replay an action log from its config: the final state, every event and a digest after each action.

        ``sealed``: the final game as a new token instead (a new game id, ``step`` = the number of
        actions, ``public_deal`` set: the deal came from ``config.seed``), with the view and events of
        ``seat`` (a spectator's without one) and every seat's new key, its tokens expiring after
        ``expires_in_seconds`` (0: never). ``digests=False`` or ``events=False``: leave those out (a
        replay costs little more than its moves without both).
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
        if sealed and expires_in_seconds:
            request.expires_in_seconds = expires_in_seconds
        response: engine_service_pb2.ReplayGameResponse = self._call(self._stub.ReplayGame, request)
        if sealed:
            return SealedReplay(_sealed(response, _keys_of(response)), list(response.state_digests))
        return ReplayResult(response.state, list(response.events), list(response.state_digests))

    def apply_request(self, request: engine_service_pb2.ApplyActionRequest) -> engine_service_pb2.ApplyActionResponse:
        """The full ``ApplyAction`` response to a request of your own (server-side bots, legal actions, observation).

        A sealed request carries its seat's key itself (``seat_key``: ``SealedGame.seat_keys[seat]``).
        """
        response: engine_service_pb2.ApplyActionResponse = self._call(self._stub.ApplyAction, request)
        return response

    def apply_batch(
        self, requests: Iterable[engine_service_pb2.ApplyActionRequest]
    ) -> list[engine_service_pb2.ApplyActionResponse | EngineError]:
        """Many independent ``ApplyAction`` requests in one call (``BatchApplyActions``): for each, in order, its
        response, or the ``EngineError`` its ``ApplyAction`` would have raised (returned, not raised: one refused
        item never fails the others).

        Raises ``EngineError`` only when the call itself fails: ``BatchTooLarge`` beyond the catalog's
        ``limits.max_batch_items``, ``ResponseTooLarge`` for an answer over ``limits.max_response_bytes``, a busy or
        unreachable server. Each request is copied into the batch; ``batch_request`` takes a batch built in place.
        """
        batch = engine_service_pb2.BatchApplyActionsRequest()
        batch.requests.extend(requests)
        return [outcome(result) for result in self.batch_request(batch).results]

    def batch_request(
        self, request: engine_service_pb2.BatchApplyActionsRequest
    ) -> engine_service_pb2.BatchApplyActionsResponse:
        """The full ``BatchApplyActions`` response to a batch of your own: one result per item, its ``response``
        or its ``error`` (a ``google.rpc.Status``; ``outcome`` reads either)."""
        response: engine_service_pb2.BatchApplyActionsResponse = self._call(self._stub.BatchApplyActions, request)
        return response

    def view_request(
        self, request: engine_service_pb2.GetPlayerViewRequest
    ) -> engine_service_pb2.GetPlayerViewResponse:
        """The full ``GetPlayerView`` response to a request of your own (e.g. with ``include_observation``);
        a sealed request naming a seat carries that seat's key itself (``seat_key``)."""
        response: engine_service_pb2.GetPlayerViewResponse = self._call(self._stub.GetPlayerView, request)
        return response

    def simulate(self, request: engine_service_pb2.SimulateRequest) -> engine_service_pb2.SimulateResponse:
        """Playouts on the server from a position (see ``SimulateRequest``); sealed, with ``seat_key`` of its seat."""
        response: engine_service_pb2.SimulateResponse = self._call(self._stub.Simulate, request)
        return response

    def determinize(self, request: engine_service_pb2.DeterminizeRequest) -> engine_service_pb2.DeterminizeResponse:
        """Full states consistent with what one seat sees (see ``DeterminizeRequest``); sealed, with ``seat_key``."""
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

    def _call(self, method: Any, request: Any, game: GameLike | None = None) -> Any:
        """Run one unary call with the client's deadline and metadata, converting gRPC errors.

        A call about a sealed game carries its id as the routing key (``splendor-game-id``), which a
        proxy may hash on to send a game's calls to one replica."""
        metadata = self.metadata
        game_id = _game_id(game)
        if game_id:
            metadata = (*metadata, (ROUTING_KEY_HEADER, game_id))
        try:
            return method(request, timeout=self.timeout, metadata=metadata or None)
        except grpc.RpcError as error:
            raise from_rpc_error(error) from error


def outcome(
    result: engine_service_pb2.BatchApplyActionsResult,
) -> engine_service_pb2.ApplyActionResponse | EngineError:
    """A batch item's response, or the ``EngineError`` for its refusal."""
    if result.HasField("error"):
        return from_status(result.error)
    return result.response


def _game_id(game: GameLike | None) -> str:
    """A sealed game's id, from its binding or its token's header ("" for a plain state or no game)."""
    if isinstance(game, SealedGame) and game.binding.game_id:
        return str(game.binding.game_id)
    token = game.token if isinstance(game, SealedGame) else game
    if isinstance(token, bytes):
        try:
            return str(read_token_header(token).binding.game_id)
        except TokenHeaderError:  # not a token: the engine refuses it, wherever it lands
            return ""
    return ""


def connect(
    address: str | Sequence[str] = DEFAULT_ADDRESS,
    timeout: float | None = DEFAULT_TIMEOUT,
    *,
    credentials: grpc.ChannelCredentials | None = None,
    options: Sequence[tuple[str, Any]] = (),
    metadata: Sequence[tuple[str, str]] = (),
) -> EngineClient:
    """A client of the engine at ``address`` (``host:port``), over a plaintext channel unless ``credentials``.

    ``address`` may also be a list of replicas (``["10.0.0.1:50051", "10.0.0.2:50051"]``) or a DNS name
    resolving to several (``dns:///engine-headless:50051``): calls go round robin over them. Either way
    a call that fails with ``UNAVAILABLE`` is retried, up to 4 times, on the next replica
    (``splendor_client.balancing``: why that is safe); options with a ``grpc.service_config`` of their own
    replace that policy. Connecting is lazy: an unreachable server shows as ``EngineError(UNAVAILABLE)``
    on the first call (or use ``wait_until_ready``). ``timeout`` is each call's deadline, retries included.
    """
    target, channel_args = channel_target(address), channel_options(options)
    if credentials is None:
        channel = grpc.insecure_channel(target, options=channel_args)
    else:
        channel = grpc.secure_channel(target, credentials, options=channel_args)
    return EngineClient(channel, timeout=timeout, metadata=metadata, owns_channel=True)
