"""Sizes of sealed game tokens: the serialized GameState of random games of every module, 2 and 4
players, sealed with engine_service.sealing, next to the plain state and its zlib size.

    .venv/bin/python benchmarks/token_sizes.py [--games 5] [--steps 400]

Starts ``splendor-engine serve`` on a loopback port and plays through the public API, so the
states are exactly what CreateGame and ApplyAction return.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import zlib
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing

from splendor.v1 import config_pb2, engine_service_pb2, engine_service_pb2_grpc

from engine_service.sealing import Binding, KeyRing, new_game_id, new_game_secret, seal
from tests.fuzz.corpus import MODULES
from tests.fuzz.server import FuzzTarget


def sizes_of_game(
    stub: Any, ring: KeyRing, config: config_pb2.GameConfig, rng: random.Random, steps: int
) -> list[tuple[int, int, int]]:
    """(state, zlib, token) bytes after the deal and after each action."""
    state = stub.CreateGame(engine_service_pb2.CreateGameRequest(config=config)).state
    game_id, secret, out = new_game_id(), new_game_secret(), []
    for step in range(steps + 1):
        data = state.SerializeToString()
        token = seal(ring, data, Binding(game_id, state.turn, step, acting_seat=0), secret)
        out.append((len(data), len(zlib.compress(data, 6)), len(token)))
        listed = stub.ListLegalActions(engine_service_pb2.ListLegalActionsRequest(state=state))
        if not listed.actions:
            break
        action = rng.choice(listed.actions).action
        state = stub.ApplyAction(engine_service_pb2.ApplyActionRequest(state=state, action=action)).state
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5, help="games per module and player count")
    parser.add_argument("--steps", type=int, default=400, help="most actions per game")
    args = parser.parse_args()
    ring = KeyRing.generate()  # key id "ephemeral-xxxxxxxx": 18 characters, a typical id length
    target = FuzzTarget()
    try:
        stub: Any = engine_service_pb2_grpc.EngineServiceStub(target.channel)
        print("module         players  state median/max  zlib median/max  token first/median/max  (bytes)")
        for modules in MODULES:
            name = config_pb2.Module.Name(modules[0]).removeprefix("MODULE_").lower() if modules else "base"
            for players in (2, 4):
                rows: list[tuple[int, int, int]] = []
                firsts = []
                for game in range(args.games):
                    rng = random.Random(game)
                    config = config_pb2.GameConfig(num_players=players, seed=rng.getrandbits(64), modules=modules)
                    game_rows = sizes_of_game(stub, ring, config, rng, args.steps)
                    firsts.append(game_rows[0][2])
                    rows += game_rows
                states, zipped, tokens = zip(*rows)
                print(
                    f"{name:<14} {players:>7}  {statistics.median(states):>6.0f} / {max(states):<6}"
                    f" {statistics.median(zipped):>6.0f} / {max(zipped):<6}"
                    f"  {statistics.median(firsts):>5.0f} / {statistics.median(tokens):.0f} / {max(tokens)}"
                )
    finally:
        target.stop()


if __name__ == "__main__":
    main()
