"""ReplayGame's digests (``IncrementalDigest``, texts kept by identity) equal ``state_digest`` for every state."""

from __future__ import annotations

import pytest

from engine_service.rules import IncrementalDigest, state_digest
from tests.rulesets import RULESETS
from tests.server.positions import random_game

MODULE_SETS = list(RULESETS)


@pytest.mark.parametrize("modules", MODULE_SETS)
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_every_digest_of_a_replay_is_the_state_digest(modules: frozenset[str], num_players: int) -> None:
    digests = IncrementalDigest()
    moves = list(random_game(num_players, seed=7 + num_players, modules=modules))
    first = moves[0][0]
    assert digests.digest(first) == state_digest(first)
    for _, _, after, _ in moves:
        assert digests.digest(after) == state_digest(after)
    assert len(moves) > 10


def test_a_state_seen_out_of_order_still_digests_right() -> None:
    """Identity caching must not depend on the states coming in game order."""
    states = [after for _, _, after, _ in random_game(3, seed=5)]
    digests = IncrementalDigest()
    for state in (states[-1], states[0], states[len(states) // 2], states[0]):
        assert digests.digest(state) == state_digest(state)


def test_parts_written_from_their_last_text_digest_as_written_afresh() -> None:
    """A deck drawn from (its text cut from the last one), drawn from twice, refilled, or holding a bool;
    a market row with an empty slot; a record whose last field becomes None: each as ``state_digest``."""
    state = next(iter(random_game(2, seed=3)))[0]
    deck = state.decks[0]
    row = state.market[0]
    variants = [
        state._replace(decks=(deck[1:], *state.decks[1:])),
        state._replace(decks=(deck[3:], *state.decks[1:])),
        state._replace(decks=((), *state.decks[1:])),
        state._replace(decks=(deck[:-1] + (7,), *state.decks[1:])),
        state._replace(decks=((True, *deck[1:]), *state.decks[1:])),
        state._replace(market=((None, *row[1:]), *state.market[1:])),
        state._replace(market=((*row[:-1], None), *state.market[1:])),
        state._replace(config=state.config._replace(first_seat=None)),
    ]
    digests = IncrementalDigest()
    for variant in (state, *variants, state, *reversed(variants)):
        assert digests.digest(variant) == state_digest(variant)
