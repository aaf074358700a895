"""Seat keys in the Python client (over a fake channel): kept from CreateGame and ReplayGame, sent with
the call that names a seat or acts, one-seat handles, server-drawn deals, server bots, PERMISSION_DENIED."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import grpc
import pytest
from splendor.v1 import (
    bots_pb2,
    engine_service_pb2,
    sealing_pb2,
    state_pb2,
    view_pb2,
)
from splendor_client import EngineClient, PermissionDenied, SealedGame, actions, game_config, server_bot

from tests.client.client_fakes import FakeChannel, rich_error

SERVICE = "/splendor.v1.EngineService/"
KEYS = ["key-of-seat-0", "key-of-seat-1", "key-of-seat-2"]
BINDING = sealing_pb2.SealedStateBinding(game_id="ab" * 16, turn=0, step=0, acting_seat=1)
# A version-3 header for BINDING (key id "k"), then a nonce and 48 bytes: all the client reads of a token.
TOKEN = bytes((3, 1)) + b"k" + bytes.fromhex(BINDING.game_id) + bytes(12) + bytes((0, 1)) + bytes(8) + bytes(60)


def client_with(handlers: dict[str, Callable[[Any], Any]]) -> tuple[EngineClient, FakeChannel]:
    channel = FakeChannel({SERVICE + name: handler for name, handler in handlers.items()})
    return EngineClient(channel), channel


def view_of(request: Any, *, seat_to_play: int = 1) -> view_pb2.GameView:
    """A view as the request's seat (or a spectator) sees a game where ``seat_to_play`` must act."""
    view = view_pb2.GameView(num_players=3, seat=seat_to_play)
    if request.HasField("seat"):
        view.viewer_seat = request.seat
    return view


def create(request: engine_service_pb2.CreateGameRequest) -> engine_service_pb2.CreateGameResponse:
    return engine_service_pb2.CreateGameResponse(
        sealed_state=TOKEN, sealed_state_binding=BINDING, view=view_of(request), seat_keys=KEYS
    )


def apply(request: engine_service_pb2.ApplyActionRequest) -> engine_service_pb2.ApplyActionResponse:
    binding = sealing_pb2.SealedStateBinding(game_id=BINDING.game_id, turn=1, step=1)
    return engine_service_pb2.ApplyActionResponse(
        sealed_state=request.sealed_state + b"+", sealed_state_binding=binding, view=view_of(request, seat_to_play=2)
    )


def look(request: engine_service_pb2.GetPlayerViewRequest) -> engine_service_pb2.GetPlayerViewResponse:
    return engine_service_pb2.GetPlayerViewResponse(view=view_of(request))


def legal(request: engine_service_pb2.ListLegalActionsRequest) -> engine_service_pb2.ListLegalActionsResponse:
    return engine_service_pb2.ListLegalActionsResponse(seat=1)


HANDLERS = {"CreateGame": create, "ApplyAction": apply, "GetPlayerView": look, "ListLegalActions": legal}


def sent(channel: FakeChannel) -> Any:
    """The last request the client sent."""
    return channel.calls[-1][1]


def test_a_sealed_game_keeps_every_seat_key_by_seat_and_sends_no_seed() -> None:
    client, channel = client_with(HANDLERS)
    game = client.new_game(num_players=3, sealed=True, seat=0)
    assert game.seat_keys == {0: KEYS[0], 1: KEYS[1], 2: KEYS[2]}
    assert game.own_seat is None  # every key: a creator's handle names no seat by itself
    request = sent(channel)
    assert request.sealed and request.config.seed == 0 and not request.public_deal


def test_a_public_deal_is_sent_only_when_asked_for() -> None:
    client, channel = client_with(HANDLERS)
    client.new_game(num_players=3, seed=42, sealed=True, public_deal=True)
    request = sent(channel)
    assert request.public_deal and request.config.seed == 42
    client.create_game(game_config(3), public_deal=False, sealed=True)
    assert not sent(channel).public_deal


def test_public_deal_is_not_sent_for_a_plain_game() -> None:
    client, channel = client_with(
        {"CreateGame": lambda request: engine_service_pb2.CreateGameResponse(state=state_pb2.GameState(turn=0))}
    )
    client.create_game(game_config(2, seed=5))
    assert not sent(channel).public_deal and not sent(channel).sealed


def test_a_call_naming_a_seat_sends_that_seats_key() -> None:
    client, channel = client_with(HANDLERS)
    game = client.new_game(num_players=3, sealed=True)
    client.legal_actions(game, seat=2)
    assert sent(channel).seat == 2 and sent(channel).seat_key == KEYS[2]
    client.view(game, seat=0)
    assert sent(channel).seat == 0 and sent(channel).seat_key == KEYS[0]
    client.apply(game, actions.pass_turn(), seat=1)
    assert sent(channel).seat == 1 and sent(channel).seat_key == KEYS[1]


def test_acting_without_a_seat_sends_the_acting_seats_key_and_looking_sends_none() -> None:
    client, channel = client_with(HANDLERS)
    game = client.new_game(num_players=3, sealed=True)
    assert game.acting_seat == 1
    client.apply(game, actions.pass_turn())
    assert not sent(channel).HasField("seat") and sent(channel).seat_key == KEYS[1]
    client.view(game)
    assert not sent(channel).HasField("seat") and sent(channel).seat_key == ""
    client.legal_actions(game)
    assert not sent(channel).HasField("seat") and sent(channel).seat_key == ""


