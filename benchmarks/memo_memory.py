"""The memory the state memo (engine_service/api/state_memo.py) holds per entry, as games fill it.

Plays random games through the API in this process, plain and sealed (2-4 players, base game and
each module), with a memo of ``--entries`` of each kind, until both kinds are full; reports the
Python heap the memo holds (tracemalloc, after a collection) per entry, and the worst case the
bounds allow: every plain entry's key at ``MAX_KEY_BYTES`` (a state padded with unknown fields).

    PYTHONPATH=build/compiled-core .venv/bin/python -P benchmarks/memo_memory.py
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import tracemalloc
from pathlib import Path

# Appended: a checkout runs without installing, and a compiled copy first on PYTHONPATH still wins.
sys.path.append(str(Path(__file__).resolve().parent.parent))

from splendor.v1 import config_pb2, engine_service_pb2

from engine_service.api import METHODS_BY_NAME, ApiConfig, Call, invoke
from engine_service.api.state_memo import DEFAULT_STATE_MEMO_ENTRIES, MAX_KEY_BYTES, StateMemo
from engine_service.sealing import KeyRing

MODULES: tuple[tuple[int, ...], ...] = (
    (),
    (config_pb2.MODULE_CITIES,),
    (config_pb2.MODULE_TRADING_POSTS,),
    (config_pb2.MODULE_STRONGHOLDS,),
    (config_pb2.MODULE_ORIENT,),
)


def fill(memo: StateMemo, rng: random.Random) -> int:
    """Play games until the memo's plain states and tokens are full; the number of games played."""
    config = ApiConfig(KeyRing.generate(), memo=memo)

    def call(name: str, request: object) -> object:
        context = Call(name)
        context.config = config
        return invoke(METHODS_BY_NAME[name], request, context)

    games = 0
    while len(memo.plain) < memo.entries or len(memo.tokens) < memo.entries:
        players, modules = 2 + games % 3, MODULES[games % len(MODULES)]
        sealed = games % 2 == 1
        games += 1
        game_config = config_pb2.GameConfig(num_players=players, modules=modules)
        created = call("CreateGame", engine_service_pb2.CreateGameRequest(config=game_config, sealed=sealed))
        assert isinstance(created, engine_service_pb2.CreateGameResponse)
        keys = list(created.seat_keys)
        source = {"sealed_state": created.sealed_state} if sealed else {"state": created.state}
        for _ in range(200):
            listed = call("ListLegalActions", engine_service_pb2.ListLegalActionsRequest(**source))
            assert isinstance(listed, engine_service_pb2.ListLegalActionsResponse)
            if not listed.actions:
                break
            seat = listed.seat
            action = rng.choice(list(listed.actions)).action
            access = {"seat": seat, "seat_key": keys[seat]} if sealed else {}
            request = engine_service_pb2.ApplyActionRequest(action=action, **source, **access)
            applied = call("ApplyAction", request)
            assert isinstance(applied, engine_service_pb2.ApplyActionResponse)
            source = {"sealed_state": applied.sealed_state} if sealed else {"state": applied.state}
    return games


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--entries", type=int, default=DEFAULT_STATE_MEMO_ENTRIES, help="entries of each kind")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    tracemalloc.start()
    gc.collect()
    before = tracemalloc.get_traced_memory()[0]
    memo = StateMemo(args.entries)
    games = fill(memo, random.Random(args.seed))
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - before
    counts = {"plain": len(memo.plain), "tokens": len(memo.tokens), "seat keys": len(memo.seat_keys)}
    per_entry = held / (counts["plain"] + counts["tokens"])
    print(f"{games} games; entries: " + ", ".join(f"{name} {count}" for name, count in counts.items()))
    print(f"memo holds {held / 2**20:.1f} MiB: {per_entry / 1024:.2f} KiB per state or token entry")
    worst = held + counts["plain"] * MAX_KEY_BYTES
    print(f"worst case the bounds allow (every plain key {MAX_KEY_BYTES} bytes): {worst / 2**20:.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
