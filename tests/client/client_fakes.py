"""Stand-ins for gRPC and the engine, so the client tests need no server."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import grpc
from google.rpc import error_details_pb2, status_pb2
from splendor.v1 import (
    actions_pb2,
    catalog_pb2,
    common_pb2,
    engine_service_pb2,
    events_pb2,
    state_pb2,
    trading_posts_pb2,
    view_pb2,
)
from splendor_client import GameResult, ViewResult
from splendor_client import actions as act
from splendor_client.colors import color_name


class FakeRpcError(grpc.RpcError):
    """What a failed unary call raises: a ``grpc.RpcError`` that is also a ``grpc.Call``."""

    def __init__(self, code: grpc.StatusCode, message: str, trailing: Iterable[tuple[str, Any]] | None = ()) -> None:
        super().__init__(message)
        self._code = code
        self._message = message
        self._trailing = None if trailing is None else tuple(trailing)

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._message

    def trailing_metadata(self) -> tuple[tuple[str, Any], ...] | None:
        return self._trailing


def rich_status(
    code: grpc.StatusCode,
    message: str,
    *,
    reason: str = "",
    metadata: dict[str, str] | None = None,
    violations: Iterable[tuple[str, str]] = (),
    domain: str = "splendor.v1",
) -> status_pb2.Status:
    """A ``google.rpc.Status`` as the engine sends it: ErrorInfo, then BadRequest if any field is at fault."""
    status = status_pb2.Status(code=code.value[0], message=message)
    if reason:
        status.details.add().Pack(error_details_pb2.ErrorInfo(reason=reason, domain=domain, metadata=metadata or {}))
    violations = list(violations)
    if violations:
        bad_request = error_details_pb2.BadRequest(
            field_violations=[
                error_details_pb2.BadRequest.FieldViolation(field=field, description=description)
                for field, description in violations
            ]
        )
        status.details.add().Pack(bad_request)
    return status


def rich_error(code: grpc.StatusCode, message: str, **kwargs: Any) -> FakeRpcError:
    """A ``FakeRpcError`` carrying a rich status in its trailing metadata."""
    status = rich_status(code, message, **kwargs)
    return FakeRpcError(code, message, (("grpc-status-details-bin", status.SerializeToString()),))


class FakeChannel:
    """A channel whose unary calls go to Python handlers: ``handlers["/pkg.Service/Method"](request)``."""

    def __init__(self, handlers: dict[str, Callable[[Any], Any]] | None = None) -> None:
        self.handlers = dict(handlers or {})
        self.calls: list[tuple[str, Any, dict[str, Any]]] = []
        self.closed = False

    def unary_unary(self, method: str, request_serializer: Any = None, response_deserializer: Any = None, **_: Any):
        def call(request: Any, timeout: float | None = None, metadata: Any = None, **kwargs: Any) -> Any:
            # Round-trip through bytes like the wire does, so the messages must really serialize.
            wire_request = type(request).FromString(request_serializer(request))
            self.calls.append((method, wire_request, {"timeout": timeout, "metadata": metadata, **kwargs}))
            handler = self.handlers.get(method)
            if handler is None:
                raise FakeRpcError(grpc.StatusCode.UNIMPLEMENTED, f"no handler for {method}")
            response = handler(wire_request)
            return response_deserializer(response.SerializeToString())

        return call

    def unary_stream(self, method: str, *args: Any, **kwargs: Any) -> Callable[..., Any]:
        def call(*call_args: Any, **call_kwargs: Any) -> Any:
            raise FakeRpcError(grpc.StatusCode.UNIMPLEMENTED, f"no streaming in the fake ({method})")

        return call

    def close(self) -> None:
        self.closed = True


def card(card_id: int, level: int, bonus: str, points: int, **cost: int) -> catalog_pb2.CardInfo:
    return catalog_pb2.CardInfo(
        id=card_id, level=level, deck=level - 1, bonus=act.take_two(bonus).take_two_gems.color, points=points,
        cost=common_pb2.GemCounts(**cost),
    )  # fmt: skip


def orient_card(
    card_id: int, level: int, kind: str, bonus: str | None, points: int, *, sacrifice: str | None = None
) -> catalog_pb2.CardInfo:
    """An Orient card as the catalog lists it (``kind`` without its ``CARD_KIND_`` prefix)."""
    value = catalog_pb2.CardKind.Value(f"CARD_KIND_{kind.upper()}")
    info = catalog_pb2.CardInfo(id=card_id, level=level, deck=level + 2, kind=value, points=points)
    if bonus is not None:
        info.bonus = act.take_two(bonus).take_two_gems.color
        info.bonus_count = 2 if kind == "double_bonus" else 1
    if sacrifice is not None:
        info.sacrifice_color = act.take_two(sacrifice).take_two_gems.color
        info.sacrifice_count = 2
    return info


def sample_catalog() -> catalog_pb2.Catalog:
    """A few cards, nobles and trading posts, enough to name what the tests mention."""
    power = trading_posts_pb2.TradingPostPower
    return catalog_pb2.Catalog(
        cards=[
            card(12, 1, "white", 0, red=2, black=1),
            card(13, 1, "blue", 1, green=4),
            card(14, 1, "green", 0, white=1, blue=1),
            card(45, 2, "black", 1, white=3, blue=2, green=2),
            card(57, 2, "red", 2, blue=4, green=1),
            card(80, 3, "white", 4, black=7),
            orient_card(90, 1, "gold_x2", None, 0),
            orient_card(95, 1, "paired", None, 0),
            orient_card(100, 2, "paired_take_level1", None, 0),
            orient_card(102, 2, "double_bonus", "white", 0),
            orient_card(107, 2, "reserve_noble", "white", 1),
            orient_card(110, 3, "take_level2", "white", 0),
            orient_card(115, 3, "sacrifice", "white", 3, sacrifice="black"),
        ],
        nobles=[
            catalog_pb2.NobleInfo(id=3, points=3, requirement=common_pb2.GemCounts(green=4, red=4)),
            catalog_pb2.NobleInfo(id=5, points=3, requirement=common_pb2.GemCounts(white=3, blue=3, black=3)),
        ],
        action_id_count=370,
        trading_posts=[
            trading_posts_pb2.TradingPostInfo(id=0, power=power.TRADING_POST_POWER_GEM_AFTER_PURCHASE),
            trading_posts_pb2.TradingPostInfo(id=3, power=power.TRADING_POST_POWER_FIVE_PRESTIGE, nobles_required=1),
            trading_posts_pb2.TradingPostInfo(id=4, power=power.TRADING_POST_POWER_PRESTIGE_PER_SHIELD),
        ],
    )


class ScriptedEngine:
    """An ``EngineClient`` stand-in playing a tiny game: seats alternate taking gems; turn 4 ends it."""

    def __init__(self, end_after: int = 4) -> None:
        self.end_after = end_after
        self.applied: list[tuple[actions_pb2.Action, int | None, int | None]] = []
        self.closed = False

    def __enter__(self) -> ScriptedEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.closed = True

    def get_catalog(self) -> catalog_pb2.Catalog:
        return sample_catalog()

    def new_game(self, num_players: int = 2, seed: int = 0, **_: Any) -> GameResult:
        state = state_pb2.GameState(
            seat=0,
            players=[state_pb2.PlayerState() for _ in range(num_players)],
            market=[state_pb2.MarketRow(slots=[state_pb2.MarketSlot(card_id=12)])],
        )
        state.config.num_players = num_players
        state.config.seed = seed
        events = [
            events_pb2.Event(game_started=events_pb2.GameStarted(first_seat=0, num_players=num_players)),
            events_pb2.Event(card_revealed=events_pb2.CardRevealed(deck=0, slot=0, card_id=12)),
        ]
        return GameResult(state, events)

    def list_legal_actions(
        self, state: state_pb2.GameState, *, seat: int | None = None
    ) -> engine_service_pb2.ListLegalActionsResponse:
        if state.end_reason:
            return engine_service_pb2.ListLegalActionsResponse()
        legal = [
            actions_pb2.LegalAction(action_id=0, action=act.take_gems("white", "blue", "green")),
            actions_pb2.LegalAction(action_id=25, action=act.take_two("red")),
        ]
        return engine_service_pb2.ListLegalActionsResponse(actions=legal, seat=state.seat)

    def view(self, state: state_pb2.GameState, seat: int | None = None, events: Any = ()) -> ViewResult:
        view = view_pb2.GameView(
            num_players=len(state.players),
            seat=state.seat,
            players=state.players,
            turn=state.turn,
            round=state.round,
            end_reason=state.end_reason,
            ranking=state.ranking,
            winners=state.winners,
        )
        view.market.extend(state.market)
        if seat is not None:
            view.viewer_seat = seat
        return ViewResult(view, list(events))

    def apply(self, state: state_pb2.GameState, action: Any, *, seat: int | None = None, **kwargs: Any) -> GameResult:
        message = act.as_action(action)
        self.applied.append((message, seat, kwargs.get("expected_turn")))
        new = state_pb2.GameState()
        new.CopyFrom(state)
        players = len(state.players)
        events = []
        if message.WhichOneof("kind") == "take_gems":
            taken = common_pb2.TokenCounts(**{color_name(value): 1 for value in message.take_gems.colors})
        else:
            taken = common_pb2.TokenCounts(red=2)
        events.append(events_pb2.Event(gems_taken=events_pb2.GemsTaken(seat=state.seat, tokens=taken)))
        new.turn = state.turn + 1
        new.round = new.turn // players
        new.seat = new.turn % players
        events.append(
            events_pb2.Event(turn_ended=events_pb2.TurnEnded(seat=state.seat, next_seat=new.seat, turn=new.turn))
        )
        if new.turn >= self.end_after:
            new.end_reason = state_pb2.END_REASON_FINAL_ROUND_COMPLETED
            ranking = [
                state_pb2.Standing(seat=0, place=1, prestige=15, purchased_cards=9),
                state_pb2.Standing(seat=1, place=2, prestige=7, purchased_cards=6),
            ]
            new.ranking.extend(ranking)
            new.winners.append(0)
            events.append(
                events_pb2.Event(game_ended=events_pb2.GameEnded(reason=new.end_reason, ranking=ranking, winners=[0]))
            )
        return GameResult(new, events)
