"""Every refusal reachable through the API comes back with its code, reason, metadata and field.

``CASES`` builds a position for each reason and makes the refused call;
``test_every_reachable_reason_has_a_case`` fails when errors.proto gains a reason
that has neither a case here nor an entry in ``UNREACHABLE`` saying why.
"""

from __future__ import annotations

import base64
from collections.abc import Callable

import grpc
import pytest
from splendor.v1 import actions_pb2, bots_pb2, common_pb2, config_pb2, engine_service_pb2, errors_pb2, state_pb2
from splendor_client import (
    EngineClient,
    EngineError,
    InvalidRequest,
    PermissionDenied,
    RuleRejected,
    connect,
    from_rpc_error,
)

from engine_service.api.config import DEFAULT_MAX_BATCH_ITEMS, DEFAULT_MAX_REPLAY_ACTIONS
from engine_service.api.errors import INVALID_SEAT
from engine_service.codec import state_to_proto
from engine_service.rules import CARDS
from engine_service.runtime.settings import Settings
from engine_service.sealing import MAX_TOKEN_BYTES, Binding, parse_key_ring, seal
from engine_service.server.app import build_server, start
from tests.e2e.support import (
    BLUE,
    E2E_RING,
    GOLD,
    GREEN,
    RED,
    WHITE,
    choose_noble,
    pass_turn,
    proto,
    purchase,
    refusal,
    reserve,
    reserve_from_deck,
    return_tokens,
    take_gems,
    take_two,
)
from tests.rules.test_module_cities import cards_of, cities_position
from tests.rules.test_module_orient import PAIRED_A, SACRIFICE, level1, orient_position
from tests.rules.test_module_orient import RED as CORE_RED
from tests.rules.test_module_strongholds import (
    BLACK_3_GREEN,
    GREEN_3_RED,
    RED_3_WHITE,
    WHITE_3_BLUE,
    stronghold_position,
)
from tests.rules.test_module_trading_posts import THREE_RED_FOR_GREEN, gem_after_purchase_position
from tests.server.positions import dealt, empty_deck, give_purchased, give_reserved, give_tokens, qualifying_for

pytestmark = pytest.mark.e2e

PUBLISHED = {
    name.removeprefix("REJECTION_REASON_")
    for name in errors_pb2.RejectionReason.DESCRIPTOR.values_by_name
    if name != "REJECTION_REASON_UNSPECIFIED"
}

# Reasons no request can provoke, and why. Each is re-checked where it can be.
UNREACHABLE = {
    "INVALID_SEED": "GameConfig.seed is a uint64: every value on the wire is a valid seed",
    "INVALID_TURN_LIMIT": "GameConfig.turn_limit is a uint32: it cannot be negative on the wire",
}


def _config(num_players: int = 2, **fields: object) -> config_pb2.GameConfig:
    return config_pb2.GameConfig(num_players=num_players, seed=1, **fields)  # type: ignore[arg-type]


def _fresh(client: EngineClient) -> state_pb2.GameState:
    return client.create_game(_config(first_seat=0)).state


def _returning(client: EngineClient) -> state_pb2.GameState:
    """Seat 0 holds 13 tokens of several colours and must return 3."""
    state = give_tokens(dealt(2, seed=1), 0, (2, 2, 2, 2, 2, 0))
    result = client.apply(proto(state), take_gems(RED, BLUE, GREEN))
    assert result.state.pending_decision.kind == state_pb2.DECISION_KIND_RETURN_TOKENS
    assert result.state.pending_decision.amount == 3
    return result.state


def _choosing_noble(client: EngineClient) -> state_pb2.GameState:
    """Seat 0 qualifies for several nobles and must choose one."""
    state = dealt(2, seed=2)
    state = give_purchased(state, 0, qualifying_for(state.nobles[:2]))
    result = client.apply(proto(state), take_gems(RED, BLUE, GREEN))
    assert result.state.pending_decision.kind == state_pb2.DECISION_KIND_CHOOSE_NOBLE
    return result.state


def _not_an_option(state: state_pb2.GameState) -> int:
    return next(noble for noble in range(10) if noble not in state.pending_decision.options)


