"""The fleet run: replicas behind nginx, bots playing sealed games, and the operations done under them.

Replicas are separate ``splendor-engine serve`` processes sharing one key ring file, behind the shipped
nginx configuration. Bots play sealed games to their end over gRPC and over Connect, through nginx and
with client-side round robin over the replicas (the clients' documented retry policy on). Meanwhile, in
order:

1. a rolling restart: each replica in turn gets SIGTERM, drains, exits 0 and starts again (in the
   short version, the rotation's first roll is that restart);
2. a kill: one replica gets SIGKILL and starts again;
3. a key rotation, rolled replica by replica, one step at a time, the operator's checks before each
   (``rotation.py``): the new key added everywhere (second line: it opens, the old key still seals),
   made the sealing key everywhere, then the old key retired while games it dealt are still played.

Then every game is checked against ``ReplayGame`` of its moves, and every replica's logs and metrics
against the calls the players made (``accounting.py``). Run it alone for the figures (``make fleet``
runs the long version)::

    python -m tests.fleet.scenario --long
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from splendor.v1 import config_pb2
from splendor_client import EngineClient, connect

from engine_service.sealing import new_key_line
from tests.fleet.accounting import Accounts, settle
from tests.fleet.connect_players import ConnectPlayers
from tests.fleet.players import CallRecord, PlayedGame, Player
from tests.fleet.proxy import Nginx
from tests.fleet.replicas import Generation, Replica, wait_until
from tests.fleet.rotation import before_retiring, before_sealing_with
from tests.polling import pace

OLD_KEY, NEW_KEY = "fleet-old", "fleet-new"


@dataclass(frozen=True)
class FleetPlan:
    """How big a run is: players of each kind (each keeps ``games_at_once`` games going)."""

    replicas: int = 3
    grpc_proxy: int = 2  # gRPC through nginx
    grpc_direct: int = 2  # gRPC, client-side round robin over the replicas
    connect_proxy: int = 2  # Connect (the TypeScript client) through nginx
    connect_direct: int = 2  # Connect, the TypeScript client's round robin over the replicas
    paced: int = 1  # gRPC through nginx, dealt under the old key and played slowly past its retirement
    games_at_once: int = 2
    pace_seconds: float = 0.5  # a paced player's wait after each move, until the old key is retired
    min_games: int = 50  # games finished before the run winds down (the phases always run to their end)
    grace_seconds: float = 10.0
    # A rolling restart of its own before the kill; without it, the rotation's first roll (every replica
    # stopped with SIGTERM, drained and started again) is the run's rolling restart.
    separate_restart: bool = False

    @property
    def concurrent_games(self) -> int:
        players = self.grpc_proxy + self.grpc_direct + self.connect_proxy + self.connect_direct + self.paced
        return players * self.games_at_once


SHORT = FleetPlan()
LONG = FleetPlan(
    grpc_proxy=4,
    grpc_direct=4,
    connect_proxy=4,
    connect_direct=4,
    paced=2,
    games_at_once=12,
    min_games=400,
    separate_restart=True,
)


class Players(Protocol):
    """A group of players of one kind: the gRPC thread or the Node process of Connect players."""

    transport: str
    calls: list[CallRecord]
    games: list[PlayedGame]

    def live(self) -> list[PlayedGame]: ...


@dataclass
class Phase:
    name: str
    seconds: float
    calls: int  # calls the players made during the phase


@dataclass
class FleetRun:
    """What happened, and what the checks found."""

    plan: FleetPlan
    groups: list[Players] = field(default_factory=list)
    phases: list[Phase] = field(default_factory=list)
    kills: list[tuple[Replica, Generation, float]] = field(default_factory=list)
    notes: dict[str, Any] = field(default_factory=dict)
    accounts: Accounts = field(default_factory=Accounts)
    replay_mismatches: list[str] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)

    def calls(self) -> list[CallRecord]:
        return [call for group in self.groups for call in list(group.calls)]

    def games(self) -> list[PlayedGame]:
        return [game for group in self.groups for game in list(group.games)]

    def live(self) -> list[PlayedGame]:
        return [game for group in self.groups for game in group.live()]


class Fleet:
    """The replicas, their key ring file and nginx in front, under one directory."""

    def __init__(self, plan: FleetPlan, root: Path) -> None:
        self.root = root
        self.keys_file = root / "sealing-keys"
        self._key_lines = {key_id: new_key_line(key_id) for key_id in (OLD_KEY, NEW_KEY)}
        self.write_ring(OLD_KEY)
        logs = root / "replicas"
        logs.mkdir(exist_ok=True)
        self.replicas = [
            Replica(f"engine-{n + 1}", self.keys_file, grace_seconds=plan.grace_seconds, log_dir=logs)
            for n in range(plan.replicas)
        ]
        self.nginx: Nginx | None = None
        for replica in self.replicas:
            replica.start()
        self.nginx = Nginx(
            root / "nginx",
            [replica.grpc_address for replica in self.replicas],
            [replica.http_address for replica in self.replicas],
        )

    @property
    def proxy(self) -> Nginx:
        assert self.nginx is not None
        return self.nginx

    def write_ring(self, *entries: str) -> None:
        """The ring file the replicas read when they start: key ids (the first seals), or ``ID:retired``."""
        lines = [entry if entry.endswith(":retired") else self._key_lines[entry] for entry in entries]
        self.keys_file.write_text("\n".join(lines) + "\n", encoding="utf-8")

    def rejoin(self) -> None:
        """nginx keeps a replica it could not reach out of rotation for fail_timeout: wait that long after a
        replica is back before stopping the next one, so nginx never has every replica out at once."""
        pace(self.proxy.fail_timeout)

    def roll(self) -> None:
        """A rolling restart: one replica at a time, SIGTERM, the drain, exit 0, start again."""
        for replica in self.replicas:
            code = replica.terminate()
            assert code == 0, f"{replica.name} exited {code} after SIGTERM: {replica.current.stderr[-5:]}"
            replica.start()
            self.rejoin()

    def stop(self) -> None:
        if self.nginx is not None:
            self.nginx.stop()
        for replica in self.replicas:
            replica.stop()


@contextmanager
def fleet(plan: FleetPlan, root: Path | None = None) -> Iterator[Fleet]:
    """A fleet in ``root`` (kept), or in a temporary directory removed afterwards."""
    directory = Path(tempfile.mkdtemp(prefix="splendor-fleet-")) if root is None else root
    started: Fleet | None = None
    try:
        started = Fleet(plan, directory)
        yield started
    finally:
        if started is not None:
            started.stop()
        if root is None:
            shutil.rmtree(directory, ignore_errors=True)


def run(plan: FleetPlan, the_fleet: Fleet) -> FleetRun:
    """Play while restarting, killing and rotating; let every game end; then check everything."""
    result = FleetRun(plan)
    proxy = the_fleet.proxy
    starting, paced = threading.Event(), threading.Event()
    starting.set()
    paced.set()
    replicas_grpc = [replica.grpc_address for replica in the_fleet.replicas]
    replicas_http = [replica.http_address for replica in the_fleet.replicas]
    grpc_players = [
        Player(
            f"gp{n}-", "grpc via nginx", proxy.grpc_address, games_at_once=plan.games_at_once, seed=n, starting=starting
        )
        for n in range(plan.grpc_proxy)
    ] + [
        Player(
            f"gd{n}-",
            "grpc round robin",
            replicas_grpc,
            games_at_once=plan.games_at_once,
            seed=100 + n,
            starting=starting,
        )
        for n in range(plan.grpc_direct)
    ]
    connect_groups = [
        ConnectPlayers(name, transport, targets, players=count, games_at_once=plan.games_at_once, seed=seed)
        for name, transport, targets, count, seed in (
            ("cp", "connect via nginx", [proxy.http_address], plan.connect_proxy, 1),
            ("cd", "connect round robin", replicas_http, plan.connect_direct, 2),
        )
        if count
    ]
    paced_players = [
        Player(
            f"pp{n}-",
            "grpc via nginx, paced",
            proxy.grpc_address,
            games_at_once=plan.games_at_once,
            seed=200 + n,
            starting=threading.Event(),
            paced=paced,
            pace=plan.pace_seconds,
        )
        for n in range(plan.paced)
    ]
    result.groups = [*grpc_players, *connect_groups, *paced_players]
    last = [time.monotonic(), 0.0]  # when the last phase ended, and the calls made by then

    def phase(name: str) -> None:
        now, calls = time.monotonic(), len(result.calls())
        result.phases.append(Phase(name, round(now - last[0], 2), calls - int(last[1])))
        last[:] = [now, calls]
        print(f"fleet: {now - result.started:7.2f} s  {name}", file=sys.stderr)

    try:
        for player in grpc_players:
            player.start()
        wait_until(lambda: len(result.calls()) >= 20 * len(result.groups), 60, "every player's first calls")
        phase("warm-up")
        if plan.separate_restart:
            the_fleet.roll()
            phase("rolling restart")
        victim = the_fleet.replicas[len(the_fleet.replicas) // 2]
        result.kills.append((victim, victim.current, time.monotonic()))
        victim.kill()
        victim.start()
        the_fleet.rejoin()
        phase("kill")
        # Rotation, step 1: every replica opens the new key; the old one still seals.
        the_fleet.write_ring(OLD_KEY, NEW_KEY)
        the_fleet.roll()
        phase("rotation: add" if plan.separate_restart else "rolling restart = rotation: add")
        # Games dealt now are sealed, and their seat keys issued, under the old key; the paced ones outlast step 3.
        for player in paced_players:
            player.starting.set()
            player.start()
        wait_until(lambda: all(len(p.live()) == plan.games_at_once for p in paced_players), 60, "the paced games")
        for player in paced_players:
            player.starting.clear()
        problems = before_sealing_with(the_fleet.replicas, NEW_KEY)
        assert not problems, f"the check before step 2 fails: {problems}"
        # Step 2: the new key seals everywhere.
        the_fleet.write_ring(NEW_KEY, OLD_KEY)
        the_fleet.roll()
        phase("rotation: promote")
        # Step 3, once no replica seals with the old key and every game in play has moved since (its token resealed).
        wait_until(
            lambda: not before_retiring(the_fleet.replicas, OLD_KEY, [game.live_key for game in result.live()]),
            60,
            "no token in play sealed with the old key",
        )
        dealt_under_old = [game for game in result.live() if game.created_key == OLD_KEY]
        result.notes["games dealt under the old key, in play at its retirement"] = len(dealt_under_old)
        the_fleet.write_ring(NEW_KEY, f"{OLD_KEY}:retired")
        the_fleet.roll()
        paced.clear()
        phase("rotation: retire")
        wait_until(
            lambda: sum(game.finished for game in result.games()) >= plan.min_games, 600, "enough finished games"
        )
        starting.clear()
        for group in connect_groups:
            group.stop_starting()
        for player in [*grpc_players, *paced_players]:
            player.join(timeout=600)
        for group in connect_groups:
            group.join(timeout=600)
        phase("wind down")
    finally:
        starting.clear()
        paced.clear()
        for group in connect_groups:
            group.kill()
    # Quiet now: every live replica's metrics, then the checks; the replays come last (they are calls too).
    for replica in the_fleet.replicas:
        replica.current.metrics = replica.scrape()
    entries = proxy.entries()
    result.accounts = settle(the_fleet.replicas, result.calls(), entries, result.kills)
    result.replay_mismatches = replay_games(proxy.grpc_address, [game for game in result.games() if game.finished])
    phase("checks and replays")
    result.notes["nginx errors"] = sorted({_error_kind(line) for line in proxy.errors()})
    return result


def replay_games(address: str, games: Sequence[PlayedGame]) -> list[str]:
    """Each finished game against ``ReplayGame`` of its moves from the seed revealed at its end: the view
    its last move returned must be the replayed game's view for the same seat. Returns the mismatches."""

    def check(client: EngineClient, game: PlayedGame) -> str | None:
        final = game.final_view
        assert final is not None
        config = config_pb2.GameConfig(num_players=len(final.players), seed=final.revealed_seed)
        replayed = client.replay(config, game.moves, digests=False, events=False)
        if client.view(replayed.state, seat=final.viewer_seat).view != final:
            return f"{game.game_id} ({game.transport}): the replay of its {len(game.moves)} moves ends elsewhere"
        return None

    with connect(address, timeout=60) as client, ThreadPoolExecutor(4) as pool:
        found = pool.map(lambda game: check(client, game), games)
        return [mismatch for mismatch in found if mismatch is not None]


