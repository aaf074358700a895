"""Positions one seat (or a spectator) cannot tell apart, sealed under one binding, and the API's answers to them.

A seat sees everything but each deck's order and contents (their sizes only), the seed, and the
other seats' blind reserves (their deck only); a spectator sees no blind reserve at all. A twin of
a position for a viewer deals those hidden cards again: per deck, the deck's cards and the blind
reserves the viewer does not see are shuffled together and dealt back into the same places. The
twin has the same view for that viewer, so every answer the service gives that viewer about the
twin must be the answer about the original, byte for byte apart from the token.

A move reveals the cards it draws (a refill, the acting seat's own blind reserve): twins for moves
keep the top ``KEEP_TOP`` cards of each deck in place, the most any one action draws from a deck
(``test_draw_bound.py`` checks that bound over random games of every module).
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from typing import Any, Final, NamedTuple

from google.protobuf.message import Message
from splendor.v1 import engine_service_pb2

from engine_service.api import ApiError
from engine_service.api.sealed import binding_of
from engine_service.codec import state_to_proto
from engine_service.rules import CARDS, GameConfig, GameState, ReserveFromDeck, apply, legal_actions, new_game
from engine_service.sealing import issue_seat_keys, new_game_id, new_game_secret, seal
from tests.rulesets import RULESETS as ALL_RULESETS
from tests.rulesets import ruleset_name
from tests.sealing.api import CONFIG, call

RULESETS: Final = {ruleset_name(modules): modules for modules in ALL_RULESETS}
KEEP_TOP: Final = 1  # the most cards one action draws from one deck
# Positions per test are multiplied by this (``make fuzz`` runs the suite at 20).
SCALE: Final = int(os.environ.get("SPLENDOR_NONINTERFERENCE_SCALE", "1"))
# Blind reserves are what a twin deals again besides the decks: random play reserves blind this often.
BLIND_RESERVE_SHARE: Final = 0.35
MAX_PLIES: Final = 70

compared = {"pairs": 0}  # position pairs compared in this run (reported at the end of the session)


def random_position(rng: random.Random, modules: frozenset[str], players: int) -> GameState:
    """A position of a random game (not over) with many blind reserves."""
    state, _ = new_game(GameConfig(players, rng.getrandbits(64), modules=modules))
    for _ in range(rng.randrange(MAX_PLIES)):
        legal = legal_actions(state)
        blind = [action for action in legal if isinstance(action, ReserveFromDeck)]
        action = rng.choice(blind) if blind and rng.random() < BLIND_RESERVE_SHARE else rng.choice(legal)
        after = apply(state, action)[0]
        if after.end_reason is not None:
            break
        state = after
    return state


def twin(state: GameState, viewer: int | None, rng: random.Random, *, keep_top: int = 0) -> GameState:
    """``state`` with the cards ``viewer`` (None: a spectator) cannot see dealt again, and a new seed unless
    ``keep_top`` (a twin for moves, which may end the game and reveal the seed, keeps it)."""
    hidden = [list(pile[keep_top:]) for pile in state.decks]
    for seat, player in enumerate(state.players):
        if seat != viewer:
            for card_id, blind in zip(player.reserved, player.reserved_blind):
                if blind:
                    hidden[CARDS[card_id].deck].append(card_id)
    for cards in hidden:
        rng.shuffle(cards)
    remaining = [iter(cards) for cards in hidden]
    decks = tuple(
        pile[:keep_top] + tuple(next(remaining[deck]) for _ in pile[keep_top:]) for deck, pile in enumerate(state.decks)
    )
    players = tuple(
        player
        if seat == viewer
        else player._replace(
            reserved=tuple(
                next(remaining[CARDS[card_id].deck]) if blind else card_id
                for card_id, blind in zip(player.reserved, player.reserved_blind)
            )
        )
        for seat, player in enumerate(state.players)
    )
    seed = state.config.seed if keep_top else rng.getrandbits(64)
    return state._replace(config=state.config._replace(seed=seed), decks=decks, players=players)


class SealedPair(NamedTuple):
    """Two positions sealed under one binding, and the game's seat keys."""

    first: bytes
    second: bytes
    keys: list[str]


def sealed_pair(state: GameState, other: GameState) -> SealedPair:
    game_id = new_game_id()
    binding = binding_of(state, game_id, state.turn + 3, public_deal=False, expires_at=0)
    secret = new_game_secret()
    first = seal(CONFIG.key_ring, state_to_proto(state).SerializeToString(), binding, secret)
    second = seal(CONFIG.key_ring, state_to_proto(other).SerializeToString(), binding, secret)
    compared["pairs"] += 1
    return SealedPair(first, second, issue_seat_keys(secret, game_id, len(state.players)))


def answer(method: str, request: Message, send: Callable[[str, Message], Any] = call) -> tuple[object, ...]:
    """What the caller learns: the serialized response without its token, or the refusal in full."""
    try:
        response = send(method, request)
    except ApiError as error:
        violations = tuple(error.field_violations)
        return ("refused", error.code, error.reason, error.message, sorted(error.metadata.items()), violations)
    if hasattr(response, "sealed_state"):
        response.ClearField("sealed_state")
    return ("answered", response.SerializeToString(deterministic=True))


def same_answers(pair: SealedPair, method: str, build: Callable[[bytes], Message]) -> tuple[object, ...]:
    """The answer to ``build(token)`` for both tokens of ``pair``; fails unless they are identical."""
    first = answer(method, build(pair.first))
    second = answer(method, build(pair.second))
    assert first == second, f"{method} answers differently about two positions its caller cannot tell apart"
    return first


pb = engine_service_pb2


PINNED_ENTROPY: Final = 0x5EED_0F_5EA1ED


def pinned_entropy() -> Any:
    """The server's sealed-mode entropy pinned (``engine_service.api.entropy``), so two calls draw alike."""
    from unittest import mock

    from engine_service.api import entropy

    return mock.patch.object(entropy, "server_entropy", lambda: PINNED_ENTROPY)
