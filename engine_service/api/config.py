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

    def __post_init__(self) -> None:
        if self.max_replay_actions <= 0 or self.max_response_bytes <= 0 or self.max_bot_iterations <= 0:
            raise ValueError("max_replay_actions, max_response_bytes and max_bot_iterations must be positive")


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
