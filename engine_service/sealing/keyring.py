"""The key ring: the current key seals, older keys still open, retired keys are refused.

Text format (file ``--sealing-keys-file`` or variable ``SPLENDOR_SEALING_KEYS``), one entry
per line (commas also separate entries, for a one-line variable); blank lines and lines
starting with ``#`` are ignored::

    # newest first: the first key seals, every key listed opens
    2026-06:q0Zl2m3...base64 of 32 random bytes...=
    2026-01:Vh1Wc9...=
    2025-09:retired

- ``KEY_ID:BASE64`` is a key: a 256-bit key in standard base64 (``openssl rand -base64 32``).
  Key ids are 1-32 characters of ``A-Z a-z 0-9 . _ -`` and are written into every token.
- ``KEY_ID:retired`` retires a key: its tokens are refused as SEALED_STATE_KEY_RETIRED
  (removing the line instead refuses them as SEALED_STATE_KEY_UNKNOWN).
- The first entry must be a key: it seals every new token.

Rotation: add the new key as the second line on every replica, then move it first once every
replica has it, then retire the old key. Every move re-seals a game's token under the first key,
and a game's seat keys depend on no ring key (``seat_keys.py``), so a game that moved since the
new key became first plays on after the old key is retired; a token left unplayed since is
refused as retired, as are the seat keys of games dealt before token version 3.
"""

from __future__ import annotations

import binascii
import hashlib
import hmac
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Final

from cryptography.hazmat.primitives.ciphers.aead import AESGCMSIV

from .derived_keys import SEAT_KEY_MAC_INFO, derive_key
from .errors import KeyRingError

KEY_BYTES: Final = 32  # AES-256
KEY_ID_PATTERN: Final = re.compile(r"[A-Za-z0-9._-]{1,32}")
RETIRED: Final = "retired"
# The key of deploy/kubernetes/secret.example.yaml: published, so it protects nothing.
# A ring holding it says so (uses_example_key): the server refuses to start with it unless told
# the setup is a throwaway one (--allow-example-key).
EXAMPLE_KEYS: Final = frozenset({b"EXAMPLE-KEY-DO-NOT-USE-IN-PROD!!"})


@dataclass(frozen=True)
class KeyRing:
    """Keys by id. ``current_id`` seals; every id in ``keys`` opens; ``retired`` ids are refused.

    ``generated``: the ring was made at start-up because none was configured, so its key
    lives only in this process (and its forked workers): other replicas cannot open its
    tokens and a restart invalidates every game in flight.
    """

    current_id: str
    keys: Mapping[str, bytes] = field(repr=False)
    retired: frozenset[str] = frozenset()
    generated: bool = False
    # One cipher per key, built once: building one costs more than sealing a state.
    _ciphers: Mapping[str, AESGCMSIV] = field(init=False, repr=False, compare=False)
    # The seat keys' MAC of each key: its derived key (HKDF is slower than the MAC itself) in an HMAC keyed
    # once, which each check copies (cheaper than keying a new one).
    _seat_macs: Mapping[str, hmac.HMAC] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.current_id not in self.keys:
            raise KeyRingError(f"the current key {self.current_id!r} is not among the keys")
        for key_id, key in self.keys.items():
            if not KEY_ID_PATTERN.fullmatch(key_id):
                raise KeyRingError(f"key id {key_id!r} must be 1-32 characters of A-Z a-z 0-9 . _ -")
            if len(key) != KEY_BYTES:
                raise KeyRingError(f"key {key_id!r} is {len(key)} bytes; a key is {KEY_BYTES} random bytes")
        if overlap := self.retired & self.keys.keys():
            raise KeyRingError(f"key ids both listed and retired: {', '.join(sorted(overlap))}")
        object.__setattr__(self, "keys", MappingProxyType(dict(self.keys)))
        object.__setattr__(self, "_ciphers", {key_id: AESGCMSIV(key) for key_id, key in self.keys.items()})
        macs = {
            key_id: hmac.new(derive_key(key, SEAT_KEY_MAC_INFO), digestmod=hashlib.sha256)
            for key_id, key in self.keys.items()
        }
        object.__setattr__(self, "_seat_macs", macs)

    def cipher(self, key_id: str) -> AESGCMSIV:
        """The AEAD of the key ``key_id`` (KeyError if the ring does not hold it)."""
        return self._ciphers[key_id]

    def seat_mac(self, key_id: str) -> hmac.HMAC | None:
        """A fresh HMAC-SHA256 keyed with the seat keys' MAC key of ``key_id``; None if the ring does not hold it."""
        keyed = self._seat_macs.get(key_id)
        return None if keyed is None else keyed.copy()

    @property
    def uses_example_key(self) -> bool:
        """True if a key is the published example key (anyone can forge tokens under it)."""
        return any(key in EXAMPLE_KEYS for key in self.keys.values())

    @classmethod
    def generate(cls) -> KeyRing:
        """A ring of one fresh random key under a random id, flagged ``generated``."""
        key_id = f"ephemeral-{secrets.token_hex(4)}"
        return cls(current_id=key_id, keys={key_id: secrets.token_bytes(KEY_BYTES)}, generated=True)


