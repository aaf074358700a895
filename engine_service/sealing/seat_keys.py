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

import binascii
import hmac
import struct
from typing import Final

from .keyring import KeyRing

MAC_BYTES: Final = 16
SEPARATOR: Final = "."
# Names what is MACed, so the MAC key can never be made to sign anything else.
_DOMAIN: Final = b"splendor.v1 seat key\x00"
_SEAT: Final = struct.Struct(">I")
MAC_CHARS: Final = 22  # unpadded base64 of 16 bytes
# A key id (at most 32 characters), the separator and the MAC; longer input is refused unread.
MAX_SEAT_KEY_CHARS: Final = 32 + 1 + MAC_CHARS
_URLSAFE: Final = bytes.maketrans(b"+/", b"-_")


class SeatKeyInvalid(ValueError):
    """A seat key that is not the key of the seat and game it is checked for (the reason says no more)."""

    reason: Final = "SEAT_KEY_INVALID"


def seat_key(ring: KeyRing, key_id: str, game_id: str, seat: int) -> str:
    """The key of ``seat`` in the game ``game_id`` (32 hex digits) under the ring key ``key_id`` (which it holds)."""
    mac = _mac(ring, key_id, game_id, seat)
    if mac is None:
        raise KeyError(key_id)
    return key_id + SEPARATOR + mac.decode("ascii")


def _mac(ring: KeyRing, key_id: str, game_id: str, seat: int) -> bytes | None:
    """The MAC part of a seat key, as base64url bytes; None for a key id the ring does not hold."""
    mac = ring.seat_mac(key_id)
    if mac is None:
        return None
    mac.update(_DOMAIN + bytes.fromhex(game_id) + _SEAT.pack(seat))
    return binascii.b2a_base64(mac.digest()[:MAC_BYTES], newline=False)[:MAC_CHARS].translate(_URLSAFE)


def issue_seat_keys(ring: KeyRing, game_id: str, num_players: int) -> list[str]:
    """One key per seat, in seat order, under the ring's current key."""
    return [seat_key(ring, ring.current_id, game_id, seat) for seat in range(num_players)]


def check_seat_key(ring: KeyRing, game_id: str, seat: int, key: str) -> None:
    """Return if ``key`` is the key of ``seat`` in ``game_id`` under a key the ring holds; else SeatKeyInvalid."""
    key_id, separator, given = key.rpartition(SEPARATOR)
    # A key is ASCII: anything else (a lone surrogate from a JSON escape, say) is refused, never encoded.
    well_formed = separator and len(key) <= MAX_SEAT_KEY_CHARS and key.isascii()
    expected = _mac(ring, key_id, game_id, seat) if well_formed else None
    if expected is None or not hmac.compare_digest(given.encode("ascii"), expected):
        raise SeatKeyInvalid("the seat key is not a key of this seat in this game")
