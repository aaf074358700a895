"""Read a game token's header: its format version, key id and binding, without any key and without the engine.

>>> from splendor_client import connect, read_token_header
>>> with connect("127.0.0.1:50051") as client:
...     game = client.new_game(num_players=2, first_seat=1, sealed=True)
>>> header = read_token_header(game.token)
>>> header.version, header.binding.step, header.acting_seat, header.binding == game.binding
(3, 0, 1, True)

The header is in clear so that a platform can do its bookkeeping without opening tokens: refuse a
rewind (a step other than the newest it handed out), route a game, see whose turn it is or when
the game expires. It is authenticated inside the token, so a token whose header was altered does
not open; but reading it here checks nothing: only the engine can tell an authentic token. The
layout is the one ``SealedStateBinding`` documents in ``splendor/v1/sealing.proto`` (versions 1 to 3).
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from typing import Final

from splendor.v1 import sealing_pb2

MAX_TOKEN_BYTES: Final = 16 * 1024
NONCE_BYTES: Final = 12
MIN_SEALED_BYTES: Final = 48  # the shortest ciphertext and tag: one 32-byte block and the 16-byte tag
NO_ACTING_SEAT: Final = 255
FLAG_PUBLIC_DEAL: Final = 0x01
_KEY_ID: Final = re.compile(rb"[A-Za-z0-9._-]{1,32}")
_BINDING: Final = struct.Struct(">16sIQ")  # game id, turn, step
_SEAT_AND_EXPIRY: Final = struct.Struct(">BQ")
# The bytes each version's header has after the binding: flags (2, 3), then acting seat and expiry (3).
_TAIL_BYTES: Final = {1: 0, 2: 1, 3: 1 + _SEAT_AND_EXPIRY.size}


class TokenHeaderError(ValueError):
    """Bytes that are not a game token's header; ``reason`` names the engine's refusal for the same bytes
    (``SEALED_STATE_MALFORMED``, ``SEALED_STATE_TOO_LARGE`` or ``SEALED_STATE_VERSION_UNSUPPORTED``)."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True)
class TokenHeader:
    """A token's readable header. ``binding`` is what the engine returns next to the token
    (``sealed_state_binding``): game id, turn, step, public deal, acting seat (absent once the game is
    over, and in a version 1 or 2 header, which does not record it) and expiry (0: never)."""

    version: int
    key_id: str
    binding: sealing_pb2.SealedStateBinding

    @property
    def acting_seat(self) -> int | None:
        """The seat that must act; None once the game is over (or not recorded: version 1 or 2)."""
        return self.binding.acting_seat if self.binding.HasField("acting_seat") else None


def read_token_header(token: bytes) -> TokenHeader:
    """The header of ``token``, unauthenticated; ``TokenHeaderError`` for bytes no engine issued as a token."""
    if len(token) > MAX_TOKEN_BYTES:
        raise TokenHeaderError("SEALED_STATE_TOO_LARGE", f"{len(token)} bytes: tokens are at most {MAX_TOKEN_BYTES}")
    if not token:
        raise TokenHeaderError("SEALED_STATE_MALFORMED", "the token is empty")
    version = token[0]
    tail_bytes = _TAIL_BYTES.get(version)
    if tail_bytes is None:
        raise TokenHeaderError("SEALED_STATE_VERSION_UNSUPPORTED", f"token format version {version} is not 1 to 3")
    key_id_end = 2 + token[1] if len(token) > 1 else 2
    tail_at = key_id_end + _BINDING.size
    header_length = tail_at + tail_bytes
    if len(token) < header_length + NONCE_BYTES + MIN_SEALED_BYTES:
        raise TokenHeaderError("SEALED_STATE_MALFORMED", "the token is truncated")
    key_id = token[2:key_id_end]
    if not _KEY_ID.fullmatch(key_id):
        raise TokenHeaderError("SEALED_STATE_MALFORMED", "the token's key id is malformed")
    game_id, turn, step = _BINDING.unpack_from(token, key_id_end)
    binding = sealing_pb2.SealedStateBinding(game_id=game_id.hex(), turn=turn, step=step, public_deal=True)
    if tail_bytes:
        flags = token[tail_at]
        if flags & ~FLAG_PUBLIC_DEAL:
            raise TokenHeaderError("SEALED_STATE_MALFORMED", "the token's flags are not any the engine sets")
        binding.public_deal = bool(flags & FLAG_PUBLIC_DEAL)
    if version == 3:
        seat, expires_at = _SEAT_AND_EXPIRY.unpack_from(token, tail_at + 1)
        if seat > 3 and seat != NO_ACTING_SEAT:
            raise TokenHeaderError("SEALED_STATE_MALFORMED", "the token's acting seat is not a seat")
        if seat != NO_ACTING_SEAT:
            binding.acting_seat = seat
        binding.expires_at = expires_at
    return TokenHeader(version, key_id.decode("ascii"), binding)