def new_key_line(key_id: str = "") -> str:
    """A ring entry ``KEY_ID:BASE64`` of a fresh random key (``key_id``: a random one when empty)."""
    key_id = key_id or f"key-{secrets.token_hex(4)}"
    if not KEY_ID_PATTERN.fullmatch(key_id):
        raise KeyRingError(f"key id {key_id!r} must be 1-32 characters of A-Z a-z 0-9 . _ -")
    return f"{key_id}:{binascii.b2a_base64(secrets.token_bytes(KEY_BYTES), newline=False).decode('ascii')}"


def parse_key_ring(text: str, source: str = "key ring") -> KeyRing:
    """The ring described by ``text`` (format in the module docstring); KeyRingError names the faulty entry."""
    keys: dict[str, bytes] = {}
    retired: set[str] = set()
    current_id = ""
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        for entry in filter(None, (part.strip() for part in stripped.split(","))):
            where = f"{source}, line {number}"
            key_id, separator, value = entry.partition(":")
            key_id, value = key_id.strip(), value.strip()
            if not separator or not value:
                # Never echo the entry: it may be a bare key.
                raise KeyRingError(f"{where}: expected KEY_ID:BASE64KEY or KEY_ID:{RETIRED}")
            if not KEY_ID_PATTERN.fullmatch(key_id):
                raise KeyRingError(f"{where}: key id {key_id!r} must be 1-32 characters of A-Z a-z 0-9 . _ -")
            if key_id in keys or key_id in retired:
                raise KeyRingError(f"{where}: key id {key_id!r} is listed twice")
            if value == RETIRED:
                if not current_id:
                    raise KeyRingError(f"{where}: the first entry seals new tokens, so it must be a key, not retired")
                retired.add(key_id)
                continue
            keys[key_id] = _decode_key(value, where, key_id)
            current_id = current_id or key_id
    if not current_id:
        raise KeyRingError(f"{source}: no key (expected lines KEY_ID:BASE64KEY, the first one sealing)")
    return KeyRing(current_id=current_id, keys=keys, retired=frozenset(retired))


def load_key_ring(keys_text: str = "", keys_file: str = "") -> KeyRing:
    """The configured ring: from ``keys_text`` or the file ``keys_file`` (at most one), else a generated one."""
    if keys_text.strip() and keys_file:
        raise KeyRingError("sealing keys come from a file or from the variable, not both")
    if keys_file:
        try:
            text = Path(keys_file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise KeyRingError(f"cannot read the sealing keys file {keys_file}: {error}") from None
        return parse_key_ring(text, source=keys_file)
    if keys_text.strip():
        return parse_key_ring(keys_text, source="SPLENDOR_SEALING_KEYS")
    return KeyRing.generate()


def _decode_key(value: str, where: str, key_id: str) -> bytes:
    try:
        key = binascii.a2b_base64(value, strict_mode=True)
    except binascii.Error:
        raise KeyRingError(f"{where}: the key of {key_id!r} is not valid base64") from None
    if len(key) != KEY_BYTES:
        raise KeyRingError(
            f"{where}: the key of {key_id!r} is {len(key)} bytes; a key is {KEY_BYTES} random bytes "
            "(e.g. `openssl rand -base64 32`)"
        )
    return key
