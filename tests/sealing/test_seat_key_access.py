"""Seat keys: a sealed request that names or acts as a seat needs that seat's key; a spectator needs none."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from google.protobuf.message import Message
from splendor.v1 import actions_pb2, bots_pb2, config_pb2, engine_service_pb2

from engine_service.api import ApiConfig, ApiError, Code
from tests.checklists.coverage import methods_whose_request_has
from tests.sealing.api import CONFIG, call

pb = engine_service_pb2
NO_SEAT_KEYS = ApiConfig(CONFIG.key_ring, seat_keys=False)


def game() -> pb.CreateGameResponse:
    config = config_pb2.GameConfig(num_players=3, first_seat=1)
    return call("CreateGame", pb.CreateGameRequest(config=config, sealed=True))  # type: ignore[no-any-return]


def simulate(token: bytes, seat: int, key: str) -> pb.SimulateRequest:
    request = pb.SimulateRequest(sealed_state=token, playouts=1, max_actions=5, seat=seat, seat_key=key)
    request.policies.add(policy="random")
    return request


# Each call that names seat 2 (or acts as it), given its token and a seat key.
NAMING_SEAT_2: dict[str, Callable[[bytes, str], tuple[str, Message]]] = {
    "ListLegalActions": lambda token, key: (
        "ListLegalActions",
        pb.ListLegalActionsRequest(sealed_state=token, seat=2, seat_key=key),
    ),
    "GetPlayerView": lambda token, key: (
        "GetPlayerView",
        pb.GetPlayerViewRequest(sealed_state=token, seat=2, seat_key=key),
    ),
    "Simulate": lambda token, key: ("Simulate", simulate(token, 2, key)),
    "Determinize": lambda token, key: (
        "Determinize",
        pb.DeterminizeRequest(sealed_state=token, seat=2, count=1, seat_key=key),
    ),
    "ApplyAction as seat 2": lambda token, key: (
        "ApplyAction",
        pb.ApplyActionRequest(sealed_state=token, seat=2, action=actions_pb2.Action(action_id=0), seat_key=key),
    ),
}


def test_every_rpc_that_takes_a_seat_key_is_called_naming_seat_2() -> None:
    named = {method for method, _ in (build(b"token", "key") for build in NAMING_SEAT_2.values())}
    assert named == methods_whose_request_has("seat_key")


def refused(method: str, request: Message, config: ApiConfig = CONFIG) -> ApiError:
    with pytest.raises(ApiError) as caught:
        call(method, request, config)
    return caught.value


@pytest.mark.parametrize("name", NAMING_SEAT_2)
def test_naming_a_seat_without_its_key_is_permission_denied(name: str) -> None:
    created = game()
    token, keys = created.sealed_state, list(created.seat_keys)
    other_game = list(game().seat_keys)
    for key, reason in (
        ("", "SEAT_KEY_MISSING"),
        (keys[0], "SEAT_KEY_INVALID"),
        (other_game[2], "SEAT_KEY_INVALID"),
        (keys[2] + "A", "SEAT_KEY_INVALID"),
        ("garbage", "SEAT_KEY_INVALID"),
    ):
        error = refused(*NAMING_SEAT_2[name](token, key))
        assert (error.code, error.reason) == (Code.PERMISSION_DENIED, reason)
        assert [violation.field for violation in error.field_violations] == ["seat_key"]
        assert key not in error.message or not key  # the key is never echoed


@pytest.mark.parametrize("name", NAMING_SEAT_2)
def test_the_seats_own_key_opens_the_call(name: str) -> None:
    created = game()
    method, request = NAMING_SEAT_2[name](created.sealed_state, created.seat_keys[2])
    if method == "ApplyAction":  # seat 1 acts first: the key is accepted, then the rules refuse the turn
        assert refused(method, request).reason == "NOT_YOUR_TURN"
    else:
        assert call(method, request).ByteSize() > 0


@pytest.mark.parametrize("move", ["action", "validate_only", "bot"])
def test_acting_without_naming_a_seat_needs_the_acting_seats_key(move: str) -> None:
    created = game()
    token, keys = created.sealed_state, list(created.seat_keys)
    request = pb.ApplyActionRequest(sealed_state=token, validate_only=move == "validate_only")
    if move == "bot":
        request.bot.CopyFrom(bots_pb2.BotChoice(policy="ismcts", iterations=5))
    else:
        request.action.action_id = 0
    assert refused("ApplyAction", request).reason == "SEAT_KEY_MISSING"
    request.seat_key = keys[2]
    assert refused("ApplyAction", request).reason == "SEAT_KEY_INVALID"
    request.seat_key = keys[1]  # seat 1 must act
    applied = call("ApplyAction", request)
    assert applied.applied.action_id >= 0 and applied.sealed_state_binding.step == (0 if request.validate_only else 1)


def test_a_spectator_looks_without_a_key() -> None:
    token = game().sealed_state
    view = call("GetPlayerView", pb.GetPlayerViewRequest(sealed_state=token)).view
    assert not view.HasField("viewer_seat")
    listed = call("ListLegalActions", pb.ListLegalActionsRequest(sealed_state=token))
    assert listed.seat == 1


def test_a_server_without_seat_keys_ignores_them() -> None:
    token = game().sealed_state
    for build in NAMING_SEAT_2.values():
        method, request = build(token, "")
        if method == "ApplyAction":
            assert refused(method, request, NO_SEAT_KEYS).reason == "NOT_YOUR_TURN"
        else:
            assert call(method, request, NO_SEAT_KEYS).ByteSize() > 0


def test_plain_states_need_no_key() -> None:
    plain = call("CreateGame", pb.CreateGameRequest(config=config_pb2.GameConfig(num_players=2, seed=3)))
    assert not plain.seat_keys
    view = call("GetPlayerView", pb.GetPlayerViewRequest(state=plain.state, seat=0)).view
    assert view.viewer_seat == 0


def test_a_seat_out_of_range_is_invalid_before_any_key_is_asked_for() -> None:
    token = game().sealed_state
    error = refused("GetPlayerView", pb.GetPlayerViewRequest(sealed_state=token, seat=7))
    assert (error.code, error.reason) == (Code.INVALID_ARGUMENT, "INVALID_SEAT")


def test_keys_stay_valid_for_the_whole_game() -> None:
    created = game()
    token, keys = created.sealed_state, list(created.seat_keys)
    for step in range(1, 7):
        acting = call("ListLegalActions", pb.ListLegalActionsRequest(sealed_state=token)).seat
        bot = bots_pb2.BotChoice(policy="greedy", seed=1)
        moved = call("ApplyAction", pb.ApplyActionRequest(sealed_state=token, bot=bot, seat_key=keys[acting]))
        assert moved.sealed_state_binding.step == step  # each seat's first key moved the game on
        token = moved.sealed_state
    for seat, key in enumerate(keys):  # and still opens every seat's view, six moves later
        request = pb.GetPlayerViewRequest(sealed_state=token, seat=seat, seat_key=key)
        assert call("GetPlayerView", request).view.viewer_seat == seat
