"""Game tokens: a game state sealed (encrypted and authenticated) under the key ring's current key.

Format, version 3 (all integers big-endian; the contract's copy of this table is the
``SealedStateBinding`` comment in proto/splendor/v1/sealing.proto, and the clients read it)::

    offset        size  field
    0             1     version: 3
    1             1     n: length of the key id (1-32)
    2             n     key id (ASCII A-Z a-z 0-9 . _ -)
    2+n           16    game id (random; hex in SealedStateBinding.game_id)
    18+n          4     turn (GameState.turn)
    22+n          8     step (actions applied since the deal)
    30+n          1     flags: bit 0 public_deal (the deal came from a seed the caller chose); others 0
    31+n          1     acting seat (0-3), or 255 once the game is over
    32+n          8     expires_at: Unix time in seconds after which the token is refused; 0: never
    40+n          12    nonce (random)
    52+n          rest  AES-256-GCM-SIV ciphertext and 16-byte tag

The header (bytes 0 to 40+n) is the associated data: readable without the key (``read_header``)
and authenticated with the state, so a token whose header was altered does not open. The
plaintext is one byte s (0 or 32), the game's seat-key secret (s bytes: ``seat_keys.py``; 0 for a
game begun before version 3, whose seat keys are MACs under a ring key), then the serialized
``splendor.v1.GameState``, padded (ISO/IEC 7816-4: 0x80, then zeros) to a multiple of 32 bytes,
so the length reveals little beyond the public size of the game.

Older versions still open; only version 3 is sealed. Version 2 is bytes 0 to 31+n of the version-3
header (no acting seat, no expiry) and a plaintext without the secret; version 1 is version 2
without the flags byte, its deal counted as public (dealt from the caller's seed or from seed 0).

Why GCM-SIV rather than GCM: with random 96-bit nonces GCM is safe for about 2^32 tokens per key,
which a busy fleet issues within days; a repeated nonce under GCM-SIV only reveals that the two
tokens sealed the same input. Why no compression: zlib saves 15-25 % of a few hundred bytes, costs
more CPU than the encryption, and would make the length depend on the hidden deck order.
"""

from __future__ import annotations

import re
import secrets
import struct
from typing import Final, NamedTuple

from cryptography.exceptions import InvalidTag

from .errors import (
    KeyRetired,
    KeyUnknown,
    TokenExpired,
    TokenInvalid,
    TokenMalformed,
    TokenTooLarge,
    TokenVersionUnsupported,
)
from .keyring import KEY_ID_PATTERN, KeyRing
from .random_bytes import random_bytes

VERSION: Final = 3
VERSION_WITHOUT_SEAT_OR_EXPIRY: Final = 2
VERSION_WITHOUT_FLAGS: Final = 1
FLAG_PUBLIC_DEAL: Final = 0x01
NO_ACTING_SEAT: Final = 0xFF  # the acting-seat byte of a game that is over
GAME_ID_BYTES: Final = 16
NONCE_BYTES: Final = 12
TAG_BYTES: Final = 16
PAD_TO: Final = 32
SECRET_BYTES: Final = 32
# A replica whose clock runs up to this far ahead of the one that set a token's expiry never
# refuses it early: a token is refused once the clock reads more than this past expires_at.
EXPIRY_GRACE_SECONDS: Final = 60
# Tokens longer than this are refused before any work is done. The largest state seen in
# random play (benchmarks/token_sizes.py) seals to well under 1 KiB; 16 KiB leaves room for
# any game the rules allow while keeping the cost of a hostile token negligible.
MAX_TOKEN_BYTES: Final = 16 * 1024

_BINDING: Final = struct.Struct(">16sIQ")  # game id, turn, step
_SEAT_AND_EXPIRY: Final = struct.Struct(">BQ")  # acting seat, expires_at (version 3)
# The bytes each version's header has after the binding: flags (2, 3), acting seat and expiry (3).
_TAIL_BYTES: Final = {VERSION_WITHOUT_FLAGS: 0, VERSION_WITHOUT_SEAT_OR_EXPIRY: 1, VERSION: 1 + _SEAT_AND_EXPIRY.size}
_MIN_TOKEN_BYTES: Final = 2 + 1 + _BINDING.size + NONCE_BYTES + PAD_TO + TAG_BYTES  # version 1, shortest
_GAME_ID_HEX: Final = re.compile(r"[0-9a-f]{32}")
_UINT32: Final = 2**32
_UINT64: Final = 2**64
MAX_SEATS: Final = 4