def _pile_below_four(client: EngineClient) -> EngineError:
    after = client.apply(_fresh(client), take_gems(RED, BLUE, GREEN)).state  # the red pile drops to 3
    return refusal(lambda: client.apply(after, take_two(RED)))


def _game_over(client: EngineClient) -> EngineError:
    state = client.create_game(_config(turn_limit=1)).state
    over = client.apply(state, take_gems(RED, BLUE, GREEN)).state
    assert over.end_reason == state_pb2.END_REASON_TURN_LIMIT_REACHED
    return refusal(lambda: client.apply(over, take_gems(RED, BLUE, GREEN)))


def _not_enough_in_bank(client: EngineClient) -> EngineError:
    state = give_tokens(dealt(2, seed=1), 1, (0, 0, 0, 4, 0, 0))  # every red token is held by seat 1
    return refusal(lambda: client.apply(proto(state), take_gems(RED, BLUE, GREEN)))


def _reserve_limit(client: EngineClient) -> EngineError:
    state = dealt(2, seed=1)
    state = give_reserved(state, 0, state.decks[1][:3])
    return refusal(lambda: client.apply(proto(state), reserve(state.market[0][0])))  # type: ignore[arg-type]


def _deck_empty(client: EngineClient) -> EngineError:
    state = empty_deck(dealt(2, seed=1), 2, seat=1)
    return refusal(lambda: client.apply(proto(state), reserve_from_deck(2)))


def _card_not_available(client: EngineClient) -> EngineError:
    face_down = dealt(2, seed=1).decks[0][0]
    return refusal(lambda: client.apply(_fresh(client), reserve(face_down)))


def _cannot_afford(client: EngineClient) -> EngineError:
    state = _fresh(client)
    return refusal(lambda: client.apply(state, purchase(state.market[2].slots[0].card_id)))


def _payment_invalid(client: EngineClient) -> EngineError:
    state = dealt(2, seed=1)
    card_id = state.market[0][0]
    assert card_id is not None
    cost = CARDS[card_id].cost
    state = give_tokens(state, 0, (*cost, 0))
    wrong = (*cost[:4], cost[4] + 1, 0) if cost[4] < 4 else (0, 0, 0, 0, 0, 1)
    good = client.apply(proto(state), purchase(card_id, (*cost, 0)), validate_only=True)
    assert good.state == proto(state)  # the exact payment is accepted
    return refusal(lambda: client.apply(proto(state), purchase(card_id, wrong)))


def _decision_pending(client: EngineClient) -> EngineError:
    state = _returning(client)
    return refusal(lambda: client.apply(state, take_gems(RED, BLUE, GREEN)))


def _return_wrong_amount(client: EngineClient) -> EngineError:
    state = _returning(client)
    return refusal(lambda: client.apply(state, return_tokens((1, 0, 0, 0, 0, 0))))


def _return_not_held(client: EngineClient) -> EngineError:
    state = _returning(client)
    return refusal(lambda: client.apply(state, return_tokens((0, 0, 0, 0, 0, 3))))


def _noble_not_available(client: EngineClient) -> EngineError:
    state = _choosing_noble(client)
    chosen = client.apply(state, choose_noble(state.pending_decision.options[0]))
    assert chosen.state.players[0].noble_ids == [state.pending_decision.options[0]]
    return refusal(lambda: client.apply(state, choose_noble(_not_an_option(state))))


def _city_not_available(client: EngineClient) -> EngineError:
    two_cities = cities_position((13, 11), {0: cards_of(3, 4) + cards_of(4, 4)})  # qualifies for both
    state = client.apply(state_to_proto(two_cities), take_gems(RED, BLUE, GREEN)).state
    assert state.pending_decision.kind == state_pb2.DECISION_KIND_CHOOSE_CITY
    assert sorted(state.pending_decision.options) == [11, 13]
    return refusal(lambda: client.apply(state, actions_pb2.Action(choose_city=actions_pb2.ChooseCity(city_id=0))))


def _cards_spent_invalid(client: EngineClient) -> EngineError:
    state = _fresh(client)
    action = purchase(state.market[0].slots[0].card_id)
    action.purchase_card.cards_spent.card_ids.append(0)  # spending cards is the Orient's alone
    return refusal(lambda: client.apply(state, action))


