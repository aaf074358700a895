"""Seat keys: one per game and seat, MACed under a key derived from the ring; every other key is refused."""

from __future__ import annotations

import base64
import hmac

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine_service.sealing import SeatKeyInvalid, check_seat_key, issue_seat_keys, new_game_id
from engine_service.sealing.derived_keys import SEAT_KEY_MAC_INFO, derive_key
from engine_service.sealing.seat_keys import MAC_BYTES, seat_key
from tests.sealing.rings import key_line, ring

KEYS = ring(key_line("k2", 2), key_line("k1", 1))
GAME = "0123456789abcdef0123456789abcdef"


def test_a_game_gets_one_distinct_key_per_seat_under_the_current_key() -> None:
    keys = issue_seat_keys(KEYS, GAME, 4)
    assert len(set(keys)) == 4
    for seat, key in enumerate(keys):
        key_id, _, mac = key.partition(".")
        assert key_id == "k2"
        assert len(base64.urlsafe_b64decode(mac + "==")) == MAC_BYTES and "=" not in mac
        check_seat_key(KEYS, GAME, seat, key)


def test_keys_are_deterministic_for_a_ring_game_and_seat() -> None:
    assert issue_seat_keys(KEYS, GAME, 3) == issue_seat_keys(ring(key_line("k2", 2)), GAME, 3)


def test_another_seats_key_is_refused() -> None:
    keys = issue_seat_keys(KEYS, GAME, 2)
    with pytest.raises(SeatKeyInvalid):
        check_seat_key(KEYS, GAME, 1, keys[0])


def test_another_games_key_is_refused() -> None:
    other = issue_seat_keys(KEYS, new_game_id(), 2)
    with pytest.raises(SeatKeyInvalid):
        check_seat_key(KEYS, GAME, 0, other[0])


def test_a_key_under_an_older_listed_ring_key_still_opens_and_a_retired_or_unknown_one_does_not() -> None:
    old = seat_key(KEYS, "k1", GAME, 0)
    check_seat_key(KEYS, GAME, 0, old)
    retired = ring(key_line("k2", 2), "k1:retired")
    with pytest.raises(SeatKeyInvalid):
        check_seat_key(retired, GAME, 0, old)
    with pytest.raises(SeatKeyInvalid):
        check_seat_key(ring(key_line("k3", 3)), GAME, 0, seat_key(KEYS, "k2", GAME, 0))


def test_the_same_key_id_with_another_key_is_refused() -> None:
    forged = seat_key(ring(key_line("k2", 99)), "k2", GAME, 0)
    with pytest.raises(SeatKeyInvalid):
        check_seat_key(KEYS, GAME, 0, forged)


def test_the_mac_key_is_derived_and_never_the_ring_key() -> None:
    ring_key = KEYS.keys["k2"]
    derived = derive_key(ring_key, SEAT_KEY_MAC_INFO)
    assert derived != ring_key
    message = b"splendor.v1 seat key\x00" + bytes.fromhex(GAME) + (1).to_bytes(4, "big")
    mac = hmac.digest(derived, message, "sha256")[:MAC_BYTES]
    assert seat_key(KEYS, "k2", GAME, 1) == "k2." + base64.urlsafe_b64encode(mac).decode().rstrip("=")


@pytest.mark.parametrize(
    "key",
    # "\ud800": a lone surrogate, which cannot be encoded (found by the property test below).
    [
        "",
        ".",
        "k2",
        "k2.",
        ".AAAA",
        "k2.AAAAAAAAAAAAAAAAAAAAAA",
        "k2..x",
        "k2." + "A" * 200,
        "k2.é",
        "k2.\x00",
        "k2.\ud800",
    ],
)
def test_malformed_keys_are_refused(key: str) -> None:
    with pytest.raises(SeatKeyInvalid):
        check_seat_key(KEYS, GAME, 0, key)


@given(seat=st.integers(0, 3), position=st.integers(0, 200), replacement=st.characters())
def test_every_single_character_change_is_refused(seat: int, position: int, replacement: str) -> None:
    key = seat_key(KEYS, "k2", GAME, seat)
    index = position % len(key)
    changed = key[:index] + replacement + key[index + 1 :]
    if changed == key:
        return
    with pytest.raises(SeatKeyInvalid):
        check_seat_key(KEYS, GAME, seat, changed)


@given(st.text(max_size=80))
def test_arbitrary_text_is_refused_never_raising_anything_else(text: str) -> None:
    for seat in range(4):
        if text != seat_key(KEYS, "k2", GAME, seat):
            with pytest.raises(SeatKeyInvalid):
                check_seat_key(KEYS, GAME, seat, text)
