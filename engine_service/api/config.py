"""What a transport configures in the API for its calls: the key ring, the size bounds, the bots' search bound,
whether sealed requests must carry seat keys, the memo of states already checked, and the clock tokens expire by.

A transport builds one ``ApiConfig`` at start-up and attaches it to every ``Call``
(``Call.config``); a call without one (a library user calling a handler directly) gets the
process's default: a generated key ring and the default bounds.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from engine_service.sealing import KeyRing

from .state_memo import StateMemo

# The ReplayGame bound. The rules bound no game without a turn limit (a seat may take gems and
# give them back forever), so the bound is a game far longer than any played: DEFAULT_REPLAY_TURNS
# turns of at most MAX_ACTIONS_PER_TURN actions each. A turn is a main action and the decisions it
# opens, each at most once except where a module chains them: return tokens, a noble, a city, a
# Trading Posts gem, the Strongholds' placement, conquest and second placement, the Orient's
# pairing, free card, its own pairing and a reserved noble: 1 + 9. Uniformly random play, whose
# games are longer than real ones (random players seldom buy), ends within 190 turns and 280
# actions, with at most 5 actions in a turn (benchmarks/game_lengths.py, 60 games of each module
# and player count): the default, 10,000 actions, is over 35 times the longest game seen.
MAX_ACTIONS_PER_TURN: Final = 10
DEFAULT_REPLAY_TURNS: Final = 1_000
DEFAULT_MAX_REPLAY_ACTIONS: Final = DEFAULT_REPLAY_TURNS * MAX_ACTIONS_PER_TURN
DEFAULT_MAX_RESPONSE_BYTES: Final = 4 * 1024 * 1024
# The largest request a transport reads (a ReplayGame at the replay bound is under 400 KiB). The API only
# publishes it (GetCatalog's limits): the transports enforce it before a handler runs.
DEFAULT_MAX_REQUEST_BYTES: Final = 1024 * 1024
# The most items of one BatchApplyActions call: a vector environment's games or a tournament's concurrent
# ones. 256 plain items of the largest states seen in play (~1.3 KiB, benchmarks/token_sizes.py) are
# ~330 KiB of request; their answers with observations and views ~2 MiB, under DEFAULT_MAX_RESPONSE_BYTES.
DEFAULT_MAX_BATCH_ITEMS: Final = 256
# The most ISMCTS iterations one bot move may ask for (the cost of an iteration: benchmarks/bot_loop_bench.py).
# A search also stops at half of what is left of the call's deadline.
DEFAULT_MAX_BOT_ITERATIONS: Final = 1000


@dataclass(frozen=True)
class ApiConfig:
    """The per-server settings the handlers read."""

    key_ring: KeyRing
    max_replay_actions: int = DEFAULT_MAX_REPLAY_ACTIONS
    max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES
    max_bot_iterations: int = DEFAULT_MAX_BOT_ITERATIONS
    # Sealed requests that name or act as a seat must carry its key (seat_access.py); off for a
    # platform that binds players to seats itself.
    seat_keys: bool = True
    # States and tokens already checked (state_memo.py): one per process, shared by its transports.
    memo: StateMemo = field(default_factory=StateMemo, compare=False, repr=False)
    # Unix time in seconds, for token expiry (tests move it).
    clock: Callable[[], float] = field(default=time.time, compare=False, repr=False)
    max_batch_items: int = DEFAULT_MAX_BATCH_ITEMS
    max_request_bytes: int = DEFAULT_MAX_REQUEST_BYTES  # published only: the transport enforces it

    def __post_init__(self) -> None:
        bounds = (
            self.max_replay_actions,
            self.max_response_bytes,
            self.max_bot_iterations,
            self.max_batch_items,
            self.max_request_bytes,
        )
        if min(bounds) <= 0:
            raise ValueError(
                "max_replay_actions, max_response_bytes, max_bot_iterations, max_batch_items and max_request_bytes "
                "must be positive"
            )


_default: ApiConfig | None = None
_lock = threading.Lock()


def default_config() -> ApiConfig:
    """The config of calls no transport configured: one generated key ring per process."""
    global _default  # noqa: PLW0603 (made once, on first use)
    if _default is None:
        with _lock:
            if _default is None:
                _default = ApiConfig(KeyRing.generate())
    return _default
