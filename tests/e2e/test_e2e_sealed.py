"""Sealed game tokens through the real server and the Python client: whole games held only as tokens,
views and seat keys, dealt from a seed the server draws and replayed from the seed revealed at the end,
every single-bit alteration refused, key rotation across restarts, rewinds detectable by the step, and
nothing hidden shown to a seat that may not see it."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from splendor.v1 import config_pb2, engine_service_pb2, engine_service_pb2_grpc
from splendor_client import EngineClient, SealedGame, TokenRefused, connect, game_config

from engine_service.api.errors import SEALED_STATE_REASONS
from engine_service.codec import action_to_proto
from engine_service.rules import GameConfig, PurchaseCard, apply, legal_actions, new_game
from engine_service.sealing import read_binding
from tests.e2e.support import E2E_KEY, refusal
from tests.ops.support import Server
from tests.rulesets import MODULE_NAMES
from tests.sealing.rings import key_line

pytestmark = pytest.mark.e2e

MODULES = ((), *((name,) for name in MODULE_NAMES))


def _play_sealed(client: EngineClient, config: config_pb2.GameConfig, rng: random.Random) -> tuple[SealedGame, list]:
    """A whole game holding only tokens, views and keys: each seat asks for its own legal actions and acts."""
    game = client.create_game(config, sealed=True, seat=0)
    assert not game.binding.public_deal and len(game.seat_keys) == config.num_players
    game_id, played = game.binding.game_id, []
    while not game.finished:
        seat = game.acting_seat
        legal = client.legal_actions(game, seat=seat)
        chosen = rng.choice(legal)
        game = client.apply(game, chosen, seat=seat)
        played.append(chosen.action)
        assert game.binding.game_id == game_id and game.binding.step == len(played)
        assert game.view.viewer_seat == seat
    return game, played


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("modules", MODULES, ids=lambda modules: modules[0] if modules else "base")
def test_a_whole_game_is_played_with_tokens_and_views_only(
    client: EngineClient, modules: tuple[str, ...], players: int
) -> None:
    rng = random.Random(players)
    config = game_config(players, modules=modules)  # seed 0: the server draws the deal's seed
    game, played = _play_sealed(client, config, rng)
    assert game.view.ranking and game.binding.turn == game.view.turn
    # The seed, revealed once the game is over, replays the same log to the same game, as every seat sees it.
    assert game.view.HasField("revealed_seed")
    config.seed = game.view.revealed_seed
    replayed = client.replay(config, played)
    for seat in (None, *range(players)):
        assert client.view(game, seat=seat).view == client.view(replayed.state, seat=seat).view
    # A sealed replay: a new game id, step = the number of actions, a public deal, the same game inside.
    rebuilt = client.replay(config, played, sealed=True, seat=1)
    assert rebuilt.game.binding.step == len(played) and rebuilt.game.binding.game_id != game.binding.game_id
    assert rebuilt.game.binding.public_deal and len(rebuilt.game.seat_keys) == players
    assert rebuilt.state_digests == replayed.state_digests
    assert client.view(rebuilt.game, seat=1).view == client.view(replayed.state, seat=1).view


def test_a_sealed_game_never_carries_the_state(client: EngineClient) -> None:
    game = client.new_game(num_players=3, sealed=True, seat=2)
    assert game.view.viewer_seat == 2 and game.binding.step == 0 and game.binding.turn == 0
    assert len(game.binding.game_id) == 32
    stub = engine_service_pb2_grpc.EngineServiceStub(client.channel)
    request = engine_service_pb2.CreateGameRequest(config=config_pb2.GameConfig(num_players=2), sealed=True)
    response = stub.CreateGame(request, timeout=5)
    assert not response.HasField("state") and response.sealed_state and response.HasField("view")
    acting_key = response.seat_keys[response.view.seat]  # acting without a seat: the acting seat's key
    applied = stub.ApplyAction(
        engine_service_pb2.ApplyActionRequest(
            sealed_state=response.sealed_state,
            action=client.legal_actions(response.sealed_state)[0].action,
            seat_key=acting_key,
        ),
        timeout=5,
    )
    assert not applied.HasField("state") and applied.sealed_state != response.sealed_state
    assert not applied.view.HasField("viewer_seat")  # no seat named: a spectator's view


def test_validate_only_returns_the_same_token_and_step(client: EngineClient) -> None:
    game = client.new_game(num_players=2, sealed=True, seat=0)
    legal = client.legal_actions(game, seat=game.acting_seat)
    checked = client.apply(game, legal[0], seat=game.acting_seat, validate_only=True)
    assert checked.token == game.token and checked.binding == game.binding and not checked.events


def test_every_single_bit_flip_of_a_token_is_refused(client: EngineClient) -> None:
    game = client.new_game(num_players=4, modules=["orient"], sealed=True)
    game = client.apply(game, client.legal_actions(game)[0])  # a token from ApplyAction, one step in
    token = game.token
    reasons: set[str] = set()
    for bit in range(len(token) * 8):
        altered = bytearray(token)
        altered[bit // 8] ^= 1 << (bit % 8)
        error = refusal(lambda altered=altered: client.view(bytes(altered)))
        assert isinstance(error, TokenRefused) and error.reason in SEALED_STATE_REASONS, (bit, error)
        reasons.add(error.reason)
    assert {"SEALED_STATE_INVALID", "SEALED_STATE_VERSION_UNSUPPORTED"} <= reasons, reasons


def test_a_rewind_is_accepted_by_the_service_and_caught_by_the_step(client: EngineClient) -> None:
    """The service is stateless: an older token still opens. A platform remembering the last step stops it."""
    game = client.new_game(num_players=2, first_seat=0, sealed=True, seat=0)
    last_step = {game.binding.game_id: game.binding.step}  # the platform's one number per game

    def relay(token: bytes) -> bool:
        binding = read_binding(token)  # the header, read without the key
        return last_step.get(binding.game_id) == binding.step

    first = game
    assert relay(first.token)
    game = client.apply(game, client.legal_actions(game, seat=0)[0], seat=0)
    last_step[game.binding.game_id] = game.binding.step
    assert relay(game.token) and not relay(first.token)
    rewound = client.apply(first, client.legal_actions(first, seat=0)[-1], seat=0)  # the service cannot tell
    assert rewound.binding.step == game.binding.step == 1


def _blind_reserve_position(rng: random.Random) -> tuple[GameConfig, list[object], int]:
    """An action log ending where the acting seat may buy a card it reserved blind."""
    while True:
        config = GameConfig(2, rng.getrandbits(64))
        state, _ = new_game(config)
        log: list[object] = []
        while state.end_reason is None and len(log) < 200:
            acting = state.acting_seat
            player = state.players[acting]
            blind = {card for card, unseen in zip(player.reserved, player.reserved_blind) if unseen}
            legal = legal_actions(state)
            if any(isinstance(action, PurchaseCard) and action.card_id in blind for action in legal):
                return config, log, acting
            action = legal[rng.randrange(len(legal))]
            state, _ = apply(state, action)
            log.append(action)


def test_blind_reserved_cards_are_listed_only_to_their_owner_and_other_seats_get_no_actions(
    client: EngineClient,
) -> None:
    config, log, acting = _blind_reserve_position(random.Random(3))
    proto_config = game_config(config.num_players, config.seed)
    actions = [action_to_proto(action) for action in log]  # type: ignore[arg-type]
    game = client.replay(proto_config, actions, sealed=True).game
    token = game.token
    plain = client.replay(proto_config, actions).state
    owner = {legal.action_id for legal in client.legal_actions(game, seat=acting)}
    spectator = {legal.action_id for legal in client.legal_actions(token)}
    assert owner == {legal.action_id for legal in client.legal_actions(plain)}
    hidden = owner - spectator
    assert hidden and spectator < owner
    # The other seat is listed nothing at all: the acting seat's options are not its to see.
    other = client.list_legal_actions(game, seat=1 - acting)
    assert not other.actions and other.acting_seat == acting
    blind = [card.card_id for card in plain.players[acting].reserved if card.blind]
    assert {
        legal.action.purchase_card.card_id for legal in client.legal_actions(plain) if legal.action_id in hidden
    } <= set(blind)
    # Nor does the other seat's view or the events sealed for it name the blind card.
    seen = client.view(game, seat=1 - acting).view.players[acting].reserved
    assert all(not card.HasField("card_id") for card in seen if card.blind)


def test_events_returned_in_sealed_mode_are_redacted_for_the_seat(client: EngineClient) -> None:
    for _ in range(40):
        game = client.new_game(num_players=2, sealed=True)
        acting = game.acting_seat
        blind = [
            legal for legal in client.legal_actions(game, seat=acting) if legal.action.HasField("reserve_from_deck")
        ]
        if not blind:
            continue
        mine = client.apply(game, blind[0], seat=acting)
        reserved = [event.card_reserved for event in mine.events if event.HasField("card_reserved")]
        assert reserved and reserved[0].HasField("card_id")  # the owner sees the card
        theirs = client.view(mine, seat=1 - acting, events=mine.events).events
        spectator = client.apply(game, blind[0]).events  # no seat named: redacted for a spectator
        for events in (theirs, spectator):
            card = next(event.card_reserved for event in events if event.HasField("card_reserved"))
            assert not card.HasField("card_id")
        return
    pytest.fail("no blind reserve found")


# Key rotation across restarts of a real server (subprocesses configured through the environment).

OLD = key_line("2026-01", 1)
NEW = key_line("2026-06", 2)


@pytest.fixture(scope="module")
def old_token() -> Iterator[SealedGame]:
    with Server(env={"SPLENDOR_SEALING_KEYS": OLD}) as server, connect(server.address) as engine:
        game = engine.new_game(num_players=2, first_seat=0, sealed=True, seat=0)
        game = engine.apply(game, engine.legal_actions(game, seat=0)[0], seat=0)
        yield game
        assert server.stop() == 0


def _key_id(token: bytes) -> str:
    return token[2 : 2 + token[1]].decode()


def test_after_a_restart_with_a_new_current_key_games_in_flight_go_on(old_token: SealedGame) -> None:
    assert _key_id(old_token.token) == "2026-01"
    with Server(env={"SPLENDOR_SEALING_KEYS": f"{NEW},{OLD}"}) as server, connect(server.address) as engine:
        seat = old_token.acting_seat
        game = engine.apply(old_token, engine.legal_actions(old_token, seat=seat)[0], seat=seat)
        assert _key_id(game.token) == "2026-06" and game.binding.step == old_token.binding.step + 1
        assert game.binding.game_id == old_token.binding.game_id
        assert server.stop() == 0


def test_after_the_old_key_is_retired_its_tokens_are_refused(old_token: SealedGame) -> None:
    with Server(env={"SPLENDOR_SEALING_KEYS": f"{NEW},2026-01:retired"}) as server, connect(server.address) as engine:
        error = refusal(lambda: engine.view(old_token))
        assert isinstance(error, TokenRefused) and error.reason == "SEALED_STATE_KEY_RETIRED"
        assert [path for path, _ in error.field_violations] == ["sealed_state"]
        fresh = engine.new_game(num_players=2, sealed=True)
        assert engine.view(fresh).view.num_players == 2
        assert server.stop() == 0


def test_the_session_server_uses_its_configured_ring(client: EngineClient) -> None:
    token = client.new_game(num_players=2, sealed=True).token
    assert _key_id(token) == E2E_KEY.split(":")[0]
