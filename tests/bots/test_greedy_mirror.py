"""Rule: the greedy strategy is one strategy. The Python client's ``GreedyBot`` (on the contract's messages, so the
client needs no engine) mirrors the engine's ``greedy`` policy (``engine_service/bots/greedy.py``, on the rules core's
types): seeded alike, both choose the same move, ties included, in every ruleset, decisions included."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator

from splendor_client.bots import GreedyBot

from engine_service import in_process as engine
from engine_service.bots import GreedyPolicy
from engine_service.rules import GameState, action_id, apply, legal_actions
from engine_service.rules.decisions import CHOOSE_NOBLE, RETURN_TOKENS
from engine_service.rules.registry import registered_modules
from tests.rulesets import RULESETS, ruleset_name

EVERY = 3  # every third position of each game, to its end
GREEDY_SHARE = 0.7  # the games are mostly greedy, so purchases, nobles and module decisions come up
MAX_POSITIONS = 50_000  # far beyond what every kind of decision takes to come up


def positions() -> Iterator[tuple[GameState, int]]:
    """Positions of mostly greedy games of every ruleset and player count, each with a seed for the bots: deal after
    deal (a deal of each ruleset and player count in turn), without end; the test stops once it has seen enough."""
    for deal in itertools.count():
        for modules in RULESETS:
            for players in (2, 3, 4):
                rng = random.Random(deal)
                state = engine.deal(players, deal, modules=modules)
                while state.end_reason is None and state.turn < 1_000:
                    seed = rng.getrandbits(32)
                    if rng.randrange(EVERY) == 0:
                        yield state, seed
                    move = GreedyPolicy(seed).choose(state) if rng.random() < GREEDY_SHARE else None
                    state = apply(state, move if move is not None else rng.choice(legal_actions(state)))[0]


def test_the_clients_greedy_bot_chooses_what_the_engines_greedy_policy_chooses() -> None:
    catalog = engine.catalog_message()
    # The decisions of the base game and of every registered module (not every kind ever made: a test's own module
    # may have made one, as tests/rules/test_registry_plugin.py does on import).
    module_kinds = (kind.name for module in registered_modules() for kind in module.decisions)
    every_kind = {"main action", RETURN_TOKENS.name, CHOOSE_NOBLE.name, *module_kinds}
    compared: Counter[str] = Counter()
    for state, seed in positions():
        seat = state.acting_seat
        view, legal = engine.view_message(state, seat), engine.legal_action_messages(state, seat)
        chosen = GreedyBot(catalog, seed).choose(view, legal).action_id
        expected = action_id(GreedyPolicy(seed).choose(state))
        kind = state.pending.kind.name if state.pending is not None else "main action"
        assert chosen == expected, f"{ruleset_name(state.config.modules)}, {kind}, turn {state.turn}, seed {seed}"
        compared[kind] += 1
        # Every kind of decision, the rare ones (a beacon lit, a city chosen) included, and 1,000 positions at least.
        if set(compared) == every_kind and sum(compared.values()) >= 1_000:
            break
        assert sum(compared.values()) < MAX_POSITIONS, f"some kinds of decision never came up: {compared}"
