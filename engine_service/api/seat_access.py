"""Who may look and act as a seat of a sealed game: the holder of its seat key.

A sealed request that names a seat, or acts (as the seat it names, else as the seat that must
act), must carry that seat's key (``seat_key``), else PERMISSION_DENIED: SEAT_KEY_MISSING,
SEAT_KEY_INVALID, or SEAT_KEY_RETIRED (a key of a game begun before token version 3, MACed under
a ring key since retired), pointing at ``seat_key``. A request that only looks and names no seat
is a spectator's and needs no key. The check runs as soon as the token is open, before anything
that depends on the hidden state, and its refusal says nothing but the seat it was asked for.
Plain states (a trusted platform's) and a server configured without seat keys skip it. A key found
valid, or handed out by a new game, is remembered (``state_memo.py``): its game's next calls skip the MAC.
"""

from __future__ import annotations

from engine_service.sealing import SeatKeyRefused, SeatKeyRetired, check_seat_key, issue_seat_keys

from .call import Call
from .errors import SEAT_KEY_MISSING, refusal
from .source import Game

FIELD = "seat_key"


def require_seat_key(game: Game, seat: int | None, key: str, call: Call, field: str = FIELD) -> None:
    """PERMISSION_DENIED unless ``key`` is the key of ``seat`` (None: a spectator, who needs none) in ``game``;
    ``field``: the request field that carries it."""
    binding = game.binding
    if seat is None or binding is None or not call.settings.seat_keys:
        return
    metadata = {"seat": str(seat)}
    if not key:
        message = f"a sealed request for seat {seat} must carry that seat's key (seat_key)"
        raise refusal(SEAT_KEY_MISSING, message, field=field, metadata=metadata)
    config = call.settings
    ring, memo, secret = config.key_ring, config.memo, game.game_secret
    if memo.enabled and memo.seat_key_known(ring, binding.game_id, secret, seat, key):
        return
    try:
        check_seat_key(ring, binding.game_id, secret, seat, key)
    except SeatKeyRefused as refused:
        message = (
            str(refused)
            if isinstance(refused, SeatKeyRetired)
            else f"seat_key is not the key of seat {seat} in this game"
        )
        raise refusal(refused.reason, message, field=field, metadata=metadata) from None
    if memo.enabled:
        memo.remember_seat_key(ring, binding.game_id, secret, seat, key)


def seat_keys_of(game_id: str, game_secret: bytes, num_players: int, call: Call) -> list[str]:
    """The keys a new sealed game hands out, one per seat (remembered as valid: the game's calls bring them)."""
    config = call.settings
    keys = issue_seat_keys(game_secret, game_id, num_players)
    if config.memo.enabled:
        for seat, key in enumerate(keys):
            config.memo.remember_seat_key(config.key_ring, game_id, game_secret, seat, key)
    return keys