def test_the_keys_travel_with_the_game_from_call_to_call() -> None:
    client, channel = client_with(HANDLERS)
    game = client.new_game(num_players=3, sealed=True)
    after = client.apply(game, actions.pass_turn(), seat=1)
    assert after.token == TOKEN + b"+" and after.binding.step == 1 and after.seat_keys == game.seat_keys
    client.apply(after, actions.pass_turn())  # seat 2 must act now
    assert sent(channel).seat_key == KEYS[2]


def test_a_given_seat_key_overrides_the_one_held_and_a_bare_token_sends_only_a_given_key() -> None:
    client, channel = client_with(HANDLERS)
    game = client.new_game(num_players=3, sealed=True)
    client.view(game, seat=1, seat_key="another")
    assert sent(channel).seat_key == "another"
    client.apply(game.token, actions.pass_turn(), seat=1)
    assert sent(channel).seat_key == "" and sent(channel).sealed_state == TOKEN
    result = client.apply(game.token, actions.pass_turn(), seat=1, seat_key=KEYS[1])
    assert sent(channel).seat_key == KEYS[1] and isinstance(result, SealedGame) and result.seat_keys == {}


def test_a_plain_state_sends_no_key() -> None:
    client, channel = client_with(
        {"ApplyAction": lambda request: engine_service_pb2.ApplyActionResponse(state=request.state)}
    )
    client.apply(state_pb2.GameState(turn=3), actions.pass_turn(), seat=0)
    assert sent(channel).seat == 0 and sent(channel).seat_key == ""


def test_join_makes_a_one_seat_handle_from_a_token_and_one_key() -> None:
    client, channel = client_with(HANDLERS)
    mine = client.join(TOKEN, seat=2, seat_key=KEYS[2])
    request = sent(channel)
    assert request.sealed_state == TOKEN and request.seat == 2 and request.seat_key == KEYS[2]
    assert mine.seat_keys == {2: KEYS[2]} and mine.own_seat == 2 and mine.view.viewer_seat == 2
    assert mine.binding == BINDING  # a bare token's binding, read from its header
    # Its calls name its seat, with its key, unless told otherwise.
    client.legal_actions(mine)
    assert sent(channel).seat == 2 and sent(channel).seat_key == KEYS[2]
    client.view(mine)
    assert sent(channel).seat == 2 and sent(channel).seat_key == KEYS[2]
    moved = client.apply(mine, actions.pass_turn())
    assert sent(channel).seat == 2 and sent(channel).seat_key == KEYS[2]
    assert moved.seat_keys == {2: KEYS[2]} and moved.binding.step == 1


def test_join_from_a_game_holding_every_key_keeps_one_key_and_the_binding() -> None:
    client, channel = client_with(HANDLERS)
    game = client.new_game(num_players=3, sealed=True, seat=0)
    mine = client.join(game, seat=1)
    assert sent(channel).seat == 1 and sent(channel).seat_key == KEYS[1]
    assert mine.seat_keys == {1: KEYS[1]} and mine.binding == game.binding and mine.view.viewer_seat == 1


def test_a_sealed_replay_keeps_the_new_games_keys() -> None:
    def replay(request: engine_service_pb2.ReplayGameRequest) -> engine_service_pb2.ReplayGameResponse:
        return engine_service_pb2.ReplayGameResponse(
            sealed_state=b"replayed", sealed_state_binding=BINDING, view=view_of(request), seat_keys=KEYS[:2]
        )

    client, _ = client_with({"ReplayGame": replay})
    rebuilt = client.replay(game_config(2, seed=3), [actions.pass_turn()], sealed=True, seat=1)
    assert rebuilt.game.seat_keys == {0: KEYS[0], 1: KEYS[1]} and rebuilt.game.view.viewer_seat == 1


@pytest.mark.parametrize(
    ("spec", "policy", "iterations"),
    [("random", "random", 0), ("greedy", "greedy", 0), ("ismcts", "ismcts", 0), (" ismcts:250 ", "ismcts", 250)],
)
def test_server_bot_spellings(spec: str, policy: str, iterations: int) -> None:
    assert server_bot(spec, seed=9) == bots_pb2.BotChoice(policy=policy, seed=9, iterations=iterations)


@pytest.mark.parametrize("spec", ["", ":5", "ismcts:", "ismcts:0", "ismcts:-3", "ismcts:many"])
def test_malformed_server_bot_spellings_are_refused(spec: str) -> None:
    with pytest.raises(ValueError, match="bad bot"):
        server_bot(spec)


def test_a_server_bot_move_acts_with_the_acting_seats_key() -> None:
    client, channel = client_with(HANDLERS)
    game = client.new_game(num_players=3, sealed=True)
    client.apply(game, server_bot("ismcts:50", seed=4))
    request = sent(channel)
    assert request.bot == bots_pb2.BotChoice(policy="ismcts", seed=4, iterations=50)
    assert not request.HasField("action") and request.seat_key == KEYS[1]


@pytest.mark.parametrize("reason", ["SEAT_KEY_MISSING", "SEAT_KEY_INVALID"])
def test_permission_denied_is_a_typed_error_with_its_reason(reason: str) -> None:
    def refuse(request: Any) -> Any:
        raise rich_error(grpc.StatusCode.PERMISSION_DENIED, "seat 1's key is needed", reason=reason)

    client, _ = client_with({"GetPlayerView": refuse})
    with pytest.raises(PermissionDenied) as caught:
        client.join(b"token", seat=1, seat_key="wrong")
    assert caught.value.reason == reason and caught.value.code == grpc.StatusCode.PERMISSION_DENIED
    assert str(caught.value).startswith(f"PERMISSION_DENIED {reason}: ")
