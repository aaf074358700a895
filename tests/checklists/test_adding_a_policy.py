"""Checklist "Adding a bot policy" (docs/architecture.md): a policy registered once, and nowhere else, is listed by
the catalog, served over gRPC and Connect, made by the in-process door and offered by the Python client's tools;
a name nobody registered is refused with the registered ones. (The TypeScript client's side is
clients/typescript/test/policies.test.ts, against ``python -m tests.checklists.servers``.)"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from google.protobuf import json_format
from splendor.v1 import bots_pb2, engine_service_pb2
from splendor_client import InvalidRequest, connect
from splendor_client.play import unknown_bots
from splendor_client.tournament_games import check_bot, is_server_bot, offered_bots

from engine_service import in_process
from engine_service.bots import policy_names, registered_policy
from engine_service.rules import action_id
from tests.checklists.lowest_id import LOWEST_ID, NAME
from tests.checklists.servers import Addresses, serving
from tests.http.support import connect_json, connect_refusal


@pytest.fixture(scope="module")
def served() -> Iterator[Addresses]:
    with registered_policy(LOWEST_ID), serving() as addresses:
        yield addresses


def test_the_catalog_lists_it_last_and_the_python_client_offers_it(served: Addresses) -> None:
    with connect(served.grpc) as client:
        assert client.bot_policies() == [*policy_names()] and client.bot_policies()[-1] == NAME
        catalog = client.get_catalog()
    assert NAME not in catalog.search_policies
    assert NAME in offered_bots(served.grpc).names and is_server_bot(NAME)
    check_bot(NAME, served.grpc)  # splendor-tournament --server plays it on the server
    assert unknown_bots([NAME], catalog) == []  # splendor-play --bot lowest_id too


def test_it_chooses_the_servers_moves_over_grpc(served: Addresses) -> None:
    with connect(served.grpc) as client:
        state = client.new_game(num_players=2, seed=3).state
        lowest = min(legal.action_id for legal in client.legal_actions(state))
        request = engine_service_pb2.ApplyActionRequest(state=state, bot=bots_pb2.BotChoice(policy=NAME))
        assert client.apply_request(request).applied.action_id == lowest
        simulated = client.simulate(
            engine_service_pb2.SimulateRequest(state=state, playouts=1, policies=[bots_pb2.BotChoice(policy=NAME)])
        )
    assert simulated.summary.playouts == 1


def test_it_chooses_the_servers_moves_over_connect(served: Addresses) -> None:
    port = int(served.http.rpartition(":")[2])
    created = connect_json(port, "CreateGame", {"config": {"numPlayers": 2, "seed": "3"}}).json()
    listed = connect_json(port, "ListLegalActions", {"state": created["state"]}).json()
    lowest = min(int(legal.get("actionId", 0)) for legal in listed["actions"])
    applied = connect_json(port, "ApplyAction", {"state": created["state"], "bot": {"policy": NAME}}).json()
    assert int(applied["applied"].get("actionId", 0)) == lowest


def test_the_in_process_door_makes_it(served: Addresses) -> None:
    state = in_process.deal(2, 3)
    assert in_process.policy_names()[-1] == NAME
    assert tuple(in_process.catalog_message().bot_policies)[-1] == NAME
    choice = in_process.make_policy(NAME, 1).choose(state)
    assert action_id(choice) == min(action_id(action) for action in in_process.legal_actions(state))


def test_a_name_nobody_registered_is_refused_with_the_registered_ones(served: Addresses) -> None:
    reason = "unknown bot policy 'highest_id': use one of random, greedy, ismcts, lowest_id"
    with connect(served.grpc) as client:
        state = client.new_game(num_players=2, seed=3).state
        request = engine_service_pb2.ApplyActionRequest(state=state, bot=bots_pb2.BotChoice(policy="highest_id"))
        with pytest.raises(InvalidRequest) as refused:
            client.apply_request(request)
    assert refused.value.reason == "INVALID_BOT_CHOICE" and reason in refused.value.message
    port = int(served.http.rpartition(":")[2])
    body = {"state": json_format.MessageToDict(state), "bot": {"policy": "highest_id"}}
    refusal = connect_refusal(connect_json(port, "ApplyAction", body))
    assert (refusal.code, refusal.reason) == ("INVALID_ARGUMENT", "INVALID_BOT_CHOICE")
    assert reason in refusal.message and refusal.fields == ["bot.policy"]
