"""Seat keys and server-drawn deals through the real server and the Python client: a player's handle
(a token and one key) looks and acts as its seat only, a refused key changes nothing, spectators need
no key, server-side bots act with the acting seat's key, deals come from the server's seed unless a
public deal is asked for, and a server started without seat keys ignores them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from splendor.v1 import engine_service_pb2, state_pb2, view_pb2
from splendor_client import EngineClient, PermissionDenied, RuleRejected, connect, server_bot

from engine_service.runtime.settings import Settings
from engine_service.server.app import build_server, start
from tests.e2e.support import E2E_RING, refusal

pytestmark = pytest.mark.e2e


def _refused_for(call: object, reason: str) -> PermissionDenied:
    error = refusal(call)  # type: ignore[arg-type]
    assert isinstance(error, PermissionDenied) and error.reason == reason, error
    assert [field for field, _ in error.field_violations] == ["seat_key"]
    return error


def _market(game: view_pb2.GameView | state_pb2.GameState) -> list[int]:
    return [slot.card_id for row in game.market for slot in row.slots]


def test_a_player_handle_looks_and_acts_as_its_seat_only(client: EngineClient) -> None:
    game = client.new_game(num_players=2, first_seat=0, sealed=True)
    mine = client.join(game.token, seat=1, seat_key=game.seat_keys[1])  # what a platform hands player 1
    assert mine.own_seat == 1 and mine.view.viewer_seat == 1
    # Seat 0 must act: the handle names seat 1, so its move is not its turn, whatever it sends.
    not_yours = refusal(lambda: client.apply(mine, client.legal_actions(game, seat=0)[0]))
    assert isinstance(not_yours, RuleRejected) and not_yours.reason == "NOT_YOUR_TURN"
    # It cannot name seat 0, nor act without a seat (as seat 0) with its own key.
    _refused_for(lambda: client.view(mine, seat=0), "SEAT_KEY_MISSING")
    _refused_for(lambda: client.legal_actions(mine, seat=0, seat_key=mine.seat_keys[1]), "SEAT_KEY_INVALID")
    _refused_for(lambda: client.apply(mine.token, 0, seat_key=mine.seat_keys[1]), "SEAT_KEY_INVALID")
    # Once seat 0 has moved, the handle plays its own seat and sees its own view.
    game = client.apply(game, client.legal_actions(game, seat=0)[0], seat=0)
    mine = client.join(game.token, seat=1, seat_key=game.seat_keys[1])
    moved = client.apply(mine, client.legal_actions(mine)[0])
    assert moved.binding.step == 2 and moved.view.viewer_seat == 1 and moved.seat_keys == {1: game.seat_keys[1]}


def test_a_refused_key_changes_nothing(client: EngineClient) -> None:
    game = client.new_game(num_players=3, sealed=True)
    seat = game.acting_seat
    wrong = game.seat_keys[(seat + 1) % 3]
    before = client.view(game, seat=seat).view
    _refused_for(lambda: client.apply(game.token, 0, seat=seat, seat_key=wrong), "SEAT_KEY_INVALID")
    assert client.view(game, seat=seat).view == before
    after = client.apply(game, client.legal_actions(game, seat=seat)[0], seat=seat)
    assert after.binding.step == game.binding.step + 1 == 1


def test_another_games_key_for_the_same_seat_is_invalid(client: EngineClient) -> None:
    game = client.new_game(num_players=2, sealed=True)
    other = client.new_game(num_players=2, sealed=True)
    assert other.seat_keys[0] != game.seat_keys[0]
    _refused_for(lambda: client.join(game.token, seat=0, seat_key=other.seat_keys[0]), "SEAT_KEY_INVALID")
    _refused_for(lambda: client.join(game.token, seat=0, seat_key="not a key"), "SEAT_KEY_INVALID")


def test_a_spectator_looks_without_a_key(client: EngineClient) -> None:
    game = client.new_game(num_players=2, sealed=True, seat=0)
    watched = client.view(game.token).view
    assert not watched.HasField("viewer_seat") and watched.turn == 0
    assert client.list_legal_actions(game.token).seat == game.acting_seat


def test_a_server_bot_acts_with_the_acting_seats_key(client: EngineClient) -> None:
    game = client.new_game(num_players=2, sealed=True)
    _refused_for(lambda: client.apply(game.token, server_bot("greedy", seed=1)), "SEAT_KEY_MISSING")
    moved = client.apply(game, server_bot("ismcts:20", seed=1))  # no seat: the acting seat, with its key
    assert moved.binding.step == 1 and not moved.view.HasField("viewer_seat")
    assert moved.events and moved.seat_keys == game.seat_keys


def test_determinize_and_simulate_need_the_named_seats_key(client: EngineClient) -> None:
    game = client.new_game(num_players=2, sealed=True)
    sample = engine_service_pb2.DeterminizeRequest(sealed_state=game.token, seat=1, count=2)
    _refused_for(lambda: client.determinize(sample), "SEAT_KEY_MISSING")
    sample.seat_key = game.seat_keys[1]
    assert len(client.determinize(sample).states) == 2
    playouts = engine_service_pb2.SimulateRequest(sealed_state=game.token, seat=1, playouts=2, seat_key="")
    playouts.policies.add(policy="random")
    _refused_for(lambda: client.simulate(playouts), "SEAT_KEY_MISSING")
    playouts.seat_key = game.seat_keys[1]
    assert client.simulate(playouts).summary.playouts == 2


def test_sealed_deals_come_from_the_servers_seed_unless_public(client: EngineClient) -> None:
    drawn = [client.new_game(num_players=4, sealed=True) for _ in range(2)]
    assert not any(game.binding.public_deal for game in drawn)
    assert _market(drawn[0].view) != _market(drawn[1].view)  # 64-bit seeds: the same twelve cards in order never recur
    assert not drawn[0].view.HasField("revealed_seed")  # only once the game is over
    public = [client.new_game(num_players=4, seed=2026, sealed=True, public_deal=True) for _ in range(2)]
    assert all(game.binding.public_deal for game in public)
    plain = client.new_game(num_players=4, seed=2026).state
    assert _market(public[0].view) == _market(public[1].view) == _market(plain)


@pytest.fixture(scope="module")
def keyless_client() -> Iterator[EngineClient]:
    """A server started without seat keys (``--no-seat-keys``): a platform that binds seats itself."""
    server, port, health = build_server(Settings(address="127.0.0.1:0", seat_keys=False), key_ring=E2E_RING)
    start(server, health)
    try:
        with connect(f"127.0.0.1:{port}") as engine:
            yield engine
    finally:
        server.stop(0).wait()


def test_a_server_without_seat_keys_ignores_them(keyless_client: EngineClient) -> None:
    game = keyless_client.new_game(num_players=2, sealed=True)
    seat = game.acting_seat
    assert keyless_client.view(game.token, seat=seat).view.viewer_seat == seat
    moved = keyless_client.apply(game.token, keyless_client.legal_actions(game.token, seat=seat)[0], seat=seat)
    assert moved.binding.step == 1
    assert keyless_client.view(game.token, seat=1 - seat, seat_key="anything").view.viewer_seat == 1 - seat
