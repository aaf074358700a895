"""Sealed game tokens: a game state encrypted and authenticated under the service's key ring.

    ring = load_key_ring(keys_text, keys_file)     # or KeyRing.generate()
    token = seal(ring, state_bytes, Binding(new_game_id(), turn=0, step=0))
    opened = unseal(ring, token)                    # raises a SealingError subclass
    keys = issue_seat_keys(ring, game_id, 4)        # seat keys (seat_keys.py)

Pure: no gRPC, no protobuf, no logging. The token format is in ``token.py``, the key ring's
text format and rotation in ``keyring.py``.
"""

from .errors import (
    KeyRetired,
    KeyRingError,
    KeyUnknown,
    SealingError,
    TokenInvalid,
    TokenMalformed,
    TokenTooLarge,
    TokenVersionUnsupported,
)
from .keyring import EXAMPLE_KEYS, KEY_BYTES, KeyRing, load_key_ring, new_key_line, parse_key_ring
from .seat_keys import SeatKeyInvalid, check_seat_key, issue_seat_keys
from .token import MAX_TOKEN_BYTES, VERSION, Binding, Opened, new_game_id, read_binding, seal, unseal

__all__ = [
    "EXAMPLE_KEYS",
    "KEY_BYTES",
    "MAX_TOKEN_BYTES",
    "VERSION",
    "Binding",
    "KeyRetired",
    "KeyRing",
    "KeyRingError",
    "KeyUnknown",
    "Opened",
    "SealingError",
    "SeatKeyInvalid",
    "TokenInvalid",
    "TokenMalformed",
    "TokenTooLarge",
    "TokenVersionUnsupported",
    "check_seat_key",
    "issue_seat_keys",
    "load_key_ring",
    "new_key_line",
    "new_game_id",
    "parse_key_ring",
    "read_binding",
    "seal",
    "unseal",
]
