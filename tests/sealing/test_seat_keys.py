"""Seat keys: one per game and seat, MACed under the game's own secret (so no ring key matters); every other key is
refused. Keys of games begun before token version 3 are MACed under a ring key: valid while it is held, then
refused as retired."""

from __future__ import annotations

import base64
import hmac

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine_service.sealing import (
    SeatKeyInvalid,
    SeatKeyRetired,
    check_seat_key,
    issue_seat_keys,
    legacy_seat_key,
    new_game_id,
    new_game_secret,
)
from engine_service.sealing.derived_keys import SEAT_KEY_MAC_INFO, derive_key
from engine_service.sealing.seat_keys import MAC_BYTES, MAC_CHARS
from tests.sealing.rings import key_line, ring

KEYS = ring(key_line("k2", 2), key_line("k1", 1))
GAME = "0123456789abcdef0123456789abcdef"
SECRET = bytes(range(32))
NO_SECRET = b""  # a game begun before token version 3


def test_a_game_gets_one_distinct_key_per_seat_under_its_secret() -> None:
    keys = issue_seat_keys(SECRET, GAME, 4)
    assert len(set(keys)) == 4
    for seat, key in enumerate(keys):
        assert len(key) == MAC_CHARS and "." not in key and "=" not in key
        assert len(base64.urlsafe_b64decode(key + "==")) == MAC_BYTES
        check_seat_key(KEYS, GAME, SECRET, seat, key)


def test_the_key_is_the_mac_of_the_game_and_seat_under_the_secret() -> None:
    message = b"splendor.v1 seat key v3\x00" + bytes.fromhex(GAME) + (2).to_bytes(4, "big")
    mac = hmac.digest(SECRET, message, "sha256")[:MAC_BYTES]
    assert issue_seat_keys(SECRET, GAME, 3)[2] == base64.urlsafe_b64encode(mac).decode().rstrip("=")


def test_keys_depend_on_the_secret_and_on_no_ring() -> None:
    keys = issue_seat_keys(SECRET, GAME, 2)
    for other_ring in (ring(key_line("k9", 9)), ring(key_line("k3", 3), "k2:retired", "k1:retired")):
        for seat, key in enumerate(keys):
            check_seat_key(other_ring, GAME, SECRET, seat, key)
    assert issue_seat_keys(new_game_secret(), GAME, 2) != keys


def test_another_seats_key_is_refused() -> None:
    keys = issue_seat_keys(SECRET, GAME, 2)
    with pytest.raises(SeatKeyInvalid):
        check_seat_key(KEYS, GAME, SECRET, 1, keys[0])


def test_another_games_key_is_refused() -> None:
    with pytest.raises(SeatKeyInvalid):
        check_seat_key(KEYS, GAME, SECRET, 0, issue_seat_keys(SECRET, new_game_id(), 2)[0])
    with pytest.raises(SeatKeyInvalid):
        check_seat_key(KEYS, GAME, SECRET, 0, issue_seat_keys(new_game_secret(), GAME, 2)[0])


def test_a_legacy_key_is_refused_in_a_game_with_a_secret_and_a_new_key_in_a_game_without() -> None:
    with pytest.raises(SeatKeyInvalid):
        check_seat_key(KEYS, GAME, SECRET, 0, legacy_seat_key(KEYS, "k2", GAME, 0))
    with pytest.raises(SeatKeyInvalid):
        check_seat_key(KEYS, GAME, NO_SECRET, 0, issue_seat_keys(SECRET, GAME, 1)[0])


def test_a_legacy_key_works_while_its_ring_key_is_held_and_is_refused_as_retired_after() -> None:
    old = legacy_seat_key(KEYS, "k1", GAME, 0)
    check_seat_key(KEYS, GAME, NO_SECRET, 0, old)
    check_seat_key(ring(key_line("k3", 3), key_line("k1", 1)), GAME, NO_SECRET, 0, old)
    retired = ring(key_line("k2", 2), "k1:retired")
    with pytest.raises(SeatKeyRetired) as refused:
        check_seat_key(retired, GAME, NO_SECRET, 0, old)
    assert refused.value.reason == "SEAT_KEY_RETIRED" and "k1" in str(refused.value)
    # Removed from the ring rather than retired: unknown, so invalid like any key the ring cannot check.
    with pytest.raises(SeatKeyInvalid) as unknown:
        check_seat_key(ring(key_line("k3", 3)), GAME, NO_SECRET, 0, legacy_seat_key(KEYS, "k2", GAME, 0))
    assert unknown.value.reason == "SEAT_KEY_INVALID"


def test_a_legacy_key_under_the_same_key_id_with_another_key_is_refused() -> None:
    forged = legacy_seat_key(ring(key_line("k2", 99)), "k2", GAME, 0)
    with pytest.raises(SeatKeyInvalid):
        check_seat_key(KEYS, GAME, NO_SECRET, 0, forged)


def test_the_legacy_mac_key_is_derived_and_never_the_ring_key() -> None:
    ring_key = KEYS.keys["k2"]
    derived = derive_key(ring_key, SEAT_KEY_MAC_INFO)
    assert derived != ring_key
    message = b"splendor.v1 seat key\x00" + bytes.fromhex(GAME) + (1).to_bytes(4, "big")
    mac = hmac.digest(derived, message, "sha256")[:MAC_BYTES]
    assert legacy_seat_key(KEYS, "k2", GAME, 1) == "k2." + base64.urlsafe_b64encode(mac).decode().rstrip("=")


MALFORMED = [
    # "\ud800": a lone surrogate, which cannot be encoded (found by the property tests below).
    "",
    ".",
    "k2",
    "k2.",
    ".AAAA",
    "k2.AAAAAAAAAAAAAAAAAAAAAA",
    "AAAAAAAAAAAAAAAAAAAAAA",
    "k2..x",
    "k2." + "A" * 200,
    "A" * 200,
    "k2.é",
    "é" * MAC_CHARS,
    "k2.\x00",
    "\x00" * MAC_CHARS,
    "k2.\ud800",
    "\ud800" * MAC_CHARS,
]


@pytest.mark.parametrize("key", MALFORMED)
@pytest.mark.parametrize("secret", [SECRET, NO_SECRET], ids=["version-3", "legacy"])
def test_malformed_keys_are_refused(key: str, secret: bytes) -> None:
    with pytest.raises(SeatKeyInvalid):
        check_seat_key(KEYS, GAME, secret, 0, key)


def _key(secret: bytes, seat: int) -> str:
    return issue_seat_keys(secret, GAME, 4)[seat] if secret else legacy_seat_key(KEYS, "k2", GAME, seat)


@given(
    secret=st.sampled_from([SECRET, NO_SECRET]),
    seat=st.integers(0, 3),
    position=st.integers(0, 200),
    replacement=st.characters(),
)
def test_every_single_character_change_is_refused(secret: bytes, seat: int, position: int, replacement: str) -> None:
    key = _key(secret, seat)
    index = position % len(key)
    changed = key[:index] + replacement + key[index + 1 :]
    if changed == key:
        return
    with pytest.raises(SeatKeyInvalid):
        check_seat_key(KEYS, GAME, secret, seat, changed)


@given(secret=st.sampled_from([SECRET, NO_SECRET]), text=st.text(max_size=80))
def test_arbitrary_text_is_refused_never_raising_anything_else(secret: bytes, text: str) -> None:
    for seat in range(4):
        if text != _key(secret, seat):
            with pytest.raises(SeatKeyInvalid):
                check_seat_key(KEYS, GAME, secret, seat, text)
