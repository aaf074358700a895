"""Write the pinned legal-move counts that ``tests/rules/test_pinned_counts.py`` checks.

    .venv/bin/python -m tests.rules.pinned.generate_pinned

Like python-chess's perft files, the data pins behaviour through every refactor:
for each position, the number of legal actions and the number of two-action
sequences (for each legal action, the number of legal actions after it), with
the digest of the position.

* ``<ruleset>.json`` (``base`` and each module): positions of seeded random
  games, each stored as its config and the action ids that reach it from
  ``new_game``, and for every kind of pending decision the ruleset asks, the
  first positions where random play leaves it pending.
* ``examples.json``: positions built by hand in the rule tests (rulebook
  examples), stored as the protobuf JSON of the state, the public contract.

Run it only when the rules are meant to change; review the diff of the data.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path

from google.protobuf import json_format

from engine_service.codec import state_to_proto
from engine_service.rules import (
    GameConfig,
    GameState,
    PurchaseCard,
    action_from_id,
    action_id,
    apply,
    legal_actions,
    new_game,
    state_digest,
)
from engine_service.rules.modules.strongholds import PlaceStronghold
from tests.rules import test_module_strongholds as strongholds
from tests.rules import test_nobles as nobles
from tests.rules.helpers import tokens

HERE = Path(__file__).resolve().parent
RULESETS: dict[str, frozenset[str]] = {
    "base": frozenset(),
    "cities": frozenset({"cities"}),
    "trading_posts": frozenset({"trading_posts"}),
    "strongholds": frozenset({"strongholds"}),
    "orient": frozenset({"orient"}),
}
GAMES_PER_PLAYER_COUNT = 2  # whole random games whose positions are sampled
SAMPLES_PER_GAME = 5  # positions taken at even steps of each game
DECISION_SEARCH_SEEDS = 60  # games searched for positions with each kind of pending decision
DECISIONS_PER_KIND = 1  # positions kept per kind of pending decision and player count
TURN_GUARD = 1000


def counts(state: GameState) -> tuple[int, int]:
    """Legal actions, and two-action sequences, from ``state``."""
    actions = legal_actions(state)
    return len(actions), sum(len(legal_actions(apply(state, action)[0])) for action in actions)


def position_record(state: GameState, after: int) -> dict[str, object]:
    legal, two = counts(state)
    pending = state.pending.kind.name if state.pending is not None else None
    return {"after": after, "pending": pending, "legal": legal, "two_moves": two, "digest": state_digest(state)}


def random_game(config: GameConfig, chooser_seed: int) -> Iterator[tuple[GameState, list[int]]]:
    """Each state of a random game with the action ids that reached it."""
    chooser = random.Random(chooser_seed)
    state, _ = new_game(config)
    path: list[int] = []
    yield state, path
    while not state.is_over and state.turn < TURN_GUARD:
        action = chooser.choice(legal_actions(state))
        path.append(action_id(action))
        state, _ = apply(state, action_from_id(path[-1]))
        yield state, list(path)


def sampled_games(modules: frozenset[str], players: int) -> list[dict[str, object]]:
    games = []
    for game in range(GAMES_PER_PLAYER_COUNT):
        seed = 1000 * players + game
        config = GameConfig(players, seed, modules=modules)
        states = list(random_game(config, seed))
        step = max(1, len(states) // SAMPLES_PER_GAME)
        picked = list(range(0, len(states), step))[:SAMPLES_PER_GAME] + [len(states) - 1]
        path = states[-1][1]
        games.append(_game_record(config, path, [position_record(states[i][0], i) for i in picked]))
    return games


def decision_games(modules: frozenset[str], players: int) -> list[dict[str, object]]:
    """Positions with each kind of pending decision, the first ones seeded random play reaches."""
    found: dict[str, int] = {}
    games = []
    for seed in range(DECISION_SEARCH_SEEDS):
        config = GameConfig(players, 50_000 + seed, modules=modules)
        records = []
        path: list[int] = []
        for state, path in random_game(config, seed):
            if state.pending is None:
                continue
            kind = state.pending.kind.name
            if found.get(kind, 0) < DECISIONS_PER_KIND:
                found[kind] = found.get(kind, 0) + 1
                records.append(position_record(state, len(path)))
        if records:
            last = max(int(record["after"]) for record in records)  # type: ignore[call-overload]
            games.append(_game_record(config, path[:last], records))
    return games


def _game_record(config: GameConfig, path: list[int], positions: list[dict[str, object]]) -> dict[str, object]:
    return {"players": config.num_players, "seed": config.seed, "actions": path, "positions": positions}


def write_ruleset(name: str, modules: frozenset[str]) -> None:
    games = []
    for players in (2, 3, 4):
        games += sampled_games(modules, players)
        games += decision_games(modules, players)
    data = {"modules": sorted(modules), "games": games}
    (HERE / f"{name}.json").write_text(_dumps(data), encoding="utf-8")
    positions = sum(len(game["positions"]) for game in games)  # type: ignore[arg-type]
    print(f"{name}: {positions} positions")


def hand_built_examples() -> list[tuple[str, GameState]]:
    """Rulebook examples and hand-built positions of the rule tests."""
    examples: list[tuple[str, GameState]] = []
    state, _ = nobles._two_nobles_qualify()
    examples.append(("two nobles qualify (CHOOSE_NOBLE)", state))
    red = 0
    state = strongholds.stronghold_position(
        {red: [strongholds.RED_3_WHITE, strongholds.RED_3_WHITE]},
        held={red: tokens(white=3, blue=3)},
        deck_tops={0: [strongholds.GREEN_2W_1U, strongholds.BLUE_3_BLACK]},
    )
    steps: list[tuple[str, Callable[[GameState], GameState]]] = [
        ("strongholds rulebook example: before the purchase", lambda s: s),
        ("... placement after the purchase", lambda s: apply(s, PurchaseCard(strongholds.WHITE_3_BLUE))[0]),
        ("... conquest offered", lambda s: apply(s, PlaceStronghold(strongholds.RED_3_WHITE))[0]),
        ("... placement after the conquest", lambda s: apply(s, PurchaseCard(strongholds.RED_3_WHITE))[0]),
    ]
    for label, advance in steps:
        state = advance(state)
        examples.append((label, state))
    return examples


def write_examples() -> None:
    records = []
    for label, state in hand_built_examples():
        record = position_record(state, 0)
        del record["after"]
        records.append({"label": label, "state": json_format.MessageToDict(state_to_proto(state)), **record})
    (HERE / "examples.json").write_text(_dumps({"positions": records}), encoding="utf-8")
    print(f"examples: {len(records)} positions")


def _dumps(data: object) -> str:
    """Indented JSON with lists of numbers on one line, so diffs stay readable."""
    text = json.dumps(data, indent=1)
    one_line = re.sub(r"\[\s*(-?\d+(?:,\s*-?\d+)*)\s*\]", lambda m: "[" + re.sub(r"\s+", " ", m.group(1)) + "]", text)
    return one_line + "\n"


def main() -> None:
    for name, modules in RULESETS.items():
        write_ruleset(name, modules)
    write_examples()


if __name__ == "__main__":
    main()
