"""Sealed game tokens: a game state encrypted and authenticated under the service's key ring.

    ring = load_key_ring(keys_text, keys_file)      # or KeyRing.generate()
    secret = new_game_secret()                      # the game's seat-key secret, sealed in its tokens
    token = seal(ring, state_bytes, Binding(new_game_id(), turn=0, step=0, acting_seat=0), secret)
    opened = unseal(ring, token)                    # raises a SealingError subclass
    check_expiry(opened.binding, time.time())       # raises TokenExpired
    keys = issue_seat_keys(secret, game_id, 4)      # seat keys (seat_keys.py)

Pure: no gRPC, no protobuf, no logging. The token format is in ``token.py``, the key ring's
text format and rotation in ``keyring.py``.
"""

from .errors import (
    KeyRetired,
    KeyRingError,
    KeyUnknown,
    SealingError,
    TokenExpired,
    TokenInvalid,
    TokenMalformed,
    TokenTooLarge,
    TokenVersionUnsupported,
)
from .keyring import EXAMPLE_KEYS, KEY_BYTES, KeyRing, load_key_ring, new_key_line, parse_key_ring
from .seat_keys import (
    SeatKeyInvalid,
    SeatKeyRefused,
    SeatKeyRetired,
    check_seat_key,
    issue_seat_keys,
    legacy_seat_key,
)
from .token import (
    EXPIRY_GRACE_SECONDS,
    MAX_TOKEN_BYTES,
    VERSION,
    Binding,
    Header,
    Opened,
    check_expiry,
    new_game_id,
    new_game_secret,
    read_binding,
    read_header,
    seal,
    unseal,
)

__all__ = [
    "EXAMPLE_KEYS",
    "EXPIRY_GRACE_SECONDS",
    "KEY_BYTES",
    "MAX_TOKEN_BYTES",
    "VERSION",
    "Binding",
    "Header",
    "KeyRetired",
    "KeyRing",
    "KeyRingError",
    "KeyUnknown",
    "Opened",
    "SealingError",
    "SeatKeyInvalid",
    "SeatKeyRefused",
    "SeatKeyRetired",
    "TokenExpired",
    "TokenInvalid",
    "TokenMalformed",
    "TokenTooLarge",
    "TokenVersionUnsupported",
    "check_expiry",
    "check_seat_key",
    "issue_seat_keys",
    "legacy_seat_key",
    "load_key_ring",
    "new_game_id",
    "new_game_secret",
    "new_key_line",
    "parse_key_ring",
    "read_binding",
    "read_header",
    "seal",
    "unseal",
]
