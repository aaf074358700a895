"""The API's CPU per step of a bot loop: three calls a move, one call a move, and many games' moves in one call.

- ``three calls``: ListLegalActions, then ApplyAction, then GetPlayerView of the next seat (as splendor-play does);
- ``one call``: ApplyAction with include_legal_actions, whose response carries the next seat's legal
  actions and view;
- ``batch N``, for each N of ``--batch-sizes`` (1, 8, 64, 256): N games at once, each round one
  BatchApplyActions call carrying every game's move (the same ApplyAction request as ``one call``'s
  as an item, with ``skip_events`` and ``skip_view``: the bot holds the state; and its legal actions
  as ids, ``include_legal_action_ids``); a game that ends is dealt again in the next round's call
  (an item with ``deal``, answering the new game's legal actions). The N games carry over from round
  to round (dealt in the warm-up).

The game-at-a-time loops play the same random games (same seeds, same choices); every loop plays at
least ``--moves`` moves a round (a batched loop ``--batch-moves``: a cheap loop plays more moves for the same
resolution), against one server in its own process, interleaved round by round (the order rotating). Client
CPU is this process's (time.process_time), server CPU the server process's (its threads' scheduler times:
``load_phase.process_cpu_seconds``); both per step (move). Prints median, min and max over the rounds, the
rules core's own time per step in this process for scale (the compiled core when it is first on PYTHONPATH,
as for the server), each loop's client + server CPU per move over it, and the load average.

With ``--same-cpu``, this process and the servers share one CPU (``bench_server.share_one_cpu``: why). With
``--memo-off``, a second server checks every state in full (``--state-memo-entries 0``) and plays
the same games, interleaved: the memo's share of the server's CPU in play, where each call carries the
state the previous call returned. With ``--against-core PATH``, a second server runs the engine found at PATH
(its ``PYTHONPATH``: e.g. another commit's ``make compiled`` copy) and plays the same loops, interleaved: this
server's CPU over that one's, side by side.

    python benchmarks/bot_loop_bench.py [--rounds 5] [--moves 2000] [--batch-moves 10000]
        [--batch-sizes 1,8,64,256] [--memo-off] [--against-core PATH] [--same-cpu]
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

# Appended, not prepended: a compiled core on PYTHONPATH (scripts/build_compiled_core.py) takes precedence.
sys.path.append(str(Path(__file__).resolve().parent.parent))

from splendor.v1 import config_pb2, engine_service_pb2, state_pb2
from splendor_client import EngineClient, EngineError, outcome

from benchmarks.bench_server import BenchServer, share_one_cpu
from engine_service.core_info import core_kind
from engine_service.rules import GameConfig, apply, legal_actions, new_game

Loop = Callable[[EngineClient, state_pb2.GameState, random.Random], int]
# Plays games of the seeds given until at least the number of moves given: the moves played.
Runner = Callable[[EngineClient, Iterator[int], int], int]
BATCH_SIZES = (1, 8, 64, 256)
# Games of the core's own loop a round (~10,000 steps, ~80 ms compiled): long enough that a burst of other work on the
# machine does not make a round's core step, the ratios' denominator, look much slower (32 games: 7.2-10.4 µs).
CORE_GAMES = 96


def three_calls(client: EngineClient, state: state_pb2.GameState, rng: random.Random) -> int:
    steps = 0
    while True:
        listed = client.list_legal_actions(state).actions
        if not listed:
            return steps
        chosen = listed[rng.randrange(len(listed))]
        request = engine_service_pb2.ApplyActionRequest(state=state)
        request.action.action_id = chosen.action_id
        state = client.apply_request(request).state
        client.view_request(engine_service_pb2.GetPlayerViewRequest(state=state, seat=state.seat))
        steps += 1


def one_call(client: EngineClient, state: state_pb2.GameState, rng: random.Random) -> int:
    steps = 0
    actions = client.legal_actions(state)
    while actions:
        chosen = actions[rng.randrange(len(actions))]
        request = engine_service_pb2.ApplyActionRequest(state=state, include_legal_actions=True)
        request.action.action_id = chosen.action_id
        response = client.apply_request(request)
        state, actions = response.state, list(response.legal_actions)
        steps += 1
    return steps


def game_at_a_time(loop: Loop) -> Runner:
    """``loop`` over whole games, one after the other, until ``moves`` are played."""

    def run(client: EngineClient, seeds: Iterator[int], moves: int) -> int:
        played = 0
        while played < moves:
            seed = next(seeds)
            played += loop(client, client.new_game(num_players=2, seed=seed).state, random.Random(seed))
        return played

    return run


class Batched:
    """``size`` games at once, one BatchApplyActions call a round, each item a game's move (as ``one call``'s request,
    without the events and the view a bot holding the state never reads: ``skip_events``, ``skip_view``; its legal
    actions as ids, ``include_legal_action_ids``, each id its action: ``splendor_client.actions.by_id``); a game that
    ends is dealt again in the next round's call (an item with ``deal`` and no move, answering the new game's legal
    actions). The games carry over from one measurement to the next, so a measurement pays for the games that end in
    it (their replacement's deal), as a game-at-a-time loop pays for its games' deals, not for filling ``size``
    slots. Only the items that move count as moves."""

    def __init__(self, size: int) -> None:
        self.size = size
        # Each game's state and legal action ids; an int for a game to deal (its seed) in the next call.
        self.games: list[tuple[state_pb2.GameState, Sequence[int]] | int] = []

    def __call__(self, client: EngineClient, seeds: Iterator[int], moves: int) -> int:
        rng = random.Random(next(seeds))
        games = self.games
        while len(games) < self.size:
            games.append(next(seeds))
        played = 0
        while played < moves:
            batch = engine_service_pb2.BatchApplyActionsRequest()
            for game in games:
                item = batch.requests.add(include_legal_action_ids=True, skip_events=True, skip_view=True)
                if isinstance(game, int):
                    item.deal.CopyFrom(config_pb2.GameConfig(num_players=2, seed=game))
                else:
                    state, legal = game
                    item.state.CopyFrom(state)
                    item.action.action_id = legal[rng.randrange(len(legal))]
                    played += 1
            for index, result in enumerate(client.batch_request(batch).results):
                response = outcome(result)
                if isinstance(response, EngineError):
                    raise response
                legal = response.legal_action_ids
                if not legal and isinstance(games[index], int):  # would deal it again forever
                    raise RuntimeError(
                        "a game dealt without legal action ids: a server without include_legal_action_ids?"
                    )
                games[index] = (response.state, legal) if legal else next(seeds)
        return played


def core_step_seconds(seeds: list[int]) -> float:
    steps = 0
    start = time.process_time()
    for seed in seeds:
        state = new_game(GameConfig(2, seed))[0]
        rng = random.Random(seed)
        while state.end_reason is None:
            actions = legal_actions(state)
            state = apply(state, actions[rng.randrange(len(actions))])[0]
            steps += 1
    return (time.process_time() - start) / steps


def measure(server: BenchServer, run: Runner, seeds: Iterator[int], moves: int) -> tuple[float, float]:
    """Client and server CPU seconds per step over at least ``moves`` moves."""
    client_start, server_start = time.process_time(), server.cpu()
    steps = run(server.client, seeds, moves)
    return (time.process_time() - client_start) / steps, (server.cpu() - server_start) / steps


def summary(values: list[float]) -> str:
    micro = [value * 1e6 for value in values]
    return f"median {statistics.median(micro):7.1f} µs  min {min(micro):7.1f}  max {max(micro):7.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--moves", type=int, default=2000, help="moves per loop and round (at least)")
    parser.add_argument("--batch-moves", type=int, default=10_000, help="moves per batched loop and round (at least)")
    parser.add_argument(
        "--batch-sizes",
        type=lambda text: tuple(int(size) for size in text.split(",") if size),
        default=BATCH_SIZES,
        help="games of each batched loop, comma-separated (default: 1,8,64,256; empty: none)",
    )
    parser.add_argument("--memo-off", action="store_true", help="also a server without the memo, interleaved")
    parser.add_argument("--against-core", metavar="PATH", help="also a server on the engine at PATH, interleaved")
    parser.add_argument("--same-cpu", action="store_true", help="this process and the servers on one CPU")
    args = parser.parse_args()
    if args.same_cpu:
        print(f"on CPU {share_one_cpu()} alone, with the servers")
    loops: dict[str, Runner] = {"three calls": game_at_a_time(three_calls), "one call": game_at_a_time(one_call)}
    loops.update({f"batch {size}": Batched(size) for size in args.batch_sizes})
    servers = {"": BenchServer()}
    if args.memo_off:
        servers[", memo off"] = BenchServer(options=("--state-memo-entries", "0"))
    if args.against_core:
        servers[", against"] = BenchServer(pythonpath=args.against_core)
    runs = [(name + suffix, loop, server) for suffix, server in servers.items() for name, loop in loops.items()]
    moves = {name: args.batch_moves if isinstance(loop, Batched) else args.moves for name, loop, _ in runs}
    results: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name, _, _ in runs}
    core: list[float] = []
    load_before = os.getloadavg()[0]
    try:
        for server in servers.values():
            for loop in loops.values():
                measure(server, loop, itertools.count(10**6), 300)  # warm-up (and a batch's games dealt)
        for round_index in range(args.rounds):
            shift = round_index % len(runs)  # rotate which goes first
            for name, loop, server in runs[shift:] + runs[:shift]:
                seeds = itertools.count(round_index * 100_000)  # the same games for the game-at-a-time loops
                client_cpu, server_cpu = measure(server, loop, seeds, moves[name])
                results[name][0].append(client_cpu)
                results[name][1].append(server_cpu)
            core.append(core_step_seconds([round_index * 1000 + game for game in range(CORE_GAMES)]))
    finally:
        for server in servers.values():
            server.__exit__()
    print(
        f"{args.rounds} rounds of at least {args.moves} moves a loop ({args.batch_moves} a batched one); "
        f"core {core_kind()} here; median (min-max)"
    )
    for name, (client_cpus, server_cpus) in results.items():
        total = [a + b for a, b in zip(client_cpus, server_cpus)]
        print(f"{name:23s} client CPU/step {summary(client_cpus)}")
        print(f"{'':23s} server CPU/step {summary(server_cpus)}")
        print(f"{'':23s} total  CPU/step {summary(total)}")
        print(f"{'':23s} total / core step x{ratio_summary([t / c for t, c in zip(total, core)])}")
    if args.memo_off:
        for name in loops:
            ratios = [on / off for on, off in zip(results[name][1], results[name + ", memo off"][1])]
            print(f"{name:23s} server CPU/step with the memo / without: x{ratio_summary(ratios)}")
    if args.against_core:
        for name in loops:
            ratios = [this / other for this, other in zip(results[name][1], results[name + ", against"][1])]
            print(f"{name:23s} server CPU/step here / against {args.against_core}: x{ratio_summary(ratios, 3)}")
    print(f"{'rules core':23s}        CPU/step {summary(core)}")
    print(f"load average (1 min) before/after: {load_before:.1f}/{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")


def ratio_summary(values: list[float], digits: int = 2) -> str:
    return f"{statistics.median(values):.{digits}f} ({min(values):.{digits}f}-{max(values):.{digits}f})"


if __name__ == "__main__":
    main()
