"""ApplyAction for a bot loop: bots, the move applied, the next seat and its legal actions, view and observation."""

from __future__ import annotations

import pytest
from splendor.v1 import bots_pb2, engine_service_pb2

from engine_service.api import ApiError, Call, Code, apply, handlers
from engine_service.api.config import DEFAULT_MAX_BOT_ITERATIONS, ApiConfig
from engine_service.api.next_move import fill_next_move
from engine_service.codec import state_from_proto, state_to_proto
from engine_service.rules import CARDS, GameConfig, PurchaseCard, action_id, legal_actions, new_game, observe
from engine_service.sealing import KeyRing
from tests.server.positions import dealt, give_tokens


def _state(seed: int = 3, players: int = 2) -> engine_service_pb2.ApplyActionRequest:
    return engine_service_pb2.ApplyActionRequest(state=state_to_proto(new_game(GameConfig(players, seed))[0]))


def _bot(policy: str, seed: int = 1, iterations: int = 0) -> bots_pb2.BotChoice:
    return bots_pb2.BotChoice(policy=policy, seed=seed, iterations=iterations)


def test_a_game_plays_to_its_end_with_one_call_a_move_and_the_lists_match_list_legal_actions() -> None:
    request = _state()
    request.include_legal_actions = True
    response = apply.apply_action(
        engine_service_pb2.ApplyActionRequest(state=request.state, bot=_bot("random"), include_legal_actions=True),
        Call("t"),
    )
    moves = 1
    while response.HasField("acting_seat"):
        listed = handlers.list_legal_actions(
            engine_service_pb2.ListLegalActionsRequest(state=response.state), Call("t")
        )
        assert list(response.legal_actions) == list(listed.actions)
        assert response.acting_seat == listed.seat == response.view.viewer_seat
        chosen = response.legal_actions[moves * 7 % len(response.legal_actions)]
        request = engine_service_pb2.ApplyActionRequest(state=response.state, include_legal_actions=True)
        request.action.action_id = chosen.action_id
        response = apply.apply_action(request, Call("t"))
        assert response.applied == chosen
        moves += 1
    assert not response.legal_actions and not response.view.HasField("viewer_seat")  # a spectator's view at the end
    assert response.state.end_reason and moves > 20


@pytest.mark.parametrize("policy", ["random", "greedy", "ismcts"])
def test_a_bot_chooses_a_legal_action_reproducibly_and_returns_it_in_applied(policy: str) -> None:
    request = _state()
    request.bot.CopyFrom(_bot(policy, seed=9, iterations=20 if policy == "ismcts" else 0))
    first = apply.apply_action(request, Call("t"))
    again = apply.apply_action(request, Call("t"))
    legal_ids = {action_id(action) for action in legal_actions(state_from_proto(request.state))}
    assert first.applied.action_id in legal_ids
    assert first.applied == again.applied and first.state == again.state
    assert first.state.turn == 1


def test_validate_only_with_a_bot_returns_its_choice_without_applying_it() -> None:
    request = _state()
    request.bot.CopyFrom(_bot("greedy"))
    request.validate_only = True
    response = apply.apply_action(request, Call("t"))
    assert response.state == request.state and not response.events
    assert response.applied.HasField("action")


@pytest.mark.parametrize(
    ("choice", "field"),
    [
        (bots_pb2.BotChoice(policy="alphazero"), "bot.policy"),
        (bots_pb2.BotChoice(policy="random", iterations=5), "bot.iterations"),
        (bots_pb2.BotChoice(policy="ismcts", iterations=DEFAULT_MAX_BOT_ITERATIONS + 1), "bot.iterations"),
    ],
)
def test_a_bot_choice_the_server_cannot_run_is_invalid_argument(choice: bots_pb2.BotChoice, field: str) -> None:
    request = _state()
    request.bot.CopyFrom(choice)
    with pytest.raises(ApiError) as caught:
        apply.apply_action(request, Call("t"))
    assert caught.value.code is Code.INVALID_ARGUMENT and caught.value.reason == "INVALID_BOT_CHOICE"
    assert [violation.field for violation in caught.value.field_violations] == [field]


