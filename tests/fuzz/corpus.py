"""Valid requests of every RPC, every module, 2-4 players: the seeds the fuzzer mutates.

Built through a running server with the public stubs only (CreateGame, then random legal
play), so the corpus follows the contract, not the server's internals; sealed requests carry the
seat keys the server handed out. Given the server's key ring (a test key), the corpus also holds
forged tokens: states no game reaches, sealed under that key, as a forger holding a leaked key
would send them.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

import grpc
from google.protobuf.message import Message
from splendor.v1 import actions_pb2, bots_pb2, config_pb2, engine_service_pb2, engine_service_pb2_grpc, state_pb2

from engine_service.api import METHODS
from engine_service.api import SERVICE as API_SERVICE
from engine_service.sealing import Binding, KeyRing, issue_seat_keys, new_game_id, new_game_secret, seal

SERVICE = f"/{API_SERVICE}/"
# Every RPC of the method table with its request and response types.
RPCS: dict[str, tuple[type[Message], type[Message]]] = {
    method.name: (method.request_type, method.response_type) for method in METHODS
}
BATCHES = 16  # batch seeds, of 1 to 6 ApplyAction seeds each
# The base game, then each module of the contract's Module enum.
MODULES: tuple[tuple[int, ...], ...] = ((), *((value,) for value in config_pb2.Module.values() if value))


class Seed(NamedTuple):
    """A valid request: the RPC's name and the request message."""

    rpc: str
    request: Message
    forged: bool = False  # a token the server did not seal (a forger's, under the test key)


def build_corpus(channel: grpc.Channel, rng: random.Random, steps: int = 60, ring: KeyRing | None = None) -> list[Seed]:
    """Valid requests of every RPC for every module and 2-4 players, from games played ``steps`` actions; with the
    server's ``ring``, forged tokens too."""
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
                    if ring is not None and step % 30 == 0:
                        seeds += forged_seeds(ring, state, rng)
                    seeds.append(Seed("ListLegalActions", engine_service_pb2.ListLegalActionsRequest(state=state)))
                    seeds.append(Seed("ApplyAction", request))
                    view = engine_service_pb2.GetPlayerViewRequest(state=state, seat=listed.seat, events=events)
                    seeds.append(Seed("GetPlayerView", view))
                    seeds += bot_seeds(state, listed.seat, rng)
                applied = stub.ApplyAction(request)
                state, events = applied.state, list(applied.events)
                played.append(chosen.action)
            seeds.append(Seed("ReplayGame", engine_service_pb2.ReplayGameRequest(config=config, actions=played)))
            seeds += sealed_seeds(stub, config, played, rng)
    return seeds + batch_seeds(seeds, rng)


def batch_seeds(seeds: list[Seed], rng: random.Random) -> list[Seed]:
    """BatchApplyActions requests of the corpus's ApplyAction requests (plain, sealed, bots, forged tokens), mixed:
    a batch is answered OK whatever its items, so a forged item makes no forged seed."""
    applies = [seed.request for seed in seeds if seed.rpc == "ApplyAction"]
    sealed = [request for request in applies if request.HasField("sealed_state")]
    batches = []
    for index in range(BATCHES):
        items = rng.sample(applies, rng.randint(1, 6))
        if index % 2 == 0:  # half of them with a sealed item at least
            items.append(rng.choice(sealed))
        batches.append(Seed("BatchApplyActions", engine_service_pb2.BatchApplyActionsRequest(requests=items)))
    return batches


