"""Views copied from the state's message (``fill_view_of_state``) equal views written from ``view_for``.

The copy is what sealed responses and bot loops send, so every position of random games,
for every viewer, must give byte for byte the message ``fill_view(view_for(...))`` gives:
the same public fields and the same cards hidden (another seat's unseen reservations), and
the seed once the game is over (``fill_revealed_seed``: the core's view does not carry it).
"""

from __future__ import annotations

import random

import pytest
from splendor.v1 import state_pb2, view_pb2

from engine_service.codec import fill_revealed_seed, fill_view, fill_view_of_state, state_to_proto, update_state
from engine_service.rules import GameState, apply, legal_actions, view_for
from tests.rulesets import MODULE_NAMES
from tests.server.positions import dealt, give_reserved, random_game

MODULES = MODULE_NAMES


def _expected(state: GameState, viewer: int | None) -> bytes:
    out = view_pb2.GameView()
    fill_view(out, view_for(state, viewer))
    fill_revealed_seed(out, state)
    return out.SerializeToString(deterministic=True)


def _copied(msg: state_pb2.GameState, state: GameState, viewer: int | None) -> bytes:
    out = view_pb2.GameView()
    fill_view_of_state(out, msg, state, viewer)
    return out.SerializeToString(deterministic=True)


def _viewers(state: GameState) -> list[int | None]:
    return [None, *range(state.config.num_players)]


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("modules", [frozenset(), *(frozenset({module}) for module in MODULES)])
def test_views_of_patched_messages_equal_views_of_the_core(num_players: int, modules: frozenset[str]) -> None:
    first = next(random_game(num_players, seed=40 + num_players, modules=modules))[0]
    msg = state_to_proto(first)  # patched move after move, as ApplyAction patches an opened token
    for before, _, after, _ in random_game(num_players, seed=40 + num_players, modules=modules):
        update_state(msg, before, after)
        for viewer in _viewers(after):
            assert _copied(msg, after, viewer) == _expected(after, viewer)
    assert after.is_over or after.turn > 0


def test_only_the_owner_sees_a_card_reserved_unseen() -> None:
    state = give_reserved(dealt(3, seed=8), 1, [0, 45], blind=True)
    state = give_reserved(state, 2, [70], blind=False)
    msg = state_to_proto(state)
    for viewer in _viewers(state):
        assert _copied(msg, state, viewer) == _expected(state, viewer)
        view = view_pb2.GameView()
        fill_view_of_state(view, msg, state, viewer)
        hidden = [card.HasField("card_id") for card in view.players[1].reserved]
        assert hidden == [viewer == 1, viewer == 1]
        assert view.players[2].reserved[0].card_id == 70


@pytest.mark.parametrize("modules", [frozenset(), frozenset({"orient"})])
def test_the_seed_is_revealed_in_every_view_once_the_game_is_over_and_not_before(modules: frozenset[str]) -> None:
    moves = list(random_game(2, 11, modules))
    final = moves[-1][2]
    assert final.end_reason is not None
    for state in (moves[0][0], moves[-1][0], final):
        for viewer in _viewers(state):
            view = view_pb2.GameView.FromString(_copied(state_to_proto(state), state, viewer))
            if state is final:
                assert view.revealed_seed == final.config.seed == 11
            else:
                assert not view.HasField("revealed_seed")


def test_views_of_a_turn_limited_game_from_another_first_seat_equal_views_of_the_core() -> None:
    """The config's fields a view shows (``turn_limit``, the first seat) and a game ended by its turn limit."""
    rng = random.Random(5)
    state = dealt(3, seed=21, first_seat=2, turn_limit=12)
    msg = state_to_proto(state)
    while True:
        for viewer in _viewers(state):
            assert _copied(msg, state, viewer) == _expected(state, viewer)
        actions = legal_actions(state)
        if not actions:
            break
        after, _ = apply(state, rng.choice(actions))
        update_state(msg, state, after)
        state = after
    assert state.end_reason is not None and state.turn == 12
