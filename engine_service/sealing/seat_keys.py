"""Seat keys: a secret per game and seat that lets its holder look and act as that seat.

    secret = new_game_secret()                              # sealed in every token of the game
    keys = issue_seat_keys(secret, game_id, num_players)    # one per seat, when a sealed game starts
    check_seat_key(ring, game_id, secret, seat, key)        # SeatKeyRefused unless it is that seat's key

A game's seat keys are MACs under the game's own secret: 32 random bytes drawn when the game is
dealt and carried, encrypted, inside every token of the game (``token.py``). A seat key is 22
characters, the unpadded base64url of HMAC-SHA256 truncated to 16 bytes, of a domain-separated
message naming the game id and the seat, keyed by that secret. Nothing in them depends on the key
ring, so they outlive any rotation: a token is re-sealed under the ring's current key by every
move, and its secret, hence its seat keys, goes with it.

Games begun before token version 3 have no secret (it is empty): their keys are ``<key id>.<mac>``,
the MAC keyed by a key derived from the ring key ``key id`` (``derived_keys.py``; never the AES key
itself). They stay valid while the ring holds that key; once it is retired they are refused as
retired (``SeatKeyRetired``).

The service stores nothing: it recomputes the key of the seat a request names and compares in
constant time. A malformed key, another seat's or another game's key are all refused alike.
"""

from __future__ import annotations

import binascii
import hmac
import struct
from typing import ClassVar, Final

from .keyring import KeyRing

MAC_BYTES: Final = 16
MAC_CHARS: Final = 22  # unpadded base64 of 16 bytes
# Name what is MACed, so a MAC key can never be made to sign anything else.
_DOMAIN: Final = b"splendor.v1 seat key v3\x00"
_LEGACY_DOMAIN: Final = b"splendor.v1 seat key\x00"
_SEAT: Final = struct.Struct(">I")
LEGACY_SEPARATOR: Final = "."
# A legacy key: a key id (at most 32 characters), the separator and the MAC; longer input is refused unread.
MAX_LEGACY_SEAT_KEY_CHARS: Final = 32 + 1 + MAC_CHARS
_URLSAFE: Final = bytes.maketrans(b"+/", b"-_")


class SeatKeyRefused(ValueError):
    """A seat key that does not let its holder act as the seat it is checked for. ``reason``: its RejectionReason."""

    reason: ClassVar[str] = "SEAT_KEY_INVALID"


class SeatKeyInvalid(SeatKeyRefused):
    """Not the key of the seat and game it is checked for (the reason says no more)."""


class SeatKeyRetired(SeatKeyRefused):
    """A key of a game begun before token version 3, MACed under a ring key the ring now marks retired."""

    reason = "SEAT_KEY_RETIRED"


def issue_seat_keys(game_secret: bytes, game_id: str, num_players: int) -> list[str]:
    """One key per seat, in seat order, under the game's secret."""
    return [_mac(game_secret, _DOMAIN, game_id, seat).decode("ascii") for seat in range(num_players)]


def check_seat_key(ring: KeyRing, game_id: str, game_secret: bytes, seat: int, key: str) -> None:
    """Return if ``key`` is the key of ``seat`` in ``game_id``; else SeatKeyInvalid (or SeatKeyRetired).

    ``game_secret``: the secret the game's token carries; empty for a game begun before version 3,
    whose keys are checked under the ring key they name.
    """
    if not game_secret:
        _check_legacy_seat_key(ring, game_id, seat, key)
        return
    # A key is ASCII: anything else (a lone surrogate from a JSON escape, say) is refused, never encoded.
    if len(key) != MAC_CHARS or not key.isascii():
        raise SeatKeyInvalid("the seat key is not a key of this seat in this game")
    if not hmac.compare_digest(key.encode("ascii"), _mac(game_secret, _DOMAIN, game_id, seat)):
        raise SeatKeyInvalid("the seat key is not a key of this seat in this game")


def legacy_seat_key(ring: KeyRing, key_id: str, game_id: str, seat: int) -> str:
    """The key of ``seat`` in a game begun before version 3 under the ring key ``key_id`` (which the ring holds)."""
    keyed = ring.seat_mac(key_id)
    if keyed is None:
        raise KeyError(key_id)
    return key_id + LEGACY_SEPARATOR + _legacy_mac(keyed, game_id, seat).decode("ascii")


def _check_legacy_seat_key(ring: KeyRing, game_id: str, seat: int, key: str) -> None:
    key_id, separator, given = key.rpartition(LEGACY_SEPARATOR)
    well_formed = separator and len(key) <= MAX_LEGACY_SEAT_KEY_CHARS and key.isascii()
    if well_formed and key_id in ring.retired:
        raise SeatKeyRetired(
            f"seat_key was issued under the key {key_id!r}, which the key ring retired: the keys of a game begun "
            "before token version 3 end with the ring key they name (rebuild the game with a sealed ReplayGame)"
        )
    keyed = ring.seat_mac(key_id) if well_formed else None
    if keyed is None or not hmac.compare_digest(given.encode("ascii"), _legacy_mac(keyed, game_id, seat)):
        raise SeatKeyInvalid("the seat key is not a key of this seat in this game")


def _mac(key: bytes, domain: bytes, game_id: str, seat: int) -> bytes:
    """A seat key's MAC of ``game_id`` and ``seat`` under ``key``, as base64url bytes."""
    return _text(hmac.digest(key, domain + bytes.fromhex(game_id) + _SEAT.pack(seat), "sha256"))


def _legacy_mac(keyed: hmac.HMAC, game_id: str, seat: int) -> bytes:
    keyed.update(_LEGACY_DOMAIN + bytes.fromhex(game_id) + _SEAT.pack(seat))
    return _text(keyed.digest())


def _text(digest: bytes) -> bytes:
    return binascii.b2a_base64(digest[:MAC_BYTES], newline=False)[:MAC_CHARS].translate(_URLSAFE)
