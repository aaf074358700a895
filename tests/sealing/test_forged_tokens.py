"""A state sealed under the service's own key but not a game (a forger holding a leaked key) is refused as
INVALID_ARGUMENT by every call that opens a token, never a crash (INTERNAL)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from splendor.v1 import actions_pb2, bots_pb2, config_pb2, engine_service_pb2, state_pb2

from engine_service.api import ApiError, Code
from engine_service.codec import state_to_proto
from engine_service.rules import GameConfig, apply, legal_actions, new_game
from engine_service.sealing import Binding, issue_seat_keys, new_game_id, new_game_secret, seal
from tests.checklists.coverage import methods_whose_request_has
from tests.rulesets import MODULE_NAMES
from tests.sealing.api import CONFIG, call

pb = engine_service_pb2


def position(seed: int, modules: frozenset[str] = frozenset()) -> state_pb2.GameState:
    rng = random.Random(seed)
    state, _ = new_game(GameConfig(3, seed, modules=modules))
    for _ in range(rng.randrange(5, 30)):
        state = apply(state, rng.choice(legal_actions(state)))[0]
    return state_to_proto(state)


def forged(state_bytes: bytes, turn: int = 1, acting_seat: int = 0) -> tuple[bytes, list[str]]:
    """``state_bytes`` sealed under the service's key with a fresh binding, and the game's seat keys."""
    game_id, secret = new_game_id(), new_game_secret()
    token = seal(CONFIG.key_ring, state_bytes, Binding(game_id, turn, 1, acting_seat=acting_seat), secret)
    return token, issue_seat_keys(secret, game_id, 4)


def every_call(token: bytes, keys: list[str]) -> list[tuple[str, object]]:
    simulate = pb.SimulateRequest(sealed_state=token, playouts=1, max_actions=3, seat=0, seat_key=keys[0])
    simulate.policies.add(policy="random")
    return [
        (
            "GetPlayerView",
            pb.GetPlayerViewRequest(sealed_state=token, seat=0, seat_key=keys[0], include_observation=True),
        ),
        ("GetPlayerView", pb.GetPlayerViewRequest(sealed_state=token)),
        ("ListLegalActions", pb.ListLegalActionsRequest(sealed_state=token, seat=0, seat_key=keys[0])),
        (
            "ApplyAction",
            pb.ApplyActionRequest(sealed_state=token, action=actions_pb2.Action(action_id=0), seat_key=keys[0]),
        ),
        (
            "ApplyAction",
            pb.ApplyActionRequest(
                sealed_state=token, bot=bots_pb2.BotChoice(policy="greedy"), seat=0, seat_key=keys[0]
            ),
        ),
        ("Simulate", simulate),
        ("Determinize", pb.DeterminizeRequest(sealed_state=token, seat=0, count=2, seat_key=keys[0])),
    ]


def test_every_rpc_that_opens_a_token_is_sent_a_forged_one() -> None:
    assert {method for method, _ in every_call(b"token", ["key"] * 4)} == methods_whose_request_has("sealed_state")


def answers(token: bytes, keys: list[str]) -> list[Code]:
    """Each call's status: OK, or the refusal's code (an INTERNAL would be a crash); then, the ApplyAction requests
    sent again as the items of one BatchApplyActions call, each item's."""
    codes = []
    calls = every_call(token, keys)
    for method, request in calls:
        try:
            call(method, request)  # type: ignore[arg-type]
            codes.append(Code.OK)
        except ApiError as error:
            codes.append(error.code)
    items = [request for method, request in calls if method == "ApplyAction"]
    batch = call("BatchApplyActions", pb.BatchApplyActionsRequest(requests=items))
    codes += [Code(result.error.code) if result.HasField("error") else Code.OK for result in batch.results]
    return codes


def set_card(msg: state_pb2.GameState, card_id: int) -> None:
    msg.decks[0].card_ids[0] = card_id


FORGERIES: dict[str, Callable[[state_pb2.GameState], None]] = {
    "a card id beyond the catalog": lambda msg: set_card(msg, 10_000),
    "a card in two places": lambda msg: set_card(msg, msg.decks[0].card_ids[1]),
    "a noble id beyond the catalog": lambda msg: msg.noble_ids.append(999),
    "tokens not conserved": lambda msg: setattr(msg.bank, "white", msg.bank.white + 7),
    "a seat beyond the players": lambda msg: setattr(msg, "seat", 9),
    "five players": lambda msg: msg.players.extend([msg.players[0], msg.players[0]]),
    "no players": lambda msg: msg.ClearField("players"),
    "a turn at the top of its type": lambda msg: setattr(msg, "turn", 2**32 - 1),
    "an unknown module": lambda msg: msg.config.modules.append(config_pb2.Module.ValueType(99)),
    "a player count unlike the players": lambda msg: setattr(msg.config, "num_players", 2),
    "a market card id beyond the catalog": lambda msg: setattr(msg.market[0].slots[0], "card_id", 4000),
}


@pytest.mark.parametrize("forgery", FORGERIES)
def test_a_forged_state_is_invalid_argument_on_every_call(forgery: str) -> None:
    msg = position(3)
    FORGERIES[forgery](msg)
    token, keys = forged(msg.SerializeToString())
    codes = answers(token, keys)
    assert codes == [Code.INVALID_ARGUMENT] * len(codes) and len(codes) == len(every_call(token, keys)) + 2


def test_sealed_bytes_that_are_not_a_state_message_are_invalid_argument() -> None:
    for content in (b"\xff\xff\xff", b"\x0a\x05abc", bytes(range(40))):
        token, keys = forged(content)
        assert set(answers(token, keys)) == {Code.INVALID_ARGUMENT}


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**16),
    module=st.sampled_from(["", *MODULE_NAMES]),
    flips=st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 7)), min_size=1, max_size=4),
)
def test_a_mutated_state_sealed_under_the_services_key_never_crashes_a_handler(
    seed: int, module: str, flips: list[tuple[int, int]]
) -> None:
    data = bytearray(position(seed, frozenset({module}) if module else frozenset()).SerializeToString())
    for offset, bit in flips:
        data[offset % len(data)] ^= 1 << bit
    token, keys = forged(bytes(data))
    assert Code.INTERNAL not in answers(token, keys)


def test_a_genuine_state_sealed_the_same_way_is_accepted() -> None:
    genuine = position(3)
    acting = genuine.pending_decision.seat if genuine.HasField("pending_decision") else genuine.seat
    token, keys = forged(genuine.SerializeToString(), genuine.turn, acting)
    created = call("CreateGame", pb.CreateGameRequest(config=config_pb2.GameConfig(num_players=3), sealed=True))
    assert created.sealed_state  # the same ring seals the service's own games
    codes = answers(token, keys)
    assert codes.count(Code.OK) >= 6 and Code.INTERNAL not in codes