def _gem_not_available(client: EngineClient) -> EngineError:
    """Trading Posts: after a purchase with post 0, a colour the bank lacks is not on offer."""
    state = gem_after_purchase_position(held={0: (0, 2, 0, 0, 0, 0), 1: (0, 2, 4, 0, 0, 0)})
    waiting = client.apply(proto(state), purchase(THREE_RED_FOR_GREEN)).state
    assert waiting.pending_decision.kind == state_pb2.DECISION_KIND_TAKE_GEM
    assert BLUE not in waiting.pending_decision.colors
    action = actions_pb2.Action(take_gem=actions_pb2.TakeGem(color=BLUE))
    return refusal(lambda: client.apply(waiting, action))


def _card_occupied(client: EngineClient) -> EngineError:
    state = stronghold_position({1: [RED_3_WHITE]})
    return refusal(lambda: client.apply(proto(state), reserve(RED_3_WHITE)))


def _stronghold_not_allowed(client: EngineClient) -> EngineError:
    """Strongholds: after a purchase, a stronghold never goes onto a card holding another colour."""
    state = stronghold_position({0: [GREEN_3_RED], 1: [BLACK_3_GREEN]}, held={0: (0, 3, 0, 0, 0, 0)})
    waiting = client.apply(proto(state), purchase(WHITE_3_BLUE)).state
    assert waiting.pending_decision.kind == state_pb2.DECISION_KIND_PLACE_STRONGHOLD
    action = actions_pb2.Action(place_stronghold=actions_pb2.PlaceStronghold(card_id=BLACK_3_GREEN))
    return refusal(lambda: client.apply(waiting, action))


def _pairing_not_possible(client: EngineClient) -> EngineError:
    """The Orient: a paired card needs an owned card with a bonus to attach to."""
    state = orient_position(held={0: (3, 0, 0, 2, 0, 0)}, market={3: [PAIRED_A]})
    return refusal(lambda: client.apply(proto(state), purchase(PAIRED_A)))


def _sacrifice_not_possible(client: EngineClient) -> EngineError:
    """The Orient: a sacrifice card needs two bonuses of its colour to discard."""
    state = orient_position(purchased={0: [level1(CORE_RED)]}, market={5: [SACRIFICE[CORE_RED], None]})
    return refusal(lambda: client.apply(proto(state), purchase(SACRIFICE[CORE_RED])))


def _invalid_state(client: EngineClient) -> EngineError:
    state = _fresh(client)
    state.players[1].tokens.gold = 3
    return refusal(lambda: client.apply(state, take_gems(RED, BLUE, GREEN)))


def _stale_state(client: EngineClient) -> EngineError:
    state = client.apply(_fresh(client), take_gems(RED, BLUE, GREEN)).state
    return refusal(lambda: client.apply(state, take_gems(RED, BLUE, GREEN), expected_turn=0))


def _invalid_seat(client: EngineClient) -> EngineError:
    return refusal(lambda: client.view(_fresh(client), seat=2))


def _invalid_bot_choice(client: EngineClient) -> EngineError:
    request = engine_service_pb2.ApplyActionRequest(state=_fresh(client), bot=bots_pb2.BotChoice(policy="nobody"))
    return refusal(lambda: client.apply_request(request))


def _budget_exceeded(client: EngineClient) -> EngineError:
    request = engine_service_pb2.SimulateRequest(state=_fresh(client), playouts=1001)
    request.policies.add(policy="random")
    return refusal(lambda: client.simulate(request))


def _apply(action: actions_pb2.Action, **options: object) -> Callable[[EngineClient], EngineError]:
    def run(client: EngineClient) -> EngineError:
        state = _fresh(client)
        return refusal(lambda: client.apply(state, action, **options))  # type: ignore[arg-type]

    return run


def _create(**fields: object) -> Callable[[EngineClient], EngineError]:
    def run(client: EngineClient) -> EngineError:
        config = config_pb2.GameConfig(**fields)  # type: ignore[arg-type]
        return refusal(lambda: client.create_game(config))

    return run


# reason -> (how to provoke it, expected code, expected BadRequest field or None)


def _token(client: EngineClient) -> bytes:
    return client.new_game(num_players=2, sealed=True).token