class Binding(NamedTuple):
    """What a token is bound to: its readable header but the format version and key id
    (``splendor.v1.SealedStateBinding``)."""

    game_id: str  # 32 lowercase hex digits
    turn: int  # GameState.turn
    step: int  # actions applied since the deal
    public_deal: bool = False  # dealt from a seed the caller chose (or a version-1 token)
    acting_seat: int | None = None  # None once the game is over (and in a version-1 or 2 token: not recorded)
    expires_at: int = 0  # Unix seconds; 0: never


class Header(NamedTuple):
    """A token's readable header: its format version, the id of the key that sealed it, its binding."""

    version: int
    key_id: str
    binding: Binding


class Opened(NamedTuple):
    """An opened token: the serialized state, its binding, the id of the key that sealed it, the game's
    seat-key secret (empty for a game begun before version 3: its seat keys are MACs under a ring key)
    and the token's format version."""

    state_bytes: bytes
    binding: Binding
    key_id: str
    game_secret: bytes = b""
    version: int = VERSION

    @property
    def game_id(self) -> str:
        return self.binding.game_id

    @property
    def turn(self) -> int:
        return self.binding.turn

    @property
    def step(self) -> int:
        return self.binding.step


def new_game_id() -> str:
    """A fresh random game id (128 bits, hex)."""
    return secrets.token_hex(GAME_ID_BYTES)


def new_game_secret() -> bytes:
    """A fresh random seat-key secret for a new game (256 bits)."""
    return secrets.token_bytes(SECRET_BYTES)


def seal(ring: KeyRing, state_bytes: bytes, binding: Binding, game_secret: bytes = b"") -> bytes:
    """``state_bytes`` and ``game_secret`` sealed under the ring's current key, bound to ``binding``.

    Raises ValueError for a binding out of range, a secret that is neither empty nor
    ``SECRET_BYTES`` long, or a state too large to seal (never for a state the rules produce:
    see MAX_TOKEN_BYTES).
    """
    game_id, turn, step, public_deal, acting_seat, expires_at = binding
    if not _GAME_ID_HEX.fullmatch(game_id):
        raise ValueError("game_id must be 32 lowercase hex digits")
    if not 0 <= turn < _UINT32 or not 0 <= step < _UINT64 or not 0 <= expires_at < _UINT64:
        raise ValueError("turn must fit 32 bits, step and expires_at 64 bits")
    if acting_seat is not None and not 0 <= acting_seat < MAX_SEATS:
        raise ValueError(f"acting_seat must be a seat (0-{MAX_SEATS - 1}) or None once the game is over")
    if len(game_secret) not in (0, SECRET_BYTES):
        raise ValueError(f"a game secret is {SECRET_BYTES} bytes (or empty for a game without one)")
    key_id = ring.current_id.encode("ascii")
    header = b"".join(
        (
            bytes((VERSION, len(key_id))),
            key_id,
            _BINDING.pack(bytes.fromhex(game_id), turn, step),
            bytes((FLAG_PUBLIC_DEAL if public_deal else 0,)),
            _SEAT_AND_EXPIRY.pack(NO_ACTING_SEAT if acting_seat is None else acting_seat, expires_at),
        )
    )
    nonce = random_bytes.take(NONCE_BYTES)
    content = bytes((len(game_secret),)) + game_secret + state_bytes
    padding = PAD_TO - len(content) % PAD_TO
    plaintext = content + b"\x80" + bytes(padding - 1)
    token = header + nonce + ring.cipher(ring.current_id).encrypt(nonce, plaintext, header)
    if len(token) > MAX_TOKEN_BYTES:
        raise ValueError(f"a state of {len(state_bytes)} bytes seals to more than MAX_TOKEN_BYTES")
    return token


