"""BatchApplyActions (engine_service/api/batch.py), called in process.

Rules: each item gets exactly what ApplyAction answers for it alone, its response or the google.rpc.Status
of its refusal, whatever the other items; the call itself is refused only for more items than the server
takes (before any is read), an answer over the largest message, or a caller gone; an item's bug fails that
item alone; the bounds are published in the catalog; a batch is expensive by its content; the call's facts
hold the item count and each item's own facts.
"""

from __future__ import annotations

import gc
import random
import weakref
from typing import Any

import pytest
from google.rpc import error_details_pb2, status_pb2  # type: ignore[import-untyped]
from hypothesis import given, settings
from hypothesis import strategies as st
from splendor.v1 import actions_pb2, bots_pb2, config_pb2, engine_service_pb2

from engine_service.api import ApiConfig, ApiError, Call, Code, batch
from engine_service.api.config import DEFAULT_MAX_BATCH_ITEMS
from engine_service.api.error_status import status_message
from engine_service.api.limits import is_expensive
from engine_service.runtime.settings import Settings
from tests.noninterference.twins import pinned_entropy
from tests.sealing.api import CONFIG, call

pb = engine_service_pb2


def _game(players: int = 2, seed: int = 1, *, sealed: bool = False) -> pb.CreateGameResponse:
    config = config_pb2.GameConfig(num_players=players, seed=seed)
    return call("CreateGame", pb.CreateGameRequest(config=config, sealed=sealed, public_deal=sealed))  # type: ignore[no-any-return]


def _legal(request: Any) -> list[int]:
    return [action.action_id for action in call("ListLegalActions", request).actions]


def _item_kinds(rng: random.Random) -> list[pb.ApplyActionRequest]:
    """Requests of every kind ApplyAction takes, valid and not: plain and sealed, actions, ids, bots,
    validate_only, the next move's options, and malformed ones."""
    plain = _game(3, rng.getrandbits(32)).state
    sealed = _game(2, rng.getrandbits(32), sealed=True)
    token, keys = sealed.sealed_state, list(sealed.seat_keys)
    acting = call("ListLegalActions", pb.ListLegalActionsRequest(sealed_state=token)).seat
    plain_ids = _legal(pb.ListLegalActionsRequest(state=plain))
    sealed_ids = _legal(pb.ListLegalActionsRequest(sealed_state=token, seat=acting, seat_key=keys[acting]))
    move = rng.choice(plain_ids)
    items = [
        pb.ApplyActionRequest(state=plain, action=actions_pb2.Action(action_id=move)),
        pb.ApplyActionRequest(
            state=plain, action=actions_pb2.Action(action_id=move), include_legal_actions=True, include_observation=True
        ),
        pb.ApplyActionRequest(
            state=plain, action=actions_pb2.Action(action_id=move), include_observation=True, observation_legal_ids=True
        ),
        pb.ApplyActionRequest(state=plain, action=actions_pb2.Action(action_id=move), validate_only=True),
        pb.ApplyActionRequest(state=plain, action=actions_pb2.Action(action_id=9000)),  # not an action id
        pb.ApplyActionRequest(state=plain, action=actions_pb2.Action(action_id=move), expected_turn=9),  # stale
        pb.ApplyActionRequest(state=plain, bot=bots_pb2.BotChoice(policy="greedy", seed=3), include_legal_actions=True),
        pb.ApplyActionRequest(state=plain, bot=bots_pb2.BotChoice(policy="nobody")),
        pb.ApplyActionRequest(action=actions_pb2.Action(action_id=move)),  # no state
        pb.ApplyActionRequest(
            sealed_state=token,
            action=actions_pb2.Action(action_id=rng.choice(sealed_ids)),
            seat=acting,
            seat_key=keys[acting],
            include_legal_actions=True,
            include_observation=True,
        ),
        pb.ApplyActionRequest(sealed_state=token, action=actions_pb2.Action(action_id=0)),  # no key
        pb.ApplyActionRequest(sealed_state=token, action=actions_pb2.Action(action_id=0), seat_key=keys[1 - acting]),
        pb.ApplyActionRequest(
            sealed_state=token, bot=bots_pb2.BotChoice(policy="ismcts", iterations=4), seat_key=keys[acting]
        ),
        pb.ApplyActionRequest(sealed_state=token[:-3], action=actions_pb2.Action(action_id=0)),  # truncated token
        # The options of a batched bot loop and environment: ids, deals, server-side replies, a seat's observation.
        pb.ApplyActionRequest(
            state=plain,
            action=actions_pb2.Action(action_id=move),
            include_legal_action_ids=True,
            skip_events=True,
            skip_view=True,
        ),
        pb.ApplyActionRequest(
            deal=config_pb2.GameConfig(num_players=2, seed=rng.getrandbits(32)), include_legal_action_ids=True
        ),
        pb.ApplyActionRequest(
            state=plain,
            action=actions_pb2.Action(action_id=move),
            reply_bots={1: bots_pb2.BotChoice(policy="random"), 2: bots_pb2.BotChoice(policy="greedy")},
            reply_seeds=[rng.getrandbits(32), rng.getrandbits(32)],
            observation_seat=0,
        ),
        pb.ApplyActionRequest(  # another seat's legal actions: none for a sealed request
            sealed_state=token,
            action=actions_pb2.Action(action_id=rng.choice(sealed_ids)),
            seat=1 - acting,
            seat_key=keys[1 - acting],
            include_legal_action_ids=True,
        ),
        pb.ApplyActionRequest(  # a sealed request observes its own seat only
            sealed_state=token,
            action=actions_pb2.Action(action_id=0),
            seat_key=keys[acting],
            observation_seat=1 - acting,
        ),
    ]
    broken = pb.ApplyActionRequest(state=plain, action=actions_pb2.Action(action_id=move))
    broken.state.bank.gold = 99  # an impossible state
    return [*items, broken]