def _sealed_with_seed(client: EngineClient) -> EngineError:
    return refusal(lambda: client.new_game(num_players=2, seed=5, sealed=True))


def _seat_key_missing(client: EngineClient) -> EngineError:
    return refusal(lambda: client.view(_token(client), seat=0))


def _seat_key_invalid(client: EngineClient) -> EngineError:
    game = client.new_game(num_players=2, sealed=True)
    return refusal(lambda: client.view(game, seat=0, seat_key=game.seat_keys[1]))


def _refused_token(token: bytes) -> Callable[[EngineClient], EngineError]:
    return lambda client: refusal(lambda: client.view(token))


def _flipped_token(client: EngineClient) -> EngineError:
    token = bytearray(_token(client))
    token[-20] ^= 0x01  # inside the ciphertext
    return refusal(lambda: client.view(bytes(token)))


def _other_key_token(key_id: str) -> bytes:
    """A well-formed token sealed under a key the session's server does not hold (or has retired)."""
    ring = parse_key_ring(f"{key_id}:" + base64.b64encode(bytes(32)).decode())
    return seal(ring, b"\x08\x02", Binding("0" * 32, 0, 0))


def _sealed_fresh(client: EngineClient, expires_at: int = 0) -> bytes:
    """A fresh game sealed under the session server's own ring, as a game without a seat-key secret (begun before
    token version 3) or with an expiry: what a forger holding the ring could seal, and what older games are."""
    state = _fresh(client)
    binding = Binding("ab" * 16, state.turn, 0, acting_seat=state.seat, expires_at=expires_at)
    return seal(E2E_RING, state.SerializeToString(), binding)


def _seat_key_retired(client: EngineClient) -> EngineError:
    """A game begun before version 3 holds keys "<key id>.<mac>": the ring retired that key id."""
    token = _sealed_fresh(client)
    return refusal(lambda: client.view(token, seat=0, seat_key="e2e-retired." + "A" * 22))


def _expired(client: EngineClient) -> EngineError:
    token = _sealed_fresh(client, expires_at=1_000_000_000)  # September 2001
    return refusal(lambda: client.view(token))


def _step_mismatch(client: EngineClient) -> EngineError:
    """A rewound token forwarded with the platform's newest step."""
    game = client.new_game(num_players=2, sealed=True)
    seat = game.acting_seat
    newer = client.apply(game, client.legal_actions(game, seat=seat)[0], seat=seat)
    return refusal(
        lambda: client.apply(game, client.legal_actions(game, seat=seat)[0], expected_step=newer.binding.step)
    )


def _request_undecodable(client: EngineClient) -> EngineError:
    method = client.channel.unary_unary(
        "/splendor.v1.EngineService/ApplyAction", request_serializer=None, response_deserializer=None
    )
    with pytest.raises(grpc.RpcError) as caught:
        method(b"\x00", timeout=5)  # field number 0: no message's bytes
    return from_rpc_error(caught.value)


def _replay_too_long(client: EngineClient) -> EngineError:
    moves = [take_gems(RED, BLUE, GREEN)] * (DEFAULT_MAX_REPLAY_ACTIONS + 1)
    return refusal(lambda: client.replay(_config(first_seat=0), moves))


def _response_too_large(client: EngineClient) -> EngineError:
    """A server whose largest response is 20 kB, asked to redact 30 kB of events."""
    server, port, health = build_server(Settings(address="127.0.0.1:0", max_response_bytes=20_000))
    start(server, health)
    try:
        with connect(f"127.0.0.1:{port}") as small:
            events = small.apply(_fresh(small), take_gems(RED, BLUE, GREEN)).events * 1000
            return refusal(lambda: small.view(_fresh(small), seat=0, events=events))
    finally:
        server.stop(0).wait()


def _batch_too_large(client: EngineClient) -> EngineError:
    request = engine_service_pb2.ApplyActionRequest(state=_fresh(client), action=take_gems(RED, BLUE, GREEN))
    return refusal(lambda: client.apply_batch([request] * (DEFAULT_MAX_BATCH_ITEMS + 1)))


