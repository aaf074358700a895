"""The ApplyAction options of a batched bot loop or environment, called in process: what each one answers.

Rules: ``include_legal_action_ids`` lists the ids of the actions ``include_legal_actions`` lists, in order,
for the same seat (none for a sealed request whose seat does not act); ``deal`` answers as CreateGame then
ApplyAction would; ``skip_events`` and ``skip_view`` leave out only what they name; each ``reply_bots`` reply is
the move ApplyAction with that bot and seed plays, for plain states only, with at most 64 seeds;
``observation_seat`` observes the seat it names in plain mode and only the request's own seat when sealed.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from splendor.v1 import actions_pb2, bots_pb2, config_pb2, engine_service_pb2

from engine_service.api import ApiError
from tests.sealing.api import call

pb = engine_service_pb2


def _position(seed: int, moves: int) -> pb.ApplyActionResponse:
    """A 2-player game ``moves`` random moves in (fewer if it ends), as ApplyAction last answered it."""
    rng = random.Random(seed)
    request = pb.ApplyActionRequest(deal=config_pb2.GameConfig(num_players=2, seed=seed), include_legal_actions=True)
    response: pb.ApplyActionResponse = call("ApplyAction", request)
    for _ in range(moves):
        if not response.legal_actions:
            break
        chosen = response.legal_actions[rng.randrange(len(response.legal_actions))].action_id
        request = pb.ApplyActionRequest(
            state=response.state, action=actions_pb2.Action(action_id=chosen), include_legal_actions=True
        )
        response = call("ApplyAction", request)
    return response


@settings(max_examples=15, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32), moves=st.integers(0, 120))
def test_legal_action_ids_are_the_ids_of_the_legal_actions_in_order(seed: int, moves: int) -> None:
    position = _position(seed, moves)
    if not position.legal_actions:
        return
    move = actions_pb2.Action(action_id=position.legal_actions[0].action_id)
    both = call(
        "ApplyAction",
        pb.ApplyActionRequest(
            state=position.state, action=move, include_legal_actions=True, include_legal_action_ids=True
        ),
    )
    ids_only = call(
        "ApplyAction", pb.ApplyActionRequest(state=position.state, action=move, include_legal_action_ids=True)
    )
    assert list(both.legal_action_ids) == [action.action_id for action in both.legal_actions]
    assert list(ids_only.legal_action_ids) == list(both.legal_action_ids)
    assert not ids_only.legal_actions
    assert ids_only.view == both.view  # the same view as include_legal_actions gives


def test_a_sealed_request_gets_legal_action_ids_only_for_its_seat_when_it_acts() -> None:
    config = config_pb2.GameConfig(num_players=2, seed=4)
    created = call("CreateGame", pb.CreateGameRequest(config=config, sealed=True, public_deal=True))
    token, keys, acting = created.sealed_state, list(created.seat_keys), created.acting_seat
    listed = call(
        "ListLegalActions", pb.ListLegalActionsRequest(sealed_state=token, seat=acting, seat_key=keys[acting])
    )
    own = [action.action_id for action in listed.actions]
    move = actions_pb2.Action(action_id=own[0])

    def ids(seat: int, *, validate_only: bool) -> tuple[int | None, list[int]]:
        request = pb.ApplyActionRequest(
            sealed_state=token, action=move, seat=seat, seat_key=keys[seat], include_legal_action_ids=True
        )
        request.validate_only = validate_only
        response = call("ApplyAction", request)
        return response.acting_seat, list(response.legal_action_ids)

    assert ids(acting, validate_only=True) == (acting, own)  # its own turn still: its own actions
    assert ids(acting, validate_only=False) == (1 - acting, [])  # the other seat acts next: none of its actions


def test_a_deal_answers_as_create_game_then_apply_action() -> None:
    config = config_pb2.GameConfig(num_players=3, seed=11)
    created = call("CreateGame", pb.CreateGameRequest(config=config))
    alone = call(
        "ApplyAction",
        pb.ApplyActionRequest(state=created.state, include_legal_actions=True, action=actions_pb2.Action(action_id=0)),
    )
    dealt = call(
        "ApplyAction",
        pb.ApplyActionRequest(deal=config, include_legal_actions=True, action=actions_pb2.Action(action_id=0)),
    )
    assert dealt.state == alone.state
    assert list(dealt.legal_actions) == list(alone.legal_actions)
    assert list(dealt.events) == [*created.events, *alone.events]  # the deal's events first
    as_dealt = call("ApplyAction", pb.ApplyActionRequest(deal=config, include_legal_action_ids=True))
    assert as_dealt.state == created.state  # no move: the game as dealt
    listed = call("ListLegalActions", pb.ListLegalActionsRequest(state=created.state))
    assert list(as_dealt.legal_action_ids) == [action.action_id for action in listed.actions]
    with pytest.raises(ApiError) as refused:
        call("ApplyAction", pb.ApplyActionRequest(deal=config_pb2.GameConfig(num_players=9)))
    assert refused.value.code.name == "INVALID_ARGUMENT"


def test_skip_events_and_skip_view_leave_out_only_what_they_name() -> None:
    position = _position(3, 10)
    move = actions_pb2.Action(action_id=position.legal_actions[0].action_id)
    full = call("ApplyAction", pb.ApplyActionRequest(state=position.state, action=move, include_legal_actions=True))
    lean = call(
        "ApplyAction",
        pb.ApplyActionRequest(
            state=position.state, action=move, include_legal_actions=True, skip_events=True, skip_view=True
        ),
    )
    assert full.events and full.HasField("view")
    assert not lean.events and not lean.HasField("view")
    full.ClearField("events")
    full.ClearField("view")
    assert lean == full


def test_each_reply_is_the_move_apply_action_with_that_bot_and_seed_plays() -> None:
    position = _position(8, 6)
    state = position.state
    learner = state.seat
    bots = {
        seat: bots_pb2.BotChoice(policy="greedy" if seat == 1 else "random") for seat in range(2) if seat != learner
    }
    seeds = [101, 202, 303]
    move = actions_pb2.Action(action_id=position.legal_actions[0].action_id)
    replied = call("ApplyAction", pb.ApplyActionRequest(state=state, action=move, reply_bots=bots, reply_seeds=seeds))
    # Step by step: the move, then each seat with a bot plays ApplyAction's bot move with the next seed.
    step = call("ApplyAction", pb.ApplyActionRequest(state=state, action=move))
    played = []
    for seed in seeds:
        if not step.HasField("acting_seat") or step.acting_seat not in bots:
            break
        choice = bots_pb2.BotChoice()
        choice.CopyFrom(bots[step.acting_seat])
        choice.seed = seed
        step = call("ApplyAction", pb.ApplyActionRequest(state=step.state, bot=choice))
        played.append(step.applied)
    assert list(replied.replies) == played
    assert played  # the learner's opponent answered
    assert replied.state == step.state


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda request: request.reply_bots[1].CopyFrom(bots_pb2.BotChoice(policy="ismcts")), "INVALID_BOT_CHOICE"),
        (lambda request: request.reply_bots[5].CopyFrom(bots_pb2.BotChoice(policy="random")), "INVALID_SEAT"),
        (lambda request: request.reply_seeds.extend(range(65)), "INVALID_BOT_CHOICE"),
    ],
)
def test_a_bad_reply_is_refused(change: object, reason: str) -> None:
    position = _position(5, 2)
    request = pb.ApplyActionRequest(
        state=position.state, action=actions_pb2.Action(action_id=position.legal_actions[0].action_id)
    )
    request.reply_bots[1].CopyFrom(bots_pb2.BotChoice(policy="random"))
    change(request)  # type: ignore[operator]
    with pytest.raises(ApiError) as refused:
        call("ApplyAction", request)
    assert refused.value.reason == reason


def test_a_sealed_request_plays_no_replies() -> None:
    created = call("CreateGame", pb.CreateGameRequest(config=config_pb2.GameConfig(num_players=2), sealed=True))
    keys = list(created.seat_keys)
    request = pb.ApplyActionRequest(
        sealed_state=created.sealed_state, seat_key=keys[created.acting_seat], reply_seeds=[1]
    )
    request.action.action_id = 0
    request.reply_bots[1 - created.acting_seat].CopyFrom(bots_pb2.BotChoice(policy="random"))
    with pytest.raises(ApiError) as refused:
        call("ApplyAction", request)
    assert refused.value.reason == "INVALID_BOT_CHOICE"


def test_observation_seat_observes_that_seat_in_plain_mode_and_only_its_own_when_sealed() -> None:
    position = _position(9, 4)
    move = actions_pb2.Action(action_id=position.legal_actions[0].action_id)
    for seat in range(2):
        response = call("ApplyAction", pb.ApplyActionRequest(state=position.state, action=move, observation_seat=seat))
        viewed = call(
            "GetPlayerView", pb.GetPlayerViewRequest(state=response.state, seat=seat, include_observation=True)
        )
        assert response.observation == viewed.observation
    with pytest.raises(ApiError) as refused:
        call("ApplyAction", pb.ApplyActionRequest(state=position.state, action=move, observation_seat=2))
    assert refused.value.reason == "INVALID_SEAT"
    created = call("CreateGame", pb.CreateGameRequest(config=config_pb2.GameConfig(num_players=2), sealed=True))
    keys, acting = list(created.seat_keys), created.acting_seat
    request = pb.ApplyActionRequest(
        sealed_state=created.sealed_state, seat=acting, seat_key=keys[acting], observation_seat=1 - acting
    )
    request.action.action_id = 0
    with pytest.raises(ApiError) as refused:
        call("ApplyAction", request)
    assert refused.value.reason == "INVALID_SEAT"
