"""Determinization: a full state one seat cannot tell apart from the truth.

A seat sees everything but the decks (their sizes only) and the other seats' blind
reserves (their deck only). So the cards it cannot place are, per deck, exactly the
cards still in that deck plus the other seats' blind reserves from it. Dealing those
cards at random back into the same positions gives a state with the same view for
that seat; every consistent arrangement is equally likely. The shuffle starts from a
canonical order (the ids sorted), never the true one: a seeded shuffle of the true order
is a permutation anyone who knows the seed can invert, giving the truth away; from sorted
ids a sample depends only on what the seat sees and the seed. This reads only the base
fields (``decks``, ``players[i].reserved``/``reserved_blind``) and each card's deck,
so it holds for every module, whatever the module keeps elsewhere (all of it public).
"""

from __future__ import annotations

import random

from engine_service.rules import CARDS, GameState

# The seed of a sample is drawn from the sampler, so a sample never carries the truth's.
_SEED_BITS = 64


def determinize(state: GameState, seat: int, rng_seed: int) -> GameState:
    """A state consistent with what ``seat`` sees of ``state``, its hidden cards resampled.

    Deterministic for a given ``rng_seed`` (an explicitly seeded ``random.Random``).
    ``seat``'s own blind reserves never move.
    """
    if not 0 <= seat < len(state.players):
        raise ValueError(f"seat {seat} is not a seat of a {len(state.players)}-player game")
    rng = random.Random(rng_seed)
    hidden: list[list[int]] = [list(pile) for pile in state.decks]
    for other, player in enumerate(state.players):
        if other != seat:
            for card_id, blind in zip(player.reserved, player.reserved_blind):
                if blind:
                    hidden[CARDS[card_id].deck].append(card_id)
    for cards in hidden:
        cards.sort()  # canonical: the true order must not reach the sample
        rng.shuffle(cards)
    # Deal back: first each deck's positions, then the blind slots, in seat and slot order.
    remaining = [iter(cards) for cards in hidden]
    decks = tuple(tuple(next(remaining[deck]) for _ in pile) for deck, pile in enumerate(state.decks))
    players = tuple(
        player
        if other == seat or not any(player.reserved_blind)
        else player._replace(
            reserved=tuple(
                next(remaining[CARDS[card_id].deck]) if blind else card_id
                for card_id, blind in zip(player.reserved, player.reserved_blind)
            )
        )
        for other, player in enumerate(state.players)
    )
    config = state.config._replace(seed=rng.getrandbits(_SEED_BITS))
    return state._replace(config=config, decks=decks, players=players)