CASES: dict[str, tuple[Callable[[EngineClient], EngineError], grpc.StatusCode, str | None]] = {
    "INVALID_PLAYER_COUNT": (_create(num_players=5), grpc.StatusCode.INVALID_ARGUMENT, "config.num_players"),
    "INVALID_FIRST_SEAT": (_create(num_players=2, first_seat=2), grpc.StatusCode.INVALID_ARGUMENT, "config.first_seat"),
    "UNKNOWN_MODULE": (
        _create(num_players=2, modules=[config_pb2.MODULE_UNSPECIFIED]),
        grpc.StatusCode.INVALID_ARGUMENT,
        "config.modules[0]",
    ),
    "MODULE_COMBINATION_NOT_SUPPORTED": (
        _create(num_players=2, modules=[config_pb2.MODULE_CITIES, config_pb2.MODULE_ORIENT]),
        grpc.StatusCode.INVALID_ARGUMENT,
        "config.modules",
    ),
    "GAME_OVER": (_game_over, grpc.StatusCode.FAILED_PRECONDITION, None),
    "NOT_YOUR_TURN": (_apply(take_gems(RED, BLUE, GREEN), seat=1), grpc.StatusCode.FAILED_PRECONDITION, "seat"),
    "DECISION_PENDING": (_decision_pending, grpc.StatusCode.FAILED_PRECONDITION, "action.take_gems"),
    "NO_DECISION_PENDING": (
        _apply(return_tokens((1, 0, 0, 0, 0, 0))),
        grpc.StatusCode.FAILED_PRECONDITION,
        "action.return_tokens",
    ),
    "INVALID_COLOR": (
        _apply(take_two(common_pb2.COLOR_UNSPECIFIED)),
        grpc.StatusCode.INVALID_ARGUMENT,
        "action.take_two_gems.color",
    ),
    "GOLD_NOT_TAKEABLE": (_apply(take_two(GOLD)), grpc.StatusCode.FAILED_PRECONDITION, "action.take_two_gems.color"),
    "DUPLICATE_COLOR": (
        _apply(take_gems(RED, RED, BLUE)),
        grpc.StatusCode.FAILED_PRECONDITION,
        "action.take_gems.colors",
    ),
    "TOO_MANY_COLORS": (
        _apply(take_gems(RED, BLUE, GREEN, WHITE)),
        grpc.StatusCode.FAILED_PRECONDITION,
        "action.take_gems.colors",
    ),
    "TOO_FEW_COLORS": (_apply(take_gems(RED)), grpc.StatusCode.FAILED_PRECONDITION, "action.take_gems.colors"),
    "NOT_ENOUGH_IN_BANK": (_not_enough_in_bank, grpc.StatusCode.FAILED_PRECONDITION, "action.take_gems.colors"),
    "PILE_BELOW_FOUR": (_pile_below_four, grpc.StatusCode.FAILED_PRECONDITION, "action.take_two_gems.color"),
    "RESERVE_LIMIT": (_reserve_limit, grpc.StatusCode.FAILED_PRECONDITION, None),
    "UNKNOWN_DECK": (
        _apply(reserve_from_deck(3)),
        grpc.StatusCode.FAILED_PRECONDITION,
        "action.reserve_from_deck.deck",
    ),
    "DECK_EMPTY": (_deck_empty, grpc.StatusCode.FAILED_PRECONDITION, "action.reserve_from_deck.deck"),
    "UNKNOWN_CARD": (_apply(reserve(999)), grpc.StatusCode.FAILED_PRECONDITION, "action.reserve_card.card_id"),
    "CARD_NOT_AVAILABLE": (_card_not_available, grpc.StatusCode.FAILED_PRECONDITION, "action.reserve_card.card_id"),
    "CANNOT_AFFORD": (_cannot_afford, grpc.StatusCode.FAILED_PRECONDITION, "action.purchase_card.card_id"),
    "PAYMENT_INVALID": (_payment_invalid, grpc.StatusCode.FAILED_PRECONDITION, "action.purchase_card.payment"),
    "PASS_NOT_ALLOWED": (_apply(pass_turn()), grpc.StatusCode.FAILED_PRECONDITION, "action.pass"),
    "RETURN_WRONG_AMOUNT": (_return_wrong_amount, grpc.StatusCode.FAILED_PRECONDITION, "action.return_tokens.tokens"),
    "RETURN_NOT_HELD": (_return_not_held, grpc.StatusCode.FAILED_PRECONDITION, "action.return_tokens.tokens"),
    "NOBLE_NOT_AVAILABLE": (
        _noble_not_available,
        grpc.StatusCode.FAILED_PRECONDITION,
        "action.choose_noble.noble_id",
    ),
    "CITY_NOT_AVAILABLE": (_city_not_available, grpc.StatusCode.FAILED_PRECONDITION, "action.choose_city.city_id"),
    "CARDS_SPENT_INVALID": (
        _cards_spent_invalid,
        grpc.StatusCode.FAILED_PRECONDITION,
        "action.purchase_card.cards_spent",
    ),
    "GEM_NOT_AVAILABLE": (_gem_not_available, grpc.StatusCode.FAILED_PRECONDITION, "action.take_gem.color"),
    "CARD_OCCUPIED": (_card_occupied, grpc.StatusCode.FAILED_PRECONDITION, "action.reserve_card.card_id"),
    "STRONGHOLD_NOT_ALLOWED": (
        _stronghold_not_allowed,
        grpc.StatusCode.FAILED_PRECONDITION,
        "action.place_stronghold",
    ),
    "PAIRING_NOT_POSSIBLE": (
        _pairing_not_possible,
        grpc.StatusCode.FAILED_PRECONDITION,
        "action.purchase_card.card_id",
    ),
    "SACRIFICE_NOT_POSSIBLE": (_sacrifice_not_possible, grpc.StatusCode.FAILED_PRECONDITION, "action.purchase_card"),
    "UNKNOWN_ACTION": (_apply(actions_pb2.Action()), grpc.StatusCode.INVALID_ARGUMENT, "action"),
    "INVALID_STATE": (_invalid_state, grpc.StatusCode.INVALID_ARGUMENT, "state.bank"),
    "STALE_STATE": (_stale_state, grpc.StatusCode.FAILED_PRECONDITION, "expected_turn"),
    INVALID_SEAT: (_invalid_seat, grpc.StatusCode.INVALID_ARGUMENT, "seat"),
    "INVALID_BOT_CHOICE": (_invalid_bot_choice, grpc.StatusCode.INVALID_ARGUMENT, "bot.policy"),
    "BUDGET_EXCEEDED": (_budget_exceeded, grpc.StatusCode.INVALID_ARGUMENT, "playouts"),
    "SEALED_STATE_MALFORMED": (_refused_token(b"\x01" * 40), grpc.StatusCode.INVALID_ARGUMENT, "sealed_state"),
    "SEALED_STATE_TOO_LARGE": (
        _refused_token(b"\x01" * (MAX_TOKEN_BYTES + 1)),
        grpc.StatusCode.INVALID_ARGUMENT,
        "sealed_state",
    ),
    "SEALED_STATE_VERSION_UNSUPPORTED": (
        _refused_token(b"\x09" * 100),
        grpc.StatusCode.INVALID_ARGUMENT,
        "sealed_state",
    ),
    "SEALED_STATE_KEY_UNKNOWN": (
        _refused_token(_other_key_token("another-deployment")),
        grpc.StatusCode.INVALID_ARGUMENT,
        "sealed_state",
    ),
    "SEALED_STATE_KEY_RETIRED": (
        _refused_token(_other_key_token("e2e-retired")),
        grpc.StatusCode.INVALID_ARGUMENT,
        "sealed_state",
    ),
    "SEALED_STATE_INVALID": (_flipped_token, grpc.StatusCode.INVALID_ARGUMENT, "sealed_state"),
    "SEED_NOT_ALLOWED": (_sealed_with_seed, grpc.StatusCode.INVALID_ARGUMENT, "config.seed"),
    "SEAT_KEY_MISSING": (_seat_key_missing, grpc.StatusCode.PERMISSION_DENIED, "seat_key"),
    "SEAT_KEY_INVALID": (_seat_key_invalid, grpc.StatusCode.PERMISSION_DENIED, "seat_key"),
    "SEAT_KEY_RETIRED": (_seat_key_retired, grpc.StatusCode.PERMISSION_DENIED, "seat_key"),
    "SEALED_STATE_EXPIRED": (_expired, grpc.StatusCode.INVALID_ARGUMENT, "sealed_state"),
    "STEP_MISMATCH": (_step_mismatch, grpc.StatusCode.FAILED_PRECONDITION, "expected_step"),
    "REQUEST_UNDECODABLE": (_request_undecodable, grpc.StatusCode.INVALID_ARGUMENT, None),
    "REPLAY_TOO_LONG": (_replay_too_long, grpc.StatusCode.INVALID_ARGUMENT, "actions"),
    "RESPONSE_TOO_LARGE": (_response_too_large, grpc.StatusCode.INVALID_ARGUMENT, "events"),
    "BATCH_TOO_LARGE": (_batch_too_large, grpc.StatusCode.INVALID_ARGUMENT, "requests"),
}


