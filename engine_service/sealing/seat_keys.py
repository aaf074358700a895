"""Seat keys: a secret per game and seat that lets its holder look and act as that seat.

    keys = issue_seat_keys(ring, game_id, num_players)   # one per seat, when a sealed game starts
    check_seat_key(ring, game_id, seat, key)             # SeatKeyInvalid unless it is that seat's key

A seat key is ``<key id>.<mac>``: ``mac`` is HMAC-SHA256, truncated to 16 bytes and written in
unpadded base64url, of a domain-separated message naming the game id and the seat, keyed by a MAC
key derived from the ring key ``key id`` (``derived_keys.py``; never the AES key itself). The
service stores nothing: it recomputes the key of the seat a request names and compares in constant
time. A key id the ring retired or does not hold, a malformed key, another seat's or another game's
key are all refused alike.
"""

from __future__ import annotations

import base64
import hmac
import struct
from typing import Final

from .keyring import KeyRing

MAC_BYTES: Final = 16
SEPARATOR: Final = "."
# Names what is MACed, so the MAC key can never be made to sign anything else.
_DOMAIN: Final = b"splendor.v1 seat key\x00"
_SEAT: Final = struct.Struct(">I")
# A key id (at most 32 characters), the separator and 22 base64url characters; longer input is refused unread.
MAX_SEAT_KEY_CHARS: Final = 32 + 1 + 22


class SeatKeyInvalid(ValueError):
    """A seat key that is not the key of the seat and game it is checked for (the reason says no more)."""

    reason: Final = "SEAT_KEY_INVALID"


def seat_key(ring: KeyRing, key_id: str, game_id: str, seat: int) -> str:
    """The key of ``seat`` in the game ``game_id`` (32 hex digits) under the ring key ``key_id``."""
    message = _DOMAIN + bytes.fromhex(game_id) + _SEAT.pack(seat)
    mac = hmac.digest(ring.seat_mac_key(key_id), message, "sha256")[:MAC_BYTES]
    return key_id + SEPARATOR + base64.urlsafe_b64encode(mac).rstrip(b"=").decode("ascii")


def issue_seat_keys(ring: KeyRing, game_id: str, num_players: int) -> list[str]:
    """One key per seat, in seat order, under the ring's current key."""
    return [seat_key(ring, ring.current_id, game_id, seat) for seat in range(num_players)]


def check_seat_key(ring: KeyRing, game_id: str, seat: int, key: str) -> None:
    """Return if ``key`` is the key of ``seat`` in ``game_id`` under a key the ring holds; else SeatKeyInvalid."""
    key_id, separator, _ = key.rpartition(SEPARATOR)
    if len(key) > MAX_SEAT_KEY_CHARS or not separator or key_id not in ring.keys:
        raise SeatKeyInvalid("the seat key is not a key of this seat in this game")
    expected = seat_key(ring, key_id, game_id, seat)
    if not hmac.compare_digest(key.encode("utf-8"), expected.encode("ascii")):
        raise SeatKeyInvalid("the seat key is not a key of this seat in this game")
