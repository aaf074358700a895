"""Valid requests of every RPC, every module, 2-4 players: the seeds the fuzzer mutates.

Built through a running server with the public stubs only (CreateGame, then random legal
play), so the corpus follows the contract, not the server's internals.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

import grpc
from google.protobuf.message import Message
from splendor.v1 import config_pb2, engine_service_pb2, engine_service_pb2_grpc

SERVICE = "/splendor.v1.EngineService/"
# Every RPC with its request and response types.
RPCS: dict[str, tuple[type[Message], type[Message]]] = {
    "GetCatalog": (engine_service_pb2.GetCatalogRequest, engine_service_pb2.GetCatalogResponse),
    "CreateGame": (engine_service_pb2.CreateGameRequest, engine_service_pb2.CreateGameResponse),
    "ListLegalActions": (engine_service_pb2.ListLegalActionsRequest, engine_service_pb2.ListLegalActionsResponse),
    "ApplyAction": (engine_service_pb2.ApplyActionRequest, engine_service_pb2.ApplyActionResponse),
    "GetPlayerView": (engine_service_pb2.GetPlayerViewRequest, engine_service_pb2.GetPlayerViewResponse),
    "ReplayGame": (engine_service_pb2.ReplayGameRequest, engine_service_pb2.ReplayGameResponse),
}
MODULES: tuple[tuple[int, ...], ...] = (
    (),
    (config_pb2.MODULE_CITIES,),
    (config_pb2.MODULE_TRADING_POSTS,),
    (config_pb2.MODULE_STRONGHOLDS,),
    (config_pb2.MODULE_ORIENT,),
)


class Seed(NamedTuple):
    """A valid request: the RPC's name and the request message."""

    rpc: str
    request: Message


def build_corpus(channel: grpc.Channel, rng: random.Random, steps: int = 60) -> list[Seed]:
    """Valid requests of every RPC for every module and 2-4 players, from games played ``steps`` actions."""
    stub: Any = engine_service_pb2_grpc.EngineServiceStub(channel)
    seeds = [Seed("GetCatalog", engine_service_pb2.GetCatalogRequest())]
    for modules in MODULES:
        for players in (2, 3, 4):
            config = config_pb2.GameConfig(num_players=players, seed=rng.getrandbits(64), modules=modules)
            seeds.append(Seed("CreateGame", engine_service_pb2.CreateGameRequest(config=config)))
            created = stub.CreateGame(engine_service_pb2.CreateGameRequest(config=config))
            state, events, played = created.state, list(created.events), []
            for step in range(steps):
                listed = stub.ListLegalActions(engine_service_pb2.ListLegalActionsRequest(state=state))
                if not listed.actions:
                    break
                chosen = rng.choice(listed.actions)
                request = engine_service_pb2.ApplyActionRequest(state=state, action=chosen.action)
                if step % 2 == 0:  # half of them with the optional guards
                    request.seat, request.expected_turn = listed.seat, state.turn
                if step % 15 == 0:  # a handful of positions per game, spread over it
                    seeds.append(Seed("ListLegalActions", engine_service_pb2.ListLegalActionsRequest(state=state)))
                    seeds.append(Seed("ApplyAction", request))
                    view = engine_service_pb2.GetPlayerViewRequest(state=state, seat=listed.seat, events=events)
                    seeds.append(Seed("GetPlayerView", view))
                applied = stub.ApplyAction(request)
                state, events = applied.state, list(applied.events)
                played.append(chosen.action)
            seeds.append(Seed("ReplayGame", engine_service_pb2.ReplayGameRequest(config=config, actions=played)))
    return seeds