ERROR_CLASS: dict[grpc.StatusCode, type[EngineError]] = {
    grpc.StatusCode.INVALID_ARGUMENT: InvalidRequest,
    grpc.StatusCode.PERMISSION_DENIED: PermissionDenied,
    grpc.StatusCode.FAILED_PRECONDITION: RuleRejected,
}


def test_every_reachable_reason_has_a_case() -> None:
    missing = PUBLISHED - set(CASES) - set(UNREACHABLE)
    assert not missing, f"reasons with neither a test case nor a documented reason to be unreachable: {missing}"
    assert not set(UNREACHABLE) & set(CASES)


@pytest.mark.parametrize("reason", sorted(CASES))
def test_refusal_carries_code_reason_and_field(client: EngineClient, reason: str) -> None:
    provoke, code, field = CASES[reason]
    error = provoke(client)
    assert error.code == code, error
    assert error.reason == reason, error
    assert error.domain == "splendor.v1"
    assert isinstance(error, ERROR_CLASS[code])
    fields = [path for path, _ in error.field_violations]
    assert fields == ([field] if field else []), error
    if code == grpc.StatusCode.FAILED_PRECONDITION:  # a valid state was read: who must act, and when
        assert {"acting_seat", "turn"} <= set(error.metadata), error.metadata


