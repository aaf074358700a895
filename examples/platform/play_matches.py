"""Play matches through the example platform's HTTP API as browsers would, attack it as players might, and report.

    python examples/platform/play_matches.py --engine-command .venv/bin/splendor-engine --matches 20

starts an engine (a key ring of its own, so its tokens survive the restart below) on a free loopback port, the
platform on another, then plays ``--matches`` matches (2-4 seats, every module, humans and server-side bots), four
at a time. Along the way, in each match: a browser resends a move at a step already played (a rewind: refused),
two moves are sent at once for one step (one is applied, the other refused), a seat that is not acting tries to
move (refused), and every answer is searched for a seat key or a token (none may reach a browser). Once, the
engine is killed mid-match and restarted: the platform retries until it answers. With ``--engine ADDRESS`` it
uses a running engine instead, and restarts nothing. Prints a JSON report: matches finished, checks passed,
engine calls per move, median latencies.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the splendor_platform package beside this file

from splendor_client import connect
from splendor_platform import Platform, Store, serve

MODULES = ((), ("cities",), ("trading_posts",), ("strongholds",), ("orient",))
BOTS = ("greedy", "random")
# The engine's reconnection backoff kept short, so a restarted engine is found again within a second.
CHANNEL_OPTIONS = [("grpc.initial_reconnect_backoff_ms", 100), ("grpc.max_reconnect_backoff_ms", 1000)]


class Engine:
    """``splendor-engine serve`` on a fixed loopback port, with a key ring of its own; restartable."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.keys = subprocess.run([command, "keygen"], check=True, capture_output=True, text=True).stdout.strip()
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> None:
        arguments = ["serve", "--address", self.address, "--http-address", "127.0.0.1:0", "--metrics-port", "0"]
        environment = {**os.environ, "SPLENDOR_SEALING_KEYS": self.keys}
        self.process = subprocess.Popen(
            [self.command, *arguments], env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=30)


class Browser:
    """A player's browser: its session, and the HTTP calls it makes. Every answer is kept for the leak check."""

    def __init__(self, base: str, session: str, answers: list[bytes], latencies: list[float]) -> None:
        self.base, self.session, self.answers, self.latencies = base, session, answers, latencies

    def state(self, since: int = -1) -> dict[str, Any]:
        return self._call("GET", f"/me?since={since}")[1]

    def move(self, step: int, action_id: int) -> tuple[int, dict[str, Any]]:
        started = time.perf_counter()
        answer = self._call("POST", "/me/moves", {"step": step, "action_id": action_id})
        self.latencies.append((time.perf_counter() - started) * 1000)
        return answer

    def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
        return http(self.base, method, path, body=body, session=self.session, answers=self.answers)


def http(
    base: str, method: str, path: str, *, body: Any = None, session: str | None = None, answers: list[bytes]
) -> tuple[int, dict[str, Any]]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    if session is not None:
        request.add_header("Authorization", f"Bearer {session}")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    answers.append(raw)
    return status, json.loads(raw)


def choose(legal: list[dict[str, Any]], rng: random.Random) -> int:
    """A human's pick: a purchase if it can, else a reservation or gems, at random within the kind."""
    for kind in ("purchaseCard", "reserveCard", "takeGems", "takeTwoGems"):
        options = [item for item in legal if kind in item["action"]]
        if options:
            return int(rng.choice(options)["actionId"])
    return int(rng.choice(legal)["actionId"])