def _alone(request: pb.ApplyActionRequest, config: ApiConfig = CONFIG) -> tuple[object, ...]:
    """What ApplyAction answers for ``request``: its response (token left out: every sealing draws a new nonce)
    or its status, serialized."""
    try:
        response = call("ApplyAction", request, config)
    except ApiError as error:
        return ("error", status_message(error).SerializeToString(deterministic=True))
    response.ClearField("sealed_state")
    return ("response", response.SerializeToString(deterministic=True))


def _in_batch(result: pb.BatchApplyActionsResult) -> tuple[object, ...]:
    if result.HasField("error"):
        return ("error", result.error.SerializeToString(deterministic=True))
    response = pb.ApplyActionResponse()
    response.CopyFrom(result.response)
    response.ClearField("sealed_state")
    return ("response", response.SerializeToString(deterministic=True))


@settings(max_examples=12, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32), picks=st.lists(st.integers(0, 19), min_size=1, max_size=24))
def test_each_item_gets_what_apply_action_answers_it_alone(seed: int, picks: list[int]) -> None:
    kinds = _item_kinds(random.Random(seed))
    items = [kinds[pick % len(kinds)] for pick in picks]
    with pinned_entropy():  # a sealed bot's sampling: the same draws in the batch and alone
        results = call("BatchApplyActions", pb.BatchApplyActionsRequest(requests=items)).results
        assert len(results) == len(items)
        assert [_in_batch(result) for result in results] == [_alone(item) for item in items]


def test_one_malformed_item_among_valid_ones_is_refused_alone() -> None:
    state = _game(2, 5).state
    ids = _legal(pb.ListLegalActionsRequest(state=state))
    items = [pb.ApplyActionRequest(state=state, action=actions_pb2.Action(action_id=value)) for value in ids[:4]]
    broken = pb.ApplyActionRequest(state=state, action=actions_pb2.Action(action_id=ids[0]))
    broken.state.players[0].tokens.red = 1_000
    items.insert(2, broken)
    results = call("BatchApplyActions", pb.BatchApplyActionsRequest(requests=items)).results
    assert [result.WhichOneof("outcome") for result in results] == [
        "response",
        "response",
        "error",
        "response",
        "response",
    ]
    error: status_pb2.Status = results[2].error
    assert error.code == Code.INVALID_ARGUMENT.value
    info = error_details_pb2.ErrorInfo()
    assert error.details[0].Unpack(info) and (info.reason, info.domain) == ("INVALID_STATE", "splendor.v1")
    bad_request = error_details_pb2.BadRequest()
    assert error.details[1].Unpack(bad_request)
    assert bad_request.field_violations[0].field.startswith("state.")  # the item's own field path
    assert [result.response.applied.action_id for i, result in enumerate(results) if i != 2] == ids[:4]


