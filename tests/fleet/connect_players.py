"""Players over Connect: the TypeScript client in a Node process (``clients/typescript/test/support/fleet_player.ts``).

It needs the client's dependencies (``npm ci`` in ``clients/typescript``, which ``make ts-test`` runs
before the Python tests). Its output lines become the same ``PlayedGame`` and ``CallRecord`` values as
the gRPC players', so the checks after the run treat every player alike.
"""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from splendor.v1 import actions_pb2, view_pb2

from tests.fleet.players import CallRecord, PlayedGame
from tests.fleet.replicas import ROOT

TYPESCRIPT = ROOT / "clients" / "typescript"
SCRIPT = TYPESCRIPT / "test" / "support" / "fleet_player.ts"


def tsx() -> Path | None:
    """The TypeScript runner, once ``npm ci`` installed the client's dependencies (and Node is there)."""
    runner = TYPESCRIPT / "node_modules" / ".bin" / "tsx"
    return runner if runner.exists() and shutil.which("node") else None


class ConnectPlayers:
    """``players`` bots in one Node process, each keeping ``games_at_once`` games going."""

    def __init__(
        self, name: str, transport: str, targets: Sequence[str], *, players: int, games_at_once: int, seed: int
    ) -> None:
        runner = tsx()
        if runner is None:
            raise RuntimeError("the Connect players need Node and `npm ci` in clients/typescript (`make ts-test`)")
        self.name = name
        self.transport = transport
        plan = {"name": name, "targets": [f"http://{t}" for t in targets], "players": players,
                "gamesAtOnce": games_at_once, "seed": seed}  # fmt: skip
        self.process = subprocess.Popen(
            [str(runner), str(SCRIPT), json.dumps(plan)],
            cwd=TYPESCRIPT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.calls: list[CallRecord] = []
        self.seen: Counter[str] = Counter()
        self.games: list[PlayedGame] = []
        self._live: dict[str, PlayedGame] = {}
        self._lock = threading.Lock()
        self.stderr: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            entry = json.loads(line)
            with self._lock:
                if "call" in entry:
                    request_id, method, code, tries = entry["call"]
                    code = _GRPC_NAMES.get(code, code)
                    self.calls.append(CallRecord(request_id, method, code, time.monotonic(), tries))
                    self.seen[code] += 1
                elif "live" in entry:
                    game_id, key_id, created_key = entry["live"]
                    game = self._live.get(game_id)
                    if game is None:
                        game = self._live[game_id] = PlayedGame(self.name, self.transport, game_id=game_id)
                        game.created_key, game.created_at = created_key, time.monotonic()
                        self.games.append(game)
                    game.live_key = key_id
                else:
                    self._ended(entry["game"])

    def _ended(self, ended: dict[str, str]) -> None:
        game = self._live.pop(ended.get("game_id", ""), None)
        if game is None:  # a CreateGame that failed
            game = PlayedGame(ended["player"], self.transport)
            self.games.append(game)
        game.error = ended["error"]
        if not game.error:
            game.moves = [actions_pb2.Action.FromString(base64.b64decode(move)) for move in ended["moves"]]
            game.final_view = view_pb2.GameView.FromString(base64.b64decode(ended["view"]))
        game.live_key = ""

    def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        self.stderr.extend(self.process.stderr)

    def live(self) -> list[PlayedGame]:
        with self._lock:
            return list(self._live.values())

    def stop_starting(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("stop\n")
        self.process.stdin.flush()

    def join(self, timeout: float) -> None:
        code = self.process.wait(timeout=timeout)
        self._reader.join(timeout=10)
        if code != 0:
            raise AssertionError(f"the Connect players exited {code}: {''.join(self.stderr)[-2000:]}")

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


# Connect's code names (the TypeScript enum's) as gRPC spells them.
_GRPC_NAMES = {
    "Canceled": "CANCELLED",
    "Unknown": "UNKNOWN",
    "InvalidArgument": "INVALID_ARGUMENT",
    "DeadlineExceeded": "DEADLINE_EXCEEDED",
    "NotFound": "NOT_FOUND",
    "AlreadyExists": "ALREADY_EXISTS",
    "PermissionDenied": "PERMISSION_DENIED",
    "ResourceExhausted": "RESOURCE_EXHAUSTED",
    "FailedPrecondition": "FAILED_PRECONDITION",
    "Aborted": "ABORTED",
    "OutOfRange": "OUT_OF_RANGE",
    "Unimplemented": "UNIMPLEMENTED",
    "Internal": "INTERNAL",
    "Unavailable": "UNAVAILABLE",
    "DataLoss": "DATA_LOSS",
    "Unauthenticated": "UNAUTHENTICATED",
}