def _error_kind(line: str) -> str:
    """An nginx error line without its time, connection and addresses."""
    message = line.split("] ", 1)[-1].split(", client:", 1)[0]
    return message.split(": ", 1)[-1]


def report(result: FleetRun) -> dict[str, Any]:
    games = result.games()
    by_transport: dict[str, dict[str, int]] = {}
    for group in result.groups:
        seen = by_transport.setdefault(group.transport, {})
        for call in list(group.calls):
            seen[call.code] = seen.get(call.code, 0) + 1
    return {
        "replicas": result.plan.replicas,
        "concurrent games": result.plan.concurrent_games,
        "games finished": sum(game.finished for game in games),
        "games lost": sum(bool(game.error) for game in games),
        "lost because": sorted({game.error for game in games if game.error})[:5],
        "replays that differ": len(result.replay_mismatches),
        **result.accounts.figures,
        "outcomes by transport": by_transport,
        "phases (seconds, calls)": {phase.name: [phase.seconds, phase.calls] for phase in result.phases},
        **result.notes,
        "problems": result.accounts.problems[:20],
    }


def failures(result: FleetRun) -> list[str]:
    """Everything the run must not have: a lost game, a failed call seen by a player, a replay that
    differs, records that do not add up."""
    problems = [
        f"{game.game_id or game.player} ({game.transport}) lost: {game.error}" for game in result.games() if game.error
    ]
    failed = [call for call in result.calls() if call.code != "OK"]
    problems += [f"a player saw {call.code} for {call.request_id} ({call.method})" for call in failed]
    problems += result.replay_mismatches + result.accounts.problems
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="A fleet run: replicas behind nginx under restarts, a kill and a key rotation."
    )
    parser.add_argument(
        "--long", action="store_true", help=f"the long version: {LONG.concurrent_games} concurrent games"
    )
    parser.add_argument("--keep", type=Path, help="run in this directory and keep its logs")
    args = parser.parse_args(argv)
    plan = LONG if args.long else SHORT
    began = time.monotonic()
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
    with fleet(plan, args.keep) as the_fleet:
        result = run(plan, the_fleet)
    figures = report(result)
    figures["wall seconds"] = round(time.monotonic() - began, 1)
    print(json.dumps(figures, indent=2))
    problems = failures(result)
    for problem in problems[:50]:
        print(f"FAILED: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    with suppress(KeyboardInterrupt):
        raise SystemExit(main())
