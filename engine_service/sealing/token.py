"""Game tokens: a game state sealed (encrypted and authenticated) under the key ring's current key.

Format, version 2 (all integers big-endian)::

    offset        size  field
    0             1     version: 2
    1             1     n: length of the key id (1-32)
    2             n     key id (ASCII A-Z a-z 0-9 . _ -)
    2+n           16    game id (random; hex in SealedStateBinding.game_id)
    18+n          4     turn (GameState.turn)
    22+n          8     step (actions applied since the deal)
    30+n          1     flags: bit 0 public_deal (the deal came from a seed the caller chose); others 0
    31+n          12    nonce (random)
    43+n          rest  AES-256-GCM-SIV ciphertext and 16-byte tag

The header (bytes 0 to 31+n) is the associated data: readable without the key (``read_binding``)
and authenticated with the state, so a token whose game id, turn, step or flags were altered does
not open. Version 1 is version 2 without the flags byte; its tokens still open, as public deals
(they were dealt from the caller's seed or from seed 0). Only version 2 is sealed.
The plaintext is the serialized ``splendor.v1.GameState`` padded (ISO/IEC 7816-4: 0x80, then zeros)
to a multiple of 32 bytes, so the length reveals little beyond the public size of the game.

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

from .errors import KeyRetired, KeyUnknown, TokenInvalid, TokenMalformed, TokenTooLarge, TokenVersionUnsupported
from .keyring import KEY_ID_PATTERN, KeyRing
from .random_bytes import random_bytes

VERSION: Final = 2
VERSION_WITHOUT_FLAGS: Final = 1
FLAG_PUBLIC_DEAL: Final = 0x01
GAME_ID_BYTES: Final = 16
NONCE_BYTES: Final = 12
TAG_BYTES: Final = 16
PAD_TO: Final = 32
# Tokens longer than this are refused before any work is done. The largest state seen in
# random play (benchmarks/token_sizes.py) seals to well under 1 KiB; 16 KiB leaves room for
# any game the rules allow while keeping the cost of a hostile token negligible.
MAX_TOKEN_BYTES: Final = 16 * 1024

_BINDING: Final = struct.Struct(">16sIQ")  # game id, turn, step
_FLAGS_BYTES: Final = {VERSION_WITHOUT_FLAGS: 0, VERSION: 1}
_MIN_TOKEN_BYTES: Final = 2 + 1 + _BINDING.size + NONCE_BYTES + PAD_TO + TAG_BYTES  # without flags: version 1
_GAME_ID_HEX: Final = re.compile(r"[0-9a-f]{32}")
_UINT32: Final = 2**32
_UINT64: Final = 2**64


class Binding(NamedTuple):
    """What a token is bound to (``splendor.v1.SealedStateBinding``)."""

    game_id: str  # 32 lowercase hex digits
    turn: int  # GameState.turn
    step: int  # actions applied since the deal
    public_deal: bool = False  # dealt from a seed the caller chose (or a version-1 token)


class Opened(NamedTuple):
    """An opened token: the serialized state, its binding and the id of the key that sealed it."""

    state_bytes: bytes
    game_id: str
    turn: int
    step: int
    key_id: str
    public_deal: bool = False

    @property
    def binding(self) -> Binding:
        return Binding(self.game_id, self.turn, self.step, self.public_deal)


def new_game_id() -> str:
    """A fresh random game id (128 bits, hex)."""
    return secrets.token_hex(GAME_ID_BYTES)


def seal(ring: KeyRing, state_bytes: bytes, binding: Binding) -> bytes:
    """``state_bytes`` sealed under the ring's current key and bound to ``binding``.

    Raises ValueError for a binding out of range or a state too large to seal (never for a
    state the rules produce: see MAX_TOKEN_BYTES).
    """
    game_id, turn, step, public_deal = binding
    if not _GAME_ID_HEX.fullmatch(game_id):
        raise ValueError("game_id must be 32 lowercase hex digits")
    if not 0 <= turn < _UINT32 or not 0 <= step < _UINT64:
        raise ValueError("turn must fit 32 bits and step 64 bits")
    key_id = ring.current_id.encode("ascii")
    flags = bytes((FLAG_PUBLIC_DEAL if public_deal else 0,))
    header = bytes((VERSION, len(key_id))) + key_id + _BINDING.pack(bytes.fromhex(game_id), turn, step) + flags
    nonce = random_bytes.take(NONCE_BYTES)
    padding = PAD_TO - len(state_bytes) % PAD_TO
    plaintext = state_bytes + b"\x80" + bytes(padding - 1)
    token = header + nonce + ring.cipher(ring.current_id).encrypt(nonce, plaintext, header)
    if len(token) > MAX_TOKEN_BYTES:
        raise ValueError(f"a state of {len(state_bytes)} bytes seals to more than MAX_TOKEN_BYTES")
    return token


def unseal(ring: KeyRing, token: bytes) -> Opened:
    """The state and binding sealed in ``token``; a SealingError subclass names why it does not open."""
    header, key_id, binding = _parse_header(token)
    if key_id in ring.retired:
        raise KeyRetired(f"the token was sealed with the retired key {key_id!r}")
    if key_id not in ring.keys:
        raise KeyUnknown(f"the token was sealed with key {key_id!r}, which this service does not hold")
    nonce = token[len(header) : len(header) + NONCE_BYTES]
    try:
        plaintext = ring.cipher(key_id).decrypt(nonce, token[len(header) + NONCE_BYTES :], header)
    except InvalidTag:
        raise TokenInvalid("the token fails authentication: it was altered or sealed with another key") from None
    state_bytes = plaintext.rstrip(b"\x00")
    if not state_bytes.endswith(b"\x80"):  # only a key holder could produce this: a bug or a misused key
        raise TokenInvalid("the token's content is not padded as sealed tokens are")
    return Opened(state_bytes[:-1], binding.game_id, binding.turn, binding.step, key_id, binding.public_deal)


def read_binding(token: bytes) -> Binding:
    """The binding in a token's header, WITHOUT authenticating it: for a platform's bookkeeping
    (e.g. refusing a stale step before forwarding a token), never a substitute for ``unseal``."""
    return _parse_header(token)[2]


def _parse_header(token: bytes) -> tuple[bytes, str, Binding]:
    if len(token) > MAX_TOKEN_BYTES:
        raise TokenTooLarge(f"the token is {len(token)} bytes; tokens are at most {MAX_TOKEN_BYTES}")
    if not token:
        raise TokenMalformed("the token is empty")
    version = token[0]
    flags_bytes = _FLAGS_BYTES.get(version)
    if flags_bytes is None:
        raise TokenVersionUnsupported(f"token format version {version} is not supported (this service reads 1 and 2)")
    if len(token) < _MIN_TOKEN_BYTES:
        raise TokenMalformed(f"the token is {len(token)} bytes, shorter than any token")
    key_id_length = token[1]
    header_length = 2 + key_id_length + _BINDING.size + flags_bytes
    if len(token) < header_length + NONCE_BYTES + PAD_TO + TAG_BYTES:
        raise TokenMalformed("the token is truncated")
    raw_key_id = token[2 : 2 + key_id_length]
    key_id = raw_key_id.decode("ascii", errors="replace")
    if not KEY_ID_PATTERN.fullmatch(key_id):
        raise TokenMalformed("the token's key id is malformed")
    game_id, turn, step = _BINDING.unpack_from(token, 2 + key_id_length)
    public_deal = True  # version 1: dealt from the caller's seed or seed 0
    if flags_bytes:
        flags = token[header_length - 1]
        if flags & ~FLAG_PUBLIC_DEAL:
            raise TokenMalformed("the token's flags are not any this service sets")
        public_deal = bool(flags & FLAG_PUBLIC_DEAL)
    return token[:header_length], key_id, Binding(game_id.hex(), turn, step, public_deal)