def test_not_your_turn_names_both_seats(client: EngineClient) -> None:
    error = CASES["NOT_YOUR_TURN"][0](client)
    assert error.metadata["acting_seat"] == "0" and error.metadata["seat"] == "1"


def test_stale_state_names_both_turns(client: EngineClient) -> None:
    error = _stale_state(client)
    assert error.metadata["expected_turn"] == "0" and error.metadata["turn"] == "1"


def test_replay_refusal_names_the_action_index(client: EngineClient) -> None:
    moves = [take_gems(RED, BLUE, GREEN), take_gems(RED, BLUE, GREEN), take_two(RED)]
    error = refusal(lambda: client.replay(_config(first_seat=0), moves))
    assert error.code == grpc.StatusCode.FAILED_PRECONDITION and error.reason == "PILE_BELOW_FOUR"
    assert error.metadata["action_index"] == "2"
    assert [path for path, _ in error.field_violations] == ["actions[2].take_two_gems.color"]
    error = refusal(lambda: client.replay(_config(first_seat=0), [take_gems(RED, BLUE, GREEN), actions_pb2.Action()]))
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT and error.reason == "UNKNOWN_ACTION"
    assert error.metadata["action_index"] == "1" and error.field_violations[0][0] == "actions[1]"


def test_action_id_out_of_range_is_unknown(client: EngineClient) -> None:
    error = refusal(lambda: client.apply(_fresh(client), actions_pb2.Action(action_id=100_000)))
    assert error.reason == "UNKNOWN_ACTION" and error.field_violations[0][0] == "action.action_id"


def test_missing_state_is_invalid(client: EngineClient, channel: grpc.Channel) -> None:
    from splendor.v1 import engine_service_pb2, engine_service_pb2_grpc
    from splendor_client import from_rpc_error

    stub = engine_service_pb2_grpc.EngineServiceStub(channel)
    with pytest.raises(grpc.RpcError) as caught:
        stub.ListLegalActions(engine_service_pb2.ListLegalActionsRequest(), timeout=5)
    error = from_rpc_error(caught.value)
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT and error.reason == "INVALID_STATE"
    assert error.field_violations[0][0] == "state"