def sealed_seeds(stub: Any, config: config_pb2.GameConfig, played: list[Any], rng: random.Random) -> list[Seed]:
    """The same game in sealed mode: a sealed deal, a sealed replay, and requests carrying its tokens
    (so that byte- and protobuf-level mutations reach the tokens too)."""
    seat = rng.randrange(config.num_players)
    drawn = config_pb2.GameConfig()
    drawn.CopyFrom(config)
    drawn.seed = 0  # a sealed deal's seed is the server's to draw
    seeds = [
        Seed("CreateGame", engine_service_pb2.CreateGameRequest(config=drawn, sealed=True, seat=seat)),
        Seed("CreateGame", engine_service_pb2.CreateGameRequest(config=config, sealed=True, public_deal=True)),
        Seed("ReplayGame", engine_service_pb2.ReplayGameRequest(config=config, actions=played, sealed=True, seat=seat)),
    ]
    for cut in (0, len(played) // 2):
        replayed = stub.ReplayGame(
            engine_service_pb2.ReplayGameRequest(config=config, actions=played[:cut], sealed=True)
        )
        token, keys = replayed.sealed_state, list(replayed.seat_keys)
        listed = stub.ListLegalActions(engine_service_pb2.ListLegalActionsRequest(sealed_state=token))
        if not listed.actions:
            continue
        acting = listed.seat
        seeds += token_seeds(token, keys, acting, rng.choice(listed.actions).action)
    return seeds


def token_seeds(token: bytes, keys: list[str], acting: int, action: Any) -> list[Seed]:
    """Requests of every RPC that takes a token, as the acting seat with its key (a bot move without a seat)."""
    key = keys[acting]
    return [
        Seed(
            "ListLegalActions",
            engine_service_pb2.ListLegalActionsRequest(sealed_state=token, seat=acting, seat_key=key),
        ),
        Seed(
            "ApplyAction",
            engine_service_pb2.ApplyActionRequest(sealed_state=token, action=action, seat=acting, seat_key=key),
        ),
        Seed(
            "ApplyAction",
            engine_service_pb2.ApplyActionRequest(
                sealed_state=token, bot=bots_pb2.BotChoice(policy="ismcts", iterations=3), seat_key=key
            ),
        ),
        Seed("GetPlayerView", engine_service_pb2.GetPlayerViewRequest(sealed_state=token, seat=acting, seat_key=key)),
        Seed("GetPlayerView", engine_service_pb2.GetPlayerViewRequest(sealed_state=token)),
        Seed(
            "Determinize",
            engine_service_pb2.DeterminizeRequest(sealed_state=token, seat=acting, count=2, seat_key=key),
        ),
        Seed(
            "Simulate",
            engine_service_pb2.SimulateRequest(
                sealed_state=token,
                seat=acting,
                seat_key=key,
                playouts=2,
                max_actions=40,
                policies=[bots_pb2.BotChoice(policy="random")],
            ),
        ),
    ]


def forged_seeds(ring: KeyRing, state: state_pb2.GameState, rng: random.Random) -> list[Seed]:
    """Tokens of a forger holding ``ring``: the position changed into a state no game reaches (a field set to an
    extreme, a card out of the catalog, bits flipped), with its seat keys, in requests of every RPC taking one."""
    forged = state_pb2.GameState()
    forged.CopyFrom(state)
    change = rng.randrange(3)
    if change == 0 and forged.decks and forged.decks[0].card_ids:
        forged.decks[0].card_ids[0] = rng.choice((90, 120, 4000, 2**32 - 1))
    elif change == 1:
        forged.bank.gold = rng.choice((0, 6, 2**32 - 1))
        forged.seat = rng.choice((0, 3, 4, 2**32 - 1))
    data = forged.SerializeToString()
    if change == 2:
        flipped = bytearray(data)
        for _ in range(rng.choice((1, 2, 5))):
            flipped[rng.randrange(len(flipped))] ^= 1 << rng.randrange(8)
        data = bytes(flipped)
    seeds: list[Seed] = []
    for content in (state.SerializeToString(), data):
        game_id = new_game_id()
        # The header names the true position's acting seat: a forged content is refused for its state.
        acting = state.pending_decision.seat if state.HasField("pending_decision") else state.seat
        secret = new_game_secret()
        token = seal(ring, content, Binding(game_id, state.turn, state.turn, acting_seat=acting), secret)
        keys = issue_seat_keys(secret, game_id, 4)  # a forger may claim any player count: keys for every seat
        listed_seat = state.seat if state.seat < 4 else 0
        seeds += [
            seed._replace(forged=True)
            for seed in token_seeds(token, keys, listed_seat, actions_pb2.Action(action_id=0))
        ]
    return seeds


def bot_seeds(state: Any, seat: int, rng: random.Random) -> list[Seed]:
    """Requests of the bot API at one position: a server-side move, an observation, playouts and samples."""
    bot = bots_pb2.BotChoice(policy=rng.choice(("random", "greedy")), seed=rng.getrandbits(64))
    simulate = engine_service_pb2.SimulateRequest(state=state, playouts=2, max_actions=40, seed=rng.getrandbits(64))
    simulate.policies.append(bot)
    return [
        Seed(
            "ApplyAction",
            engine_service_pb2.ApplyActionRequest(
                state=state, bot=bot, seat=seat, include_legal_actions=True, include_observation=True
            ),
        ),
        Seed(
            "GetPlayerView", engine_service_pb2.GetPlayerViewRequest(state=state, seat=seat, include_observation=True)
        ),
        Seed("Simulate", simulate),
        Seed("Determinize", engine_service_pb2.DeterminizeRequest(state=state, seat=seat, count=2, seed=1)),
    ]
