"""Rotation: the newest key seals, older keys still open until retired, and every move re-seals a game under the
newest key with its seat keys unchanged (they are MACs under the game's own secret), so games in flight survive."""

from __future__ import annotations

import random

import pytest
from splendor.v1 import config_pb2
from splendor.v1 import engine_service_pb2 as pb

from engine_service.api import ApiConfig, ApiError
from engine_service.api.state_memo import StateMemo
from engine_service.sealing import KeyRetired, KeyUnknown, parse_key_ring, read_binding, read_header, seal, unseal
from tests.sealing.api import call
from tests.sealing.rings import BINDING, STATE, key_line, ring


def test_after_rotation_the_new_key_seals_and_the_old_key_still_opens() -> None:
    before = ring(key_line("2026-01", 1))
    in_flight = seal(before, STATE, BINDING)
    after = ring(key_line("2026-06", 2), key_line("2026-01", 1))
    assert unseal(after, in_flight).key_id == "2026-01"
    fresh = seal(after, STATE, BINDING)
    assert unseal(after, fresh).key_id == "2026-06"
    # A replica not yet rotated cannot open the new key's tokens: roll the key out before it seals.
    with pytest.raises(KeyUnknown):
        unseal(before, fresh)


def test_a_ring_that_lists_the_new_key_second_opens_but_does_not_seal_with_it() -> None:
    """The rollout step: every replica learns the new key before any replica seals with it."""
    staged = ring(key_line("2026-01", 1), key_line("2026-06", 2))
    switched = ring(key_line("2026-06", 2), key_line("2026-01", 1))
    assert unseal(staged, seal(switched, STATE, BINDING)).key_id == "2026-06"
    assert unseal(switched, seal(staged, STATE, BINDING)).key_id == "2026-01"


def test_retiring_the_old_key_refuses_its_tokens_and_keeps_the_new_ones() -> None:
    old_token = seal(ring(key_line("2026-01", 1)), STATE, BINDING)
    retired = ring(key_line("2026-06", 2), "2026-01:retired")
    with pytest.raises(KeyRetired):
        unseal(retired, old_token)
    assert unseal(retired, seal(retired, STATE, BINDING)).state_bytes == STATE


def test_removing_the_old_key_refuses_its_tokens_as_unknown() -> None:
    old_token = seal(ring(key_line("2026-01", 1)), STATE, BINDING)
    with pytest.raises(KeyUnknown):
        unseal(ring(key_line("2026-06", 2)), old_token)


# The API through a rotation: a game plays to its end while its key is added, made primary and retired.


def _ring_config(text: str, memo: StateMemo) -> ApiConfig:
    return ApiConfig(parse_key_ring(text), memo=memo)


def _play(config: ApiConfig, token: bytes, keys: list[str], moves: int, rng: random.Random) -> bytes:
    """``moves`` random moves (fewer if the game ends), each by the acting seat with its key: the last token."""
    for _ in range(moves):
        listed = call("ListLegalActions", pb.ListLegalActionsRequest(sealed_state=token), config)
        if not listed.actions:
            break
        seat = listed.seat
        request = pb.ApplyActionRequest(
            sealed_state=token, action=rng.choice(list(listed.actions)).action, seat=seat, seat_key=keys[seat]
        )
        token = call("ApplyAction", request, config).sealed_state
    return token


@pytest.mark.parametrize("memo_entries", [0, 64], ids=["memo-off", "memo-shared"])
def test_a_game_plays_to_its_end_across_adding_a_key_making_it_primary_and_retiring_the_old_one(
    memo_entries: int,
) -> None:
    memo = StateMemo(memo_entries)  # one process's memo, kept across the ring's reloads
    old, new = key_line("2026-01", 21), key_line("2026-06", 22)
    stages = [old, f"{old}\n{new}", f"{new}\n{old}", f"{new}\n2026-01:retired"]
    rng = random.Random(memo_entries)
    first = _ring_config(stages[0], memo)
    config = pb.CreateGameRequest(config=config_pb2.GameConfig(num_players=3, seed=5), sealed=True, public_deal=True)
    created = call("CreateGame", config, first)
    keys, token = list(created.seat_keys), created.sealed_state
    dealt_under_old = token
    for text in stages[:3]:
        token = _play(_ring_config(text, memo), token, keys, 6, rng)
    assert read_header(token).key_id == "2026-06"  # the last move sealed it under the new primary key
    retired = _ring_config(stages[3], memo)
    token = _play(retired, token, keys, 2000, rng)
    final = call("GetPlayerView", pb.GetPlayerViewRequest(sealed_state=token, seat=0, seat_key=keys[0]), retired)
    assert final.view.end_reason != 0 and final.view.HasField("revealed_seed")
    assert read_binding(token).acting_seat is None  # the header says the game is over
    # The tokens left sealed under the retired key are refused, and say why.
    with pytest.raises(ApiError) as refused:
        call("GetPlayerView", pb.GetPlayerViewRequest(sealed_state=dealt_under_old), retired)
    assert refused.value.reason == "SEALED_STATE_KEY_RETIRED"
