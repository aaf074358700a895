"""The seed of the server's own sampling (Determinize, Simulate, server-side bots).

In plain mode the request's seed is used as sent, so a trusted caller reproduces its samples.
In sealed mode it is mixed with bits the caller neither sends nor sees, drawn afresh for each
call: a caller who knows the seed it sent cannot replay the server's draws. (The samples carry
nothing of the hidden truth anyway: ``engine_service.bots.determinize`` deals from a canonical
order; this is the second lock.)
"""

from __future__ import annotations

import secrets
from typing import Final

SEED_BITS: Final = 64


def server_entropy() -> int:
    """Fresh bits from the operating system's CSPRNG (a test pins them by replacing this function)."""
    return secrets.randbits(SEED_BITS)


def sampling_seed(request_seed: int, sealed: bool) -> int:
    """The seed a sampling call uses: ``request_seed`` itself in plain mode, mixed with fresh entropy when sealed."""
    if not sealed:
        return request_seed
    return request_seed ^ server_entropy()  # looked up at call time, so a pinned function is used