def test_an_empty_batch_has_no_results() -> None:
    assert not call("BatchApplyActions", pb.BatchApplyActionsRequest()).results


def test_more_items_than_the_server_takes_are_refused_before_any_is_read() -> None:
    config = ApiConfig(CONFIG.key_ring, max_batch_items=3)
    item = pb.ApplyActionRequest(state=_game().state, action=actions_pb2.Action(action_id=0))
    assert len(call("BatchApplyActions", pb.BatchApplyActionsRequest(requests=[item] * 3), config).results) == 3
    with pytest.raises(ApiError) as caught:
        call("BatchApplyActions", pb.BatchApplyActionsRequest(requests=[pb.ApplyActionRequest()] * 4), config)
    error = caught.value
    assert (error.code, error.reason) == (Code.INVALID_ARGUMENT, "BATCH_TOO_LARGE")
    assert error.metadata == {"items": "4", "limit": "3"}
    assert [violation.field for violation in error.field_violations] == ["requests"]


def test_an_answer_over_the_largest_message_refuses_the_call() -> None:
    state = _game().state
    item = pb.ApplyActionRequest(state=state, action=actions_pb2.Action(action_id=0), include_observation=True)
    size = call("BatchApplyActions", pb.BatchApplyActionsRequest(requests=[item] * 4)).ByteSize()
    config = ApiConfig(CONFIG.key_ring, max_response_bytes=size - 1)
    with pytest.raises(ApiError) as caught:
        call("BatchApplyActions", pb.BatchApplyActionsRequest(requests=[item] * 4), config)
    assert (caught.value.reason, caught.value.metadata["limit"]) == ("RESPONSE_TOO_LARGE", str(size - 1))
    assert call("BatchApplyActions", pb.BatchApplyActionsRequest(requests=[item] * 3), config).results


def test_a_caller_gone_stops_the_call_between_items() -> None:
    item = pb.ApplyActionRequest(state=_game().state, action=actions_pb2.Action(action_id=0))
    checks = []

    def active() -> bool:
        checks.append(True)
        return len(checks) <= 2

    handle = Call("BatchApplyActions", is_active=active)
    handle.config = CONFIG
    every = batch.CHECK_CALLER_EVERY
    with pytest.raises(ApiError) as caught:
        batch.batch_apply_actions(pb.BatchApplyActionsRequest(requests=[item] * (3 * every + 1)), handle)
    assert caught.value.code == Code.CANCELLED
    # Checked before items 0 and ``every``, then before ``2 * every``, where the caller was gone: no item after it.
    assert len(checks) == 3


def test_a_bug_in_one_item_fails_that_item_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _game().state
    ids = _legal(pb.ListLegalActionsRequest(state=state))
    real = batch.answer

    def broken(request: pb.ApplyActionRequest, item: Call, response: pb.ApplyActionResponse) -> None:
        if request.action.action_id == ids[1]:
            response.state.CopyFrom(request.state)  # half written, then a bug
            raise KeyError("a bug")
        real(request, item, response)

    monkeypatch.setattr(batch, "answer", broken)
    items = [pb.ApplyActionRequest(state=state, action=actions_pb2.Action(action_id=value)) for value in ids[:3]]
    handle = Call("BatchApplyActions")
    results = batch.batch_apply_actions(pb.BatchApplyActionsRequest(requests=items), handle).results
    assert [result.WhichOneof("outcome") for result in results] == ["response", "error", "response"]
    assert (results[1].error.code, results[1].error.message, list(results[1].error.details)) == (
        13,
        "internal error",
        [],
    )
    assert (handle.items, handle.items_refused) == (3, 1)
    assert [item.refusal_code for item in handle.item_calls] == [None, "INTERNAL", None]