def unseal(ring: KeyRing, token: bytes) -> Opened:
    """The state, binding and game secret sealed in ``token``; a SealingError subclass names why it does not open.

    The clock is not read here: whoever serves a token also calls ``check_expiry`` on its binding.
    """
    raw, (version, key_id, binding) = _parse_header(token)
    if key_id in ring.retired:
        raise KeyRetired(f"the token was sealed with the retired key {key_id!r}")
    if key_id not in ring.keys:
        raise KeyUnknown(
            f"the token was sealed with key {key_id!r}, which this service does not hold: if keys are being "
            "rotated, a step was probably skipped (a new key must be on every replica's ring, opening, before "
            "any replica seals with it)"
        )
    nonce = token[len(raw) : len(raw) + NONCE_BYTES]
    try:
        plaintext = ring.cipher(key_id).decrypt(nonce, token[len(raw) + NONCE_BYTES :], raw)
    except InvalidTag:
        raise TokenInvalid("the token fails authentication: it was altered or sealed with another key") from None
    content = plaintext.rstrip(b"\x00")
    # Only a key holder could produce what follows: a bug or a misused key.
    if not content.endswith(b"\x80"):
        raise TokenInvalid("the token's content is not padded as sealed tokens are")
    content = content[:-1]
    if version < VERSION:
        return Opened(content, binding, key_id, version=version)
    secret_length = content[0] if content else -1
    if secret_length not in (0, SECRET_BYTES) or len(content) < 1 + secret_length:
        raise TokenInvalid("the token's content does not start with a game secret")
    return Opened(content[1 + secret_length :], binding, key_id, content[1 : 1 + secret_length])


def check_expiry(binding: Binding, now: float) -> None:
    """TokenExpired when the token of ``binding`` is past its expiry at Unix time ``now`` (beyond the grace)."""
    expires_at = binding.expires_at
    if expires_at and now > expires_at + EXPIRY_GRACE_SECONDS:
        raise TokenExpired(f"the game's tokens expired at {expires_at} (Unix time)")


def read_header(token: bytes) -> Header:
    """A token's readable header, WITHOUT authenticating it: for a platform's bookkeeping
    (e.g. refusing a stale step before forwarding a token), never a substitute for ``unseal``.
    Raises TokenMalformed, TokenTooLarge or TokenVersionUnsupported."""
    return _parse_header(token)[1]


def read_binding(token: bytes) -> Binding:
    """The binding in a token's header, unauthenticated (see ``read_header``)."""
    return _parse_header(token)[1].binding


def _parse_header(token: bytes) -> tuple[bytes, Header]:
    """The header's bytes (the associated data) and what they say."""
    if len(token) > MAX_TOKEN_BYTES:
        raise TokenTooLarge(f"the token is {len(token)} bytes; tokens are at most {MAX_TOKEN_BYTES}")
    if not token:
        raise TokenMalformed("the token is empty")
    version = token[0]
    tail_bytes = _TAIL_BYTES.get(version)
    if tail_bytes is None:
        raise TokenVersionUnsupported(f"token format version {version} is not supported (this service reads 1 to 3)")
    if len(token) < _MIN_TOKEN_BYTES:
        raise TokenMalformed(f"the token is {len(token)} bytes, shorter than any token")
    key_id_length = token[1]
    binding_at = 2 + key_id_length
    tail_at = binding_at + _BINDING.size
    header_length = tail_at + tail_bytes
    if len(token) < header_length + NONCE_BYTES + PAD_TO + TAG_BYTES:
        raise TokenMalformed("the token is truncated")
    key_id = token[2:binding_at].decode("ascii", errors="replace")
    if not KEY_ID_PATTERN.fullmatch(key_id):
        raise TokenMalformed("the token's key id is malformed")
    game_id, turn, step = _BINDING.unpack_from(token, binding_at)
    binding = Binding(game_id.hex(), turn, step, public_deal=True)  # version 1: dealt from the caller's seed or 0
    if tail_bytes:
        flags = token[tail_at]
        if flags & ~FLAG_PUBLIC_DEAL:
            raise TokenMalformed("the token's flags are not any this service sets")
        binding = binding._replace(public_deal=bool(flags & FLAG_PUBLIC_DEAL))
    if version == VERSION:
        seat, expires_at = _SEAT_AND_EXPIRY.unpack_from(token, tail_at + 1)
        if seat >= MAX_SEATS and seat != NO_ACTING_SEAT:
            raise TokenMalformed("the token's acting seat is not a seat")
        binding = binding._replace(acting_seat=None if seat == NO_ACTING_SEAT else seat, expires_at=expires_at)
    return token[:header_length], Header(version, key_id, binding)
