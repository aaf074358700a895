"""A sealed game is dealt from a seed the server draws and never returns; a caller's seed only with public_deal."""

from __future__ import annotations

import pytest
from google.protobuf.internal.encoder import _VarintBytes  # type: ignore[attr-defined]
from splendor.v1 import actions_pb2, bots_pb2, config_pb2, engine_service_pb2, state_pb2

from engine_service.api import ApiError, Code
from engine_service.codec import state_from_proto
from engine_service.sealing import unseal
from tests.sealing.api import CONFIG, call


def create(**fields: object) -> engine_service_pb2.CreateGameResponse:
    config = fields.pop("config", config_pb2.GameConfig(num_players=2))
    response: engine_service_pb2.CreateGameResponse = call(
        "CreateGame",
        engine_service_pb2.CreateGameRequest(config=config, sealed=True, **fields),  # type: ignore[arg-type]
    )
    return response


def sealed_seed(token: bytes) -> int:
    return state_from_proto(state_pb2.GameState.FromString(unseal(CONFIG.key_ring, token).state_bytes)).config.seed


def test_a_sealed_game_without_a_seed_is_dealt_from_a_fresh_server_drawn_seed() -> None:
    games = [create(seat=0) for _ in range(8)]
    seeds = {sealed_seed(game.sealed_state) for game in games}
    assert len(seeds) == 8 and 0 not in seeds
    for game in games:
        assert not game.sealed_state_binding.public_deal
        assert not game.view.HasField("revealed_seed")
        # The seed's wire encoding (a varint of 9-10 bytes for 64 random bits) appears nowhere in the response.
        assert _VarintBytes(sealed_seed(game.sealed_state)) not in game.SerializeToString()


def test_a_sealed_game_with_a_seed_and_without_public_deal_is_refused_on_config_seed() -> None:
    with pytest.raises(ApiError) as refused:
        create(config=config_pb2.GameConfig(num_players=3, seed=42))
    assert refused.value.code is Code.INVALID_ARGUMENT and refused.value.reason == "SEED_NOT_ALLOWED"
    assert [violation.field for violation in refused.value.field_violations] == ["config.seed"]


@pytest.mark.parametrize("seed", [0, 42])
def test_public_deal_deals_from_the_seed_as_given_and_says_so_in_the_binding(seed: int) -> None:
    game = create(config=config_pb2.GameConfig(num_players=2, seed=seed), public_deal=True)
    assert sealed_seed(game.sealed_state) == seed
    assert game.sealed_state_binding.public_deal
    plain = call(
        "CreateGame", engine_service_pb2.CreateGameRequest(config=config_pb2.GameConfig(num_players=2, seed=seed))
    )
    assert list(game.view.market[0].slots) == list(plain.state.market[0].slots)


def test_public_deal_and_the_seed_rule_do_not_apply_to_plain_games() -> None:
    plain = call(
        "CreateGame", engine_service_pb2.CreateGameRequest(config=config_pb2.GameConfig(num_players=2, seed=9))
    )
    assert plain.state.config.seed == 9 and not plain.seat_keys


def test_public_deal_survives_every_move_and_a_server_drawn_deal_stays_private() -> None:
    for public in (False, True):
        game = create(config=config_pb2.GameConfig(num_players=2, first_seat=0), public_deal=public)
        applied = call(
            "ApplyAction",
            engine_service_pb2.ApplyActionRequest(
                sealed_state=game.sealed_state, action=actions_pb2.Action(action_id=0), seat_key=game.seat_keys[0]
            ),
        )
        assert applied.sealed_state_binding.public_deal is public
        assert applied.sealed_state_binding.step == 1


def test_a_sealed_replay_is_a_public_deal_with_seat_keys() -> None:
    request = engine_service_pb2.ReplayGameRequest(
        config=config_pb2.GameConfig(num_players=3, seed=5), sealed=True, seat=1
    )
    request.actions.add(action_id=0)
    replayed = call("ReplayGame", request)
    assert replayed.sealed_state_binding.public_deal and replayed.sealed_state_binding.step == 1
    assert len(replayed.seat_keys) == 3 and len(set(replayed.seat_keys)) == 3


def test_the_seed_is_revealed_in_every_view_once_the_game_is_over() -> None:
    game = create(config=config_pb2.GameConfig(num_players=2, turn_limit=2, first_seat=0))
    seed = sealed_seed(game.sealed_state)
    token, keys = game.sealed_state, game.seat_keys
    seen_before: list[bool] = []
    while True:
        view = call("GetPlayerView", engine_service_pb2.GetPlayerViewRequest(sealed_state=token)).view
        seen_before.append(view.HasField("revealed_seed"))
        if view.end_reason:
            break
        bot = bots_pb2.BotChoice(policy="random", seed=len(seen_before))
        applied = call(
            "ApplyAction", engine_service_pb2.ApplyActionRequest(sealed_state=token, bot=bot, seat_key=keys[view.seat])
        )
        token = applied.sealed_state
    assert seen_before[-1] and not any(seen_before[:-1])
    assert applied.view.revealed_seed == seed
    for seat in (0, 1):
        mine = call(
            "GetPlayerView", engine_service_pb2.GetPlayerViewRequest(sealed_state=token, seat=seat, seat_key=keys[seat])
        )
        assert mine.view.revealed_seed == seed
