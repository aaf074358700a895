"""States already checked, remembered by their exact bytes: a call that brings them again skips the checks.

Reading a request's game is most of a cheap call's work: a plain state is checked in full
(``state_from_proto``: bounds, ids, conservation), a token is first decrypted and authenticated.
Both are pure functions of the bytes (a token's also of the key ring, fixed for the ring's life),
so bytes already checked get the answer the check gave. Remembered, per process:

- what a call read and found valid: a plain request's state (its deterministic serialization, without the
  fields this version does not know: a state sent with some is checked in full each time) or a token that
  opened;
- what a call wrote: a plain ApplyAction's new state, every token a call sealed, since the next
  call of a game usually brings it back (to this replica, when the platform pins a game to one). A
  plain move's new state takes the place of the state it was made from: a game's next call brings
  the new one, so the memo holds about one state a plain game in play, not one a move, and the old
  state is freed while its memory is warm (a call that brings it again, a retry or a second move
  tried from one position, is checked in full);
- the seat keys a call checked and found valid, and those a new game handed out, with what they were
  checked under: the game's seat-key secret (from its token), or for a game begun before token
  version 3 (no secret) the ring, whose key the seat key names.

A plain state's key is its bytes as the request carried them, when the transport kept them (gRPC:
``source.received_state``; a state field sent twice, which a parser merges, is not read there), else
its serialization. Only the same bytes match: an altered state, a forged token or a wrong seat key is
another key, checked in full, and nothing that failed a check is remembered. An entry answers exactly as the check would
(``tests/server/test_state_memo.py`` plays games with the memo on and off and compares every
response). A token's entry also names the ring that opened or sealed it, and answers only for that
ring. Whether bytes were seen before says nothing a caller does not hold: the key is what it sends.

Bounded: at most ``entries`` of each kind, the least recently used first out (``--state-memo-entries``;
0 turns it off), and nothing longer than ``MAX_KEY_BYTES`` is kept, so a state padded with unknown
fields costs a check, never memory.
"""

from __future__ import annotations

import hmac
import threading
from collections import OrderedDict
from typing import Final, Generic, NamedTuple, TypeVar

from engine_service.rules import GameState
from engine_service.sealing import Binding, KeyRing

from .labels import SEAT_KEY_ENTRY, STATE_ENTRY, TOKEN_ENTRY

# Over four times the largest state seen in random play, serialized or sealed (benchmarks/token_sizes.py).
MAX_KEY_BYTES: Final = 4 * 1024
# ~1.9 KiB an entry, the core states sharing what successive states share (benchmarks/memo_memory.py):
# 4,096 of each kind is ~15 MiB a process, ~31 MiB if every plain key were as long as MAX_KEY_BYTES.
DEFAULT_STATE_MEMO_ENTRIES: Final = 4096

Value = TypeVar("Value")
# A kind of entry (``labels.MEMO_KINDS``), whether its lookups found the entry, how many did since last told.
LookupCount = tuple[str, bool, int]


