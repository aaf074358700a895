"""Keys derived from a ring key for other purposes than sealing, so no other use ever touches the AES key.

Each purpose has its own HKDF-SHA256 ``info`` label: keys derived for two purposes are
independent, and knowing one tells nothing of the ring key or of the other.
"""

from __future__ import annotations

from typing import Final

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

DERIVED_KEY_BYTES: Final = 32
# The MAC key of seat keys (seat_keys.py).
SEAT_KEY_MAC_INFO: Final = b"splendor.v1 seat-key mac key"


def derive_key(ring_key: bytes, info: bytes) -> bytes:
    """The key of purpose ``info`` derived from ``ring_key`` (HKDF-SHA256, no salt: the ring key is uniform)."""
    return HKDF(algorithm=hashes.SHA256(), length=DERIVED_KEY_BYTES, salt=None, info=info).derive(ring_key)