def test_the_call_records_its_item_count_and_each_items_facts() -> None:
    state = _game(2, 9).state
    ids = _legal(pb.ListLegalActionsRequest(state=state))
    items = [
        pb.ApplyActionRequest(state=state, action=actions_pb2.Action(action_id=ids[0])),
        pb.ApplyActionRequest(state=state, action=actions_pb2.Action(action_id=9000)),
        pb.ApplyActionRequest(state=state, action=actions_pb2.Action(action_id=ids[0]), validate_only=True),
    ]
    handle = Call("BatchApplyActions")
    handle.config = CONFIG
    batch.batch_apply_actions(pb.BatchApplyActionsRequest(requests=items), handle)
    assert handle.log_fields() == {"items": 3, "items_refused": 1}
    first, second, third = handle.item_calls
    assert (first.action_applied, first.refusal_code, first.seat, first.turn) == (True, None, state.seat, 0)
    assert (second.action_applied, second.refusal_code, second.reason) == (False, "INVALID_ARGUMENT", "UNKNOWN_ACTION")
    assert (third.action_applied, third.validate_only) == (False, True)


def test_a_batchs_calls_are_freed_without_the_cyclic_collector() -> None:
    """The call and its items form no reference cycle: each batch would otherwise leave them all to the collector."""
    state = _game(2, 9).state
    ids = _legal(pb.ListLegalActionsRequest(state=state))
    items = [pb.ApplyActionRequest(state=state, action=actions_pb2.Action(action_id=value)) for value in ids[:3]]
    handle = Call("BatchApplyActions")
    handle.config = CONFIG
    batch.batch_apply_actions(pb.BatchApplyActionsRequest(requests=items), handle)
    freed = [weakref.ref(handle), *map(weakref.ref, handle.item_calls)]
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        del handle
        assert [ref() for ref in freed] == [None] * 4
    finally:
        if was_enabled:
            gc.enable()


def test_an_item_stops_when_its_batch_is_cancelled_or_out_of_time() -> None:
    handle = Call("BatchApplyActions", time_remaining=lambda: 5.0, budget_seconds=60.0)
    item = handle.item("ApplyAction")
    remaining = item.time_remaining()
    assert item.is_active() and remaining is not None and remaining <= 5.0
    handle.cancel()
    assert not item.is_active()
    assert not item.deadline_passed()  # cancelled, not out of time


def test_the_catalog_publishes_the_servers_bounds() -> None:
    settings_ = Settings(
        max_batch_items=17, max_request_bytes=123_456, max_response_bytes=654_321, max_replay_actions=99
    )
    config = settings_.api_config(CONFIG.key_ring)
    limits = call("GetCatalog", pb.GetCatalogRequest(), config).catalog.limits
    assert (limits.max_batch_items, limits.max_request_bytes, limits.max_response_bytes) == (17, 123_456, 654_321)
    assert (limits.max_replay_actions, limits.max_bot_iterations) == (99, settings_.max_bot_iterations)
    assert call("GetCatalog", pb.GetCatalogRequest()).catalog.limits.max_batch_items == DEFAULT_MAX_BATCH_ITEMS


def test_a_batch_is_expensive_with_a_search_move_only() -> None:
    # Rule: a batch's moves cost a move's worth each; at the most items a server takes, still not a search's cost.
    cheap = pb.ApplyActionRequest(action=actions_pb2.Action(action_id=0))
    search = pb.ApplyActionRequest(bot=bots_pb2.BotChoice(policy="ismcts"))
    greedy = pb.ApplyActionRequest(bot=bots_pb2.BotChoice(policy="greedy"))
    assert not is_expensive("BatchApplyActions", pb.BatchApplyActionsRequest(requests=[cheap, greedy] * 5))
    many = pb.BatchApplyActionsRequest(requests=[cheap] * DEFAULT_MAX_BATCH_ITEMS)
    assert not is_expensive("BatchApplyActions", many)
    assert is_expensive("BatchApplyActions", pb.BatchApplyActionsRequest(requests=[cheap, search]))
    assert is_expensive("ApplyAction", search) and not is_expensive("ApplyAction", greedy)
