"""Why a token did not open, and why a key ring could not be read.

Each refusal of a token is its own exception type carrying ``reason``: the
``RejectionReason`` name (without its prefix) the service reports, so a caller
maps the exception to a status without inspecting messages.
"""

from __future__ import annotations

from typing import ClassVar


class SealingError(Exception):
    """A token that does not open. ``reason`` is its ``RejectionReason`` name."""

    reason: ClassVar[str] = "SEALED_STATE_INVALID"


class TokenMalformed(SealingError):
    """Empty, truncated, or a header that is not a token's."""

    reason = "SEALED_STATE_MALFORMED"


class TokenTooLarge(SealingError):
    """Longer than any token the service issues (``MAX_TOKEN_BYTES``)."""

    reason = "SEALED_STATE_TOO_LARGE"


class TokenVersionUnsupported(SealingError):
    """A format version this code does not read."""

    reason = "SEALED_STATE_VERSION_UNSUPPORTED"


class KeyUnknown(SealingError):
    """Sealed under a key id the ring does not hold."""

    reason = "SEALED_STATE_KEY_UNKNOWN"


class KeyRetired(SealingError):
    """Sealed under a key id the ring marks retired."""

    reason = "SEALED_STATE_KEY_RETIRED"


class TokenExpired(SealingError):
    """Authentic, but past the expiry its game was given at CreateGame (``token.check_expiry``)."""

    reason = "SEALED_STATE_EXPIRED"


class TokenInvalid(SealingError):
    """Fails authentication: altered, or sealed with another key under the same id."""

    reason = "SEALED_STATE_INVALID"


class KeyRingError(ValueError):
    """A key ring that cannot be used; the message names the line and what is wrong."""
