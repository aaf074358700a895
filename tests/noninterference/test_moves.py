"""Moving in a sealed game tells the acting seat nothing it cannot see: ApplyAction (legal and illegal moves,
validate_only, the next legal actions and observation, server-side bots) answers alike about positions that seat
cannot tell apart, once the cards a move may draw (the top of each deck) are the same in both."""

from __future__ import annotations

import random
from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from splendor.v1 import actions_pb2, bots_pb2

from engine_service.rules import ACTION_ID_COUNT, PurchaseCard, action_id, legal_actions
from tests.noninterference.twins import (
    KEEP_TOP,
    RULESETS,
    SCALE,
    SealedPair,
    pb,
    pinned_entropy,
    random_position,
    same_answers,
    sealed_pair,
    twin,
)

EXAMPLES = 50 * SCALE  # positions per ruleset, one pair each
MOVES_TRIED = 4
ILLEGAL_TRIED = 3
BOTS = (("random", 0), ("greedy", 0), ("ismcts", 6))


def bot_request(token: bytes, bot: bots_pb2.BotChoice, key: str) -> pb.ApplyActionRequest:
    return pb.ApplyActionRequest(sealed_state=token, bot=bot, seat_key=key, include_legal_actions=True)


def compare_move(pair: SealedPair, seat: int, move: int) -> None:
    key = pair.keys[seat]
    same_answers(
        pair,
        "ApplyAction",
        lambda token: pb.ApplyActionRequest(
            sealed_state=token,
            action=actions_pb2.Action(action_id=move),
            seat=seat,
            seat_key=key,
            include_legal_actions=True,
            include_observation=True,
        ),
    )
    same_answers(
        pair,
        "ApplyAction",
        lambda token: pb.ApplyActionRequest(
            sealed_state=token,
            action=actions_pb2.Action(action_id=move),
            seat_key=key,
            validate_only=True,
            include_legal_actions=True,
        ),
    )


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_moves_answer_alike_for_positions_the_acting_seat_cannot_tell_apart(
    ruleset: str, players: int, seed: int
) -> None:
    rng = random.Random(seed)
    state = random_position(rng, RULESETS[ruleset], players)
    seat = state.acting_seat
    pair = sealed_pair(state, twin(state, seat, rng, keep_top=KEEP_TOP))
    legal = legal_actions(state)
    own_blind = {card for card, blind in zip(state.players[seat].reserved, state.players[seat].reserved_blind) if blind}
    moves = {action_id(action) for action in rng.sample(legal, min(MOVES_TRIED, len(legal)))}
    moves |= {action_id(a) for a in legal if isinstance(a, PurchaseCard) and a.card_id in own_blind}
    for move in sorted(moves):
        compare_move(pair, seat, move)
    legal_ids = {action_id(action) for action in legal}
    for move in rng.sample([value for value in range(ACTION_ID_COUNT) if value not in legal_ids], ILLEGAL_TRIED):
        compare_move(pair, seat, move)
    with pinned_entropy():
        for policy, iterations in BOTS:
            bot = bots_pb2.BotChoice(policy=policy, iterations=iterations, seed=5)
            same_answers(pair, "ApplyAction", partial(bot_request, bot=bot, key=pair.keys[seat]))
