"""A sealed state opens to the same bytes and binding, and its header reads without the key."""

from __future__ import annotations

import pytest

from engine_service.sealing import VERSION, Binding, new_game_id, read_binding, seal, unseal
from tests.sealing.rings import BINDING, STATE, key_line, ring


def test_a_sealed_state_opens_to_the_same_state_binding_and_key() -> None:
    keys = ring(key_line("k1", 1))
    opened = unseal(keys, seal(keys, STATE, BINDING))
    assert opened.state_bytes == STATE
    assert opened.binding == BINDING
    assert (opened.game_id, opened.turn, opened.step, opened.key_id) == (BINDING.game_id, 12, 15, "k1")


@pytest.mark.parametrize("size", [0, 1, 31, 32, 33, 500])
def test_states_of_any_length_round_trip(size: int) -> None:
    keys = ring(key_line("k1", 1))
    state = bytes(range(256)) * 2
    assert unseal(keys, seal(keys, state[:size], BINDING)).state_bytes == state[:size]


def test_states_ending_in_padding_like_bytes_round_trip() -> None:
    keys = ring(key_line("k1", 1))
    for state in (b"\x80", b"\x00", b"ab\x80\x00\x00", b"\x00" * 40, b"\x80" * 33):
        assert unseal(keys, seal(keys, state, BINDING)).state_bytes == state


def test_extreme_bindings_round_trip() -> None:
    keys = ring(key_line("k1", 1))
    for binding in (Binding("0" * 32, 0, 0), Binding("f" * 32, 2**32 - 1, 2**64 - 1)):
        assert unseal(keys, seal(keys, STATE, binding)).binding == binding


def test_two_seals_of_one_state_differ_but_both_open() -> None:
    keys = ring(key_line("k1", 1))
    first, second = seal(keys, STATE, BINDING), seal(keys, STATE, BINDING)
    assert first != second  # a fresh nonce each time
    assert unseal(keys, first).state_bytes == unseal(keys, second).state_bytes == STATE


def test_the_plaintext_does_not_appear_in_the_token() -> None:
    keys = ring(key_line("k1", 1))
    state = b"deck order 17 42 3 99 " * 10
    assert b"deck order" not in seal(keys, state, BINDING)


def test_token_length_hides_small_differences_in_state_length() -> None:
    keys = ring(key_line("k1", 1))
    # 320 to 350 bytes: with the secret's length byte before and the 0x80 after, 322 to 352 bytes, padded to 352.
    lengths = {len(seal(keys, STATE[:size], BINDING)) for size in range(320, 351)}
    assert len(lengths) == 1


def test_the_header_carries_version_key_id_and_binding_in_clear() -> None:
    keys = ring(key_line("2026-06", 1))
    token = seal(keys, STATE, BINDING)
    assert token[0] == VERSION
    assert token[2 : 2 + token[1]] == b"2026-06"
    assert read_binding(token) == BINDING


def test_new_game_ids_are_random_128_bit_hex() -> None:
    ids = {new_game_id() for _ in range(100)}
    assert len(ids) == 100
    assert all(len(game_id) == 32 and int(game_id, 16) >= 0 and game_id == game_id.lower() for game_id in ids)


@pytest.mark.parametrize(
    "binding",
    [
        Binding("0123", 0, 0),
        Binding("0123456789ABCDEF0123456789ABCDEF", 0, 0),
        Binding("0" * 32, -1, 0),
        Binding("0" * 32, 2**32, 0),
        Binding("0" * 32, 0, 2**64),
    ],
)
def test_sealing_refuses_a_binding_out_of_range(binding: Binding) -> None:
    with pytest.raises(ValueError):
        seal(ring(key_line("k1", 1)), STATE, binding)


def test_sealing_refuses_a_state_too_large_for_a_token() -> None:
    with pytest.raises(ValueError, match="MAX_TOKEN_BYTES"):
        seal(ring(key_line("k1", 1)), bytes(20_000), BINDING)
