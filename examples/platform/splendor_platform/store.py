"""The platform's database: SQLite, one file, four tables.

- ``matches``: per match, the newest game token and its step, the acting seat, every seat's key
  and who plays each seat. Tokens and keys never leave this table except in calls to the engine.
- ``sessions``: a browser's session, bound to one seat of one match. Only a SHA-256 digest of the
  session id is stored, so the table alone lets nobody act.
- ``seen``: after each move, what each audience (a seat, or ``-1`` for spectators) may see: the
  engine's ``AudienceView`` (the view, the move's events redacted for it, and the legal actions of
  the seat that must act next). Browsers are served from here: looking costs no engine call.
- ``moves``: the action log (who moved, which action id, at which step).

A move is recorded only if the match is still at the step it was read at (``record_move``): two
processes racing on one match cannot both write.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from splendor.v1 import engine_service_pb2

SPECTATORS: Final = -1  # the ``audience`` of what every spectator sees

SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    token BLOB NOT NULL,
    step INTEGER NOT NULL,
    acting_seat INTEGER,
    seat_keys TEXT NOT NULL,
    players TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    digest BLOB PRIMARY KEY,
    match_id TEXT NOT NULL REFERENCES matches (id),
    seat INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS seen (
    match_id TEXT NOT NULL REFERENCES matches (id),
    audience INTEGER NOT NULL,
    step INTEGER NOT NULL,
    view BLOB NOT NULL,
    PRIMARY KEY (match_id, audience, step)
);
CREATE TABLE IF NOT EXISTS moves (
    match_id TEXT NOT NULL REFERENCES matches (id),
    step INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player TEXT NOT NULL,
    action_id INTEGER NOT NULL,
    PRIMARY KEY (match_id, step)
);
"""


@dataclass(frozen=True)
class Match:
    """A match as stored: its newest token and step, who must act (None once over), the seat keys, the players
    (``"human"`` or a server-side bot, e.g. ``"greedy"``) by seat."""

    id: str
    token: bytes
    step: int
    acting_seat: int | None
    seat_keys: list[str]
    players: list[str]


def digest(session: str) -> bytes:
    return hashlib.sha256(session.encode("utf-8")).digest()


class Store:
    """The database at ``path`` (created on first use), through one connection that this process's threads take
    in turn (a lock of their own: SQLite's busy wait sleeps in steps of milliseconds). Other processes may share
    the file: SQLite serializes their writes."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._db = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
        self._lock = threading.Lock()
        with self._connection() as db:
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = NORMAL")  # with WAL: a commit survives the process's crash, not the OS's
            db.executescript(SCHEMA)

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        with self._lock, self._db:  # one transaction: committed on success, rolled back on error
            yield self._db

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def add_match(
        self, match: Match, sessions: dict[str, int], views: Sequence[engine_service_pb2.AudienceView]
    ) -> None:
        players = match.players
        with self._connection() as db:
            db.execute(
                "INSERT INTO matches VALUES (?, ?, ?, ?, ?, ?)",
                (
                    match.id,
                    match.token,
                    match.step,
                    match.acting_seat,
                    json.dumps(match.seat_keys),
                    json.dumps(players),
                ),
            )
            db.executemany(
                "INSERT INTO sessions VALUES (?, ?, ?)",
                [(digest(session), match.id, seat) for session, seat in sessions.items()],
            )
            _add_views(db, match.id, match.step, views)

    def match(self, match_id: str) -> Match:
        with self._connection() as db:
            row = db.execute(
                "SELECT token, step, acting_seat, seat_keys, players FROM matches WHERE id = ?", (match_id,)
            ).fetchone()
        if row is None:
            raise KeyError(match_id)
        token, step, acting_seat, keys, players = row
        return Match(match_id, token, step, acting_seat, json.loads(keys), json.loads(players))

    def session(self, session: str) -> tuple[str, int] | None:
        """The match and seat a session is bound to, or None for no session of this platform."""
        with self._connection() as db:
            row = db.execute("SELECT match_id, seat FROM sessions WHERE digest = ?", (digest(session),)).fetchone()
        return None if row is None else (row[0], row[1])

    def record_move(
        self,
        match: Match,
        *,
        token: bytes,
        step: int,
        acting_seat: int | None,
        move: tuple[int, str, int],
        views: Sequence[engine_service_pb2.AudienceView],
    ) -> bool:
        """Store the move's token, log entry (seat, player, action id) and views, if ``match`` is still at the step
        it was read at; False (nothing written) when another move got there first."""
        with self._connection() as db:
            updated = db.execute(
                "UPDATE matches SET token = ?, step = ?, acting_seat = ? WHERE id = ? AND step = ?",
                (token, step, acting_seat, match.id, match.step),
            )
            if updated.rowcount != 1:
                return False
            seat, player, action_id = move
            db.execute("INSERT INTO moves VALUES (?, ?, ?, ?, ?)", (match.id, step, seat, player, action_id))
            _add_views(db, match.id, step, views)
        return True

    def seen(self, match_id: str, audience: int, since: int) -> list[tuple[int, engine_service_pb2.AudienceView]]:
        """What ``audience`` was shown after each step past ``since``, in order, and always the current view, last
        (empty only for no such match)."""
        with self._connection() as db:
            rows = db.execute(
                "SELECT step, view FROM seen WHERE match_id = ? AND audience = ? AND step > ? ORDER BY step",
                (match_id, audience, since),
            ).fetchall()
            if not rows:
                rows = db.execute(
                    "SELECT step, view FROM seen WHERE match_id = ? AND audience = ? ORDER BY step DESC LIMIT 1",
                    (match_id, audience),
                ).fetchall()
        return [(step, engine_service_pb2.AudienceView.FromString(view)) for step, view in rows]

    def moves(self, match_id: str) -> list[tuple[int, int, str, int]]:
        """The match's log: (step, seat, player, action id)."""
        with self._connection() as db:
            return db.execute(
                "SELECT step, seat, player, action_id FROM moves WHERE match_id = ? ORDER BY step", (match_id,)
            ).fetchall()


def _add_views(
    db: sqlite3.Connection, match_id: str, step: int, views: Sequence[engine_service_pb2.AudienceView]
) -> None:
    db.executemany(
        "INSERT INTO seen VALUES (?, ?, ?, ?)",
        [
            (match_id, view.seat if view.HasField("seat") else SPECTATORS, step, view.SerializeToString())
            for view in views
        ],
    )