class Remembered(Generic[Value]):
    """A bounded least-recently-used map from bytes to what checking them gave; safe across handler threads.

    Counts the lookups it could answer, found or not, until ``take_lookups`` reads them: a batch's items
    cost an addition each under the lock already taken, and its metrics one increment a call."""

    __slots__ = ("_entries", "_hits", "_limit", "_lock", "_misses", "kind")

    def __init__(self, limit: int, kind: str = "") -> None:
        if limit < 0:
            raise ValueError("a memo holds at least 0 entries")
        self._limit = limit
        self._entries: OrderedDict[bytes, Value] = OrderedDict()
        self._lock = threading.Lock()
        self.kind = kind
        self._hits = 0
        self._misses = 0

    def get(self, key: bytes, count_miss: bool = True) -> Value | None:
        """What checking ``key`` gave, or None; ``count_miss``: a miss is counted (not when the caller tries
        another key next)."""
        if not self._limit or len(key) > MAX_KEY_BYTES:  # never kept, so not worth hashing
            return None
        with self._lock:
            value = self._entries.get(key)
            if value is None:
                if count_miss:
                    self._misses += 1
            else:
                self._hits += 1
                self._entries.move_to_end(key)
        return value

    def take_lookups(self) -> tuple[int, int]:
        """The lookups found and not found since the last call (the counts start again at 0)."""
        if not (self._hits or self._misses):  # read without the lock: a count missed now is taken next time
            return 0, 0
        with self._lock:
            counts = self._hits, self._misses
            self._hits = self._misses = 0
        return counts

    def put(self, key: bytes, value: Value, replacing: bytes = b"") -> None:
        """Remember ``value`` for ``key``; ``replacing``: the key of an entry it supersedes, forgotten now."""
        if not self._limit or len(key) > MAX_KEY_BYTES:
            return
        with self._lock:
            entries = self._entries
            if replacing and replacing != key:
                entries.pop(replacing, None)
            entries[key] = value
            entries.move_to_end(key)
            if len(entries) > self._limit:
                entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)

    def items(self) -> list[tuple[bytes, Value]]:
        """The entries, least recently used first (a copy)."""
        with self._lock:
            return list(self._entries.items())


class OpenedToken(NamedTuple):
    """A token that opened (or was sealed here): its state's bytes (without fields this version does not know:
    ``sealed.open_state``) and core state, its binding, the ring, the game's seat-key secret."""

    state_bytes: bytes
    state: GameState
    binding: Binding
    ring: KeyRing
    game_secret: bytes = b""


class StateMemo:
    """The process's remembered plain states, tokens and seat keys (one shared by the gRPC and HTTP transports)."""

    __slots__ = ("entries", "plain", "seat_keys", "tokens")

    def __init__(self, entries: int = DEFAULT_STATE_MEMO_ENTRIES) -> None:
        self.entries = entries
        self.plain: Remembered[GameState] = Remembered(entries, STATE_ENTRY)
        self.tokens: Remembered[OpenedToken] = Remembered(entries, TOKEN_ENTRY)
        # A seat key found valid (or issued here) for a game and seat, with the game's secret it was checked
        # under, or the ring for a game without one.
        self.seat_keys: Remembered[KeyRing | bytes] = Remembered(entries, SEAT_KEY_ENTRY)

    @property
    def enabled(self) -> bool:
        return self.entries > 0

    def take_lookups(self) -> list[LookupCount]:
        """The lookups of each kind, found and not, since the last call: the served process adds them to its
        metrics as each call ends (``runtime/call_outcome.py``)."""
        counts: list[LookupCount] = []
        for remembered in (self.plain, self.tokens, self.seat_keys):
            hits, misses = remembered.take_lookups()
            if hits:
                counts.append((remembered.kind, True, hits))
            if misses:
                counts.append((remembered.kind, False, misses))
        return counts

    def token(self, token: bytes, ring: KeyRing) -> OpenedToken | None:
        """What ``token`` opened to under ``ring`` before, or None."""
        opened = self.tokens.get(token)
        return opened if opened is not None and opened.ring is ring else None

    def seat_key_known(self, ring: KeyRing, game_id: str, game_secret: bytes, seat: int, key: str) -> bool:
        """Was ``key`` found valid for ``seat`` of ``game_id`` (or issued for it) before, under the game's
        ``game_secret`` (under ``ring`` for a game without one)?"""
        checked_under = self.seat_keys.get(_seat_key_entry(game_id, seat, key))
        if not game_secret:
            return checked_under is ring
        return isinstance(checked_under, bytes) and hmac.compare_digest(checked_under, game_secret)

    def remember_seat_key(self, ring: KeyRing, game_id: str, game_secret: bytes, seat: int, key: str) -> None:
        self.seat_keys.put(_seat_key_entry(game_id, seat, key), game_secret or ring)


def _seat_key_entry(game_id: str, seat: int, key: str) -> bytes:
    # surrogatepass: a key that is not even UTF-8 (a lone surrogate) is looked up, found absent, then refused.
    return f"{game_id}/{seat}/{key}".encode("utf-8", "surrogatepass")