def test_the_iteration_bound_is_the_servers_setting() -> None:
    call = Call("t")
    call.config = ApiConfig(KeyRing.generate(), max_bot_iterations=3)
    request = _state()
    request.bot.CopyFrom(_bot("ismcts", iterations=4))
    with pytest.raises(ApiError) as caught:
        apply.apply_action(request, call)
    assert caught.value.reason == "INVALID_BOT_CHOICE" and "at most 3 iterations" in str(caught.value)
    request.bot.iterations = 3
    assert apply.apply_action(request, call).HasField("applied")


def test_action_and_bot_together_are_refused() -> None:
    request = _state()
    request.bot.CopyFrom(_bot("random"))
    request.action.action_id = 0
    with pytest.raises(ApiError) as caught:
        apply.apply_action(request, Call("t"))
    assert caught.value.reason == "INVALID_BOT_CHOICE"


def test_the_observation_is_the_next_seats_in_plain_mode() -> None:
    request = _state()
    request.action.action_id = 0
    request.include_observation = True
    response = apply.apply_action(request, Call("t"))
    expected = observe(state_from_proto(response.state), response.acting_seat)
    assert response.observation.seat == response.acting_seat == response.view.viewer_seat
    assert tuple(response.observation.values) == pytest.approx(expected.values)
    assert tuple(response.observation.legal_action_mask) == expected.legal_action_mask
    assert not response.legal_actions  # only asked for the observation


def test_in_sealed_mode_another_seats_legal_actions_stay_empty_and_the_observation_is_the_viewers() -> None:
    state = new_game(GameConfig(2, 5, first_seat=0))[0]
    other = engine_service_pb2.ApplyActionResponse()
    fill_next_move(other, state, legal=True, observation=True, sealed=True, viewer=1)
    assert other.acting_seat == 0 and not other.legal_actions
    assert other.observation.seat == 1 and not any(other.observation.legal_action_mask)
    assert not other.HasField("view")  # the sealed handler writes the viewer's view itself
    own = engine_service_pb2.ApplyActionResponse()
    fill_next_move(own, state, legal=True, observation=True, sealed=True, viewer=0)
    assert len(own.legal_actions) == len(legal_actions(state))
    spectator = engine_service_pb2.ApplyActionResponse()
    fill_next_move(spectator, state, legal=True, observation=True, sealed=True, viewer=None)
    assert not spectator.legal_actions and not spectator.HasField("observation")


def test_an_explicit_payment_paying_gold_first_is_applied_and_kept_in_applied() -> None:
    held = (2, 2, 2, 2, 0, 2)
    state = give_tokens(dealt(2, seed=1), 0, held)
    card = next(
        c for row in state.market for c in row if c is not None and CARDS[c].cost[4] == 0 and sum(CARDS[c].cost) > 2
    )
    cost = CARDS[card].cost
    gold = 2
    coloured = list(cost)
    for color in range(5):  # gold first: gold covers the first gems, coloured tokens the rest
        used = min(gold, coloured[color])
        coloured[color] -= used
        gold -= used
    assert all(need <= have for need, have in zip(coloured, held)), "the deal's card must fit the tokens"
    request = engine_service_pb2.ApplyActionRequest(state=state_to_proto(state))
    request.action.purchase_card.card_id = card
    payment = request.action.purchase_card.payment
    payment.white, payment.blue, payment.green, payment.red, payment.black = coloured
    payment.gold = 2
    response = apply.apply_action(request, Call("t"))
    assert response.applied.action == request.action
    assert response.applied.action_id == action_id(PurchaseCard(card))
    assert response.state.players[0].tokens.gold == 0