class Run:
    """The matches, their checks and the figures of one run."""

    def __init__(self, base: str, engine: Engine | None, seed: int) -> None:
        self.base, self.engine, self.seed = base, engine, seed
        self.answers: list[bytes] = []
        self.latencies: list[float] = []
        self.checks: Counter[str] = Counter()
        self.failures: list[str] = []
        self.restarted = threading.Event()
        self.lock = threading.Lock()

    def check(self, name: str, passed: bool, detail: str) -> None:
        with self.lock:
            self.checks[f"{name}: {'passed' if passed else 'FAILED'}"] += 1
            if not passed:
                self.failures.append(f"{name}: {detail}")

    def play(self, number: int) -> dict[str, Any]:
        rng = random.Random(self.seed * 1000 + number)
        count = 2 + number % 3
        modules = MODULES[number % len(MODULES)]
        humans = 1 + number % count  # 1 to every seat
        players = ["human"] * humans + [BOTS[(number + seat) % 2] for seat in range(count - humans)]
        rng.shuffle(players)
        body = {"players": players, "modules": list(modules)}
        status, created = http(self.base, "POST", "/matches", body=body, answers=self.answers)
        assert status == 201, created
        browsers = {
            int(seat): Browser(self.base, session, self.answers, self.latencies)
            for seat, session in created["sessions"].items()
        }
        attacks = {"rewind": rng.randrange(2, 30), "race": rng.randrange(2, 30), "other": rng.randrange(2, 30)}
        restart_at = 10 if number == 3 and self.engine is not None else -1
        moves = 0
        while True:
            states = {seat: browser.state() for seat, browser in browsers.items()}
            state = next(iter(states.values()))
            if state["finished"]:
                break
            seat = state["acting_seat"]
            mover = states[seat]
            assert mover["legal_actions"], mover
            step = mover["step"]
            if moves == attacks["other"] and len(browsers) > 1:
                self.attempt_as_other_seat(browsers, seat, step, mover)
            if moves == attacks["race"]:
                self.race(browsers[seat], step, mover["legal_actions"], rng)
            elif moves == restart_at:
                self.restart_during(browsers[seat], step, choose(mover["legal_actions"], rng))
            else:
                status, after = browsers[seat].move(step, choose(mover["legal_actions"], rng))
                self.check("a legal move is applied", status == 200, str(after))
                if moves == attacks["rewind"]:
                    self.rewind(browsers[seat], step, mover["legal_actions"])
            moves += 1
        return {"players": players, "modules": list(modules), "finished": state["finished"]}

    def rewind(self, browser: Browser, old_step: int, old_legal: list[dict[str, Any]]) -> None:
        """The browser resends a move at the step it just played: refused, the match unchanged."""
        before = browser.state()["step"]
        status, refused = browser.move(old_step, int(old_legal[0]["actionId"]))
        after = browser.state()["step"]
        passed = status == 409 and refused.get("reason") == "STEP_MISMATCH" and after == before
        self.check("a rewind is refused", passed, f"{status} {refused}")

    def race(self, browser: Browser, step: int, legal: list[dict[str, Any]], rng: random.Random) -> None:
        """Two moves at once for one step (two tabs, a double click): one applied, the other refused."""
        picks = [choose(legal, rng), choose(legal, rng)]
        with ThreadPoolExecutor(2) as pool:
            answers = list(pool.map(lambda action: browser.move(step, action), picks))
        statuses = sorted(status for status, _ in answers)
        reasons = [answer.get("reason") for status, answer in answers if status != 200]
        passed = statuses == [200, 409] and reasons == ["STEP_MISMATCH"]
        self.check("of two concurrent moves one is applied", passed, f"{answers}")

    def attempt_as_other_seat(
        self, browsers: dict[int, Browser], acting: int, step: int, mover: dict[str, Any]
    ) -> None:
        """A seat that is not acting sends the acting seat's move: refused, the match unchanged."""
        other = next((seat for seat in browsers if seat != acting), None)
        if other is None:
            return
        status, refused = browsers[other].move(step, int(mover["legal_actions"][0]["actionId"]))
        passed = status == 422 and refused.get("reason") == "NOT_YOUR_TURN" and browsers[other].state()["step"] == step
        looked = browsers[other].state()
        passed = passed and not looked["legal_actions"] and looked["view"].get("viewerSeat", 0) == other
        self.check("another seat cannot act", passed, f"{status} {refused}")

    def restart_during(self, browser: Browser, step: int, action: int) -> None:
        """The engine dies; the move sent meanwhile waits for the restarted engine and is applied."""
        assert self.engine is not None
        self.engine.kill()
        threading.Timer(0.5, self.engine.start).start()
        status, after = browser.move(step, action)
        self.restarted.set()
        self.check("a move survives an engine restart", status == 200 and after["step"] > step, str(after)[:300])

    def leaks(self, secrets: list[str]) -> list[str]:
        """The seat keys and tokens (base64, hex) found in any answer a browser got."""
        text = b"\n".join(self.answers).decode("utf-8", errors="replace")
        return [secret for secret in secrets if secret and secret in text]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    engine_source = parser.add_mutually_exclusive_group(required=True)
    engine_source.add_argument("--engine-command", help="start (and once restart) this splendor-engine executable")
    engine_source.add_argument("--engine", help="the gRPC address of a running engine")
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--parallel", type=int, default=4, help="matches played at once")
    args = parser.parse_args()
    engine = Engine(args.engine_command) if args.engine_command else None
    address = engine.address if engine is not None else args.engine
    try:
        with tempfile.TemporaryDirectory() as directory, connect(address, options=CHANNEL_OPTIONS) as client:
            client.wait_until_ready(30)
            platform = Platform(Store(Path(directory) / "matches.sqlite"), client)
            server = serve(platform)
            threading.Thread(target=server.serve_forever, daemon=True).start()
            run = Run(f"http://127.0.0.1:{server.server_port}", engine, args.seed)
            with ThreadPoolExecutor(args.parallel) as pool:
                matches = list(pool.map(run.play, range(args.matches)))
            server.shutdown()
            report(run, platform, matches, Path(directory) / "matches.sqlite")
    finally:
        if engine is not None:
            engine.kill()


def report(run: Run, platform: Platform, matches: list[dict[str, Any]], database: Path) -> None:
    with sqlite3.connect(database) as db:
        secrets = [key for (keys,) in db.execute("SELECT seat_keys FROM matches") for key in json.loads(keys)]
        for (token,) in db.execute("SELECT token FROM matches"):
            secrets += [base64.b64encode(token).decode(), token.hex()]
    stats = platform.stats
    moves = sum(stats.moves.values())
    refused = sum(stats.refused.values())
    print(
        json.dumps(
            {
                "matches": len(matches),
                "finished": sum(match["finished"] for match in matches),
                "players": Counter(len(match["players"]) for match in matches),
                "modules": Counter("+".join(match["modules"]) or "base" for match in matches),
                "moves": dict(stats.moves),
                "engine_calls": dict(stats.calls),
                "refused_attempts": dict(stats.refused),
                "engine_calls_per_move": (stats.calls["ApplyAction"] - refused) / moves,
                "median_engine_call_ms": {kind: statistics.median(ms) for kind, ms in stats.engine_ms.items()},
                "median_move_handled_ms": {kind: statistics.median(ms) for kind, ms in stats.handled_ms.items()},
                "median_http_move_with_bot_replies_ms": statistics.median(run.latencies),
                "retried_calls": stats.retries,
                "engine_restarted": run.restarted.is_set(),
                "checks": dict(run.checks),
                "failures": run.failures,
                "secrets_sent_to_browsers": len(run.leaks(secrets)),
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
