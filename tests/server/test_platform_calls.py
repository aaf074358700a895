"""What a match platform needs from each call: the acting seat in every answer, no options for a seat that is not
acting, the step check on ApplyAction (STEP_MISMATCH), and every audience's view of a move from the one call that
makes it, each exactly what GetPlayerView answers for that audience."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from splendor.v1 import actions_pb2, config_pb2, state_pb2
from splendor.v1 import engine_service_pb2 as pb

from engine_service.api import ApiError, Code
from engine_service.codec import state_from_proto, state_to_proto
from engine_service.rules import GameConfig, ReserveFromDeck, apply, legal_actions, new_game
from engine_service.sealing import unseal
from tests.sealing.api import CONFIG, call

MODULES = [(), (config_pb2.MODULE_CITIES,), (config_pb2.MODULE_TRADING_POSTS,), (config_pb2.MODULE_STRONGHOLDS,)]
MODULES.append((config_pb2.MODULE_ORIENT,))


def sealed_game(players: int = 3, seed: int = 2, modules: tuple[int, ...] = ()) -> pb.CreateGameResponse:
    config = config_pb2.GameConfig(num_players=players, seed=seed, modules=modules)
    return call("CreateGame", pb.CreateGameRequest(config=config, sealed=True, public_deal=True))  # type: ignore[no-any-return]


def refused(method: str, request: Any) -> ApiError:
    with pytest.raises(ApiError) as caught:
        call(method, request)
    return caught.value


def move(token: bytes, keys: list[str], **options: Any) -> pb.ApplyActionResponse:
    """The acting seat's first legal move."""
    listed = call("ListLegalActions", pb.ListLegalActionsRequest(sealed_state=token))
    seat = listed.acting_seat
    request = pb.ApplyActionRequest(
        sealed_state=token, action=listed.actions[0].action, seat=seat, seat_key=keys[seat], **options
    )
    return call("ApplyAction", request)  # type: ignore[no-any-return]


# The acting seat.


def test_every_answer_names_the_acting_seat_plain_and_sealed() -> None:
    plain = call("CreateGame", pb.CreateGameRequest(config=config_pb2.GameConfig(num_players=2, first_seat=1)))
    assert plain.acting_seat == plain.state.seat == 1
    listed = call("ListLegalActions", pb.ListLegalActionsRequest(state=plain.state))
    assert listed.acting_seat == listed.seat == 1
    assert call("GetPlayerView", pb.GetPlayerViewRequest(state=plain.state, seat=0)).acting_seat == 1
    game = sealed_game()
    seat = game.view.seat
    assert game.acting_seat == game.sealed_state_binding.acting_seat == seat
    assert call("GetPlayerView", pb.GetPlayerViewRequest(sealed_state=game.sealed_state)).acting_seat == seat
    listed = call("ListLegalActions", pb.ListLegalActionsRequest(sealed_state=game.sealed_state))
    assert listed.acting_seat == seat


def test_once_the_game_is_over_no_answer_names_an_acting_seat() -> None:
    state, _ = new_game(GameConfig(2, 9))
    rng = random.Random(1)
    while state.end_reason is None:
        state = apply(state, rng.choice(legal_actions(state)))[0]
    msg = state_to_proto(state)
    assert not call("ListLegalActions", pb.ListLegalActionsRequest(state=msg)).HasField("acting_seat")
    assert not call("GetPlayerView", pb.GetPlayerViewRequest(state=msg)).HasField("acting_seat")


# ListLegalActions for a seat that is not acting.


def _position_with_a_blind_reserve() -> state_pb2.GameState:
    """A sealed-worthy position where the acting seat holds a blind reserve it can buy."""
    rng = random.Random(3)
    for _ in range(200):
        state, _ = new_game(GameConfig(3, rng.getrandbits(32)))
        for _ in range(60):
            actions = legal_actions(state)
            blind = [a for a in actions if isinstance(a, ReserveFromDeck)]
            state = apply(state, rng.choice(blind) if blind and rng.random() < 0.4 else rng.choice(actions))[0]
            if state.end_reason is not None:
                break
            player = state.players[state.acting_seat]
            if any(player.reserved_blind) and state.pending is None:
                listed = call("ListLegalActions", pb.ListLegalActionsRequest(state=state_to_proto(state)))
                hidden = {card for card, blind in zip(player.reserved, player.reserved_blind) if blind}
                if any(
                    a.action.purchase_card.card_id in hidden
                    for a in listed.actions
                    if a.action.HasField("purchase_card")
                ):
                    return state_to_proto(state)
    raise AssertionError("no position found")


def test_a_seat_that_is_not_acting_gets_no_actions_and_learns_whose_turn_it_is() -> None:
    from engine_service.sealing import Binding, issue_seat_keys, new_game_id, new_game_secret, seal

    msg = _position_with_a_blind_reserve()
    state = state_from_proto(msg)
    acting = state.acting_seat
    game_id, secret = new_game_id(), new_game_secret()
    token = seal(CONFIG.key_ring, msg.SerializeToString(), Binding(game_id, state.turn, 5, acting_seat=acting), secret)
    keys = issue_seat_keys(secret, game_id, 3)
    everything = call("ListLegalActions", pb.ListLegalActionsRequest(state=msg)).actions
    own = call("ListLegalActions", pb.ListLegalActionsRequest(sealed_state=token, seat=acting, seat_key=keys[acting]))
    assert list(own.actions) == list(everything)  # the acting seat sees its blind purchases
    spectator = call("ListLegalActions", pb.ListLegalActionsRequest(sealed_state=token))
    assert 0 < len(spectator.actions) < len(everything)  # without the purchases naming a hidden card
    for seat in range(3):
        if seat != acting:
            other = call(
                "ListLegalActions", pb.ListLegalActionsRequest(sealed_state=token, seat=seat, seat_key=keys[seat])
            )
            assert list(other.actions) == [] and other.acting_seat == acting
    # A plain state is a trusted platform's: the seat is ignored, as before.
    plain = call("ListLegalActions", pb.ListLegalActionsRequest(state=msg, seat=(acting + 1) % 3))
    assert list(plain.actions) == list(everything)


# expected_step.


def test_expected_step_accepts_the_newest_step_and_refuses_any_other() -> None:
    game = sealed_game()
    keys = list(game.seat_keys)
    first = move(game.sealed_state, keys, expected_step=0)
    assert first.sealed_state_binding.step == 1
    second = move(first.sealed_state, keys, expected_step=1, validate_only=True)
    assert second.sealed_state == first.sealed_state
    # A rewound token forwarded with the platform's newest step, a stale claim on the newest token, a future one.
    for token, expected, step in ((game.sealed_state, 1, 0), (first.sealed_state, 0, 1), (first.sealed_state, 9, 1)):
        listed = call("ListLegalActions", pb.ListLegalActionsRequest(sealed_state=token))
        seat = listed.acting_seat
        request = pb.ApplyActionRequest(
            sealed_state=token, action=listed.actions[0].action, seat_key=keys[seat], expected_step=expected
        )
        error = refused("ApplyAction", request)
        assert (error.code, error.reason) == (Code.FAILED_PRECONDITION, "STEP_MISMATCH")
        assert error.metadata["step"] == str(step) and error.metadata["expected_step"] == str(expected)
        assert error.field_violations[0].field == "expected_step"


def test_expected_step_with_a_plain_state_is_refused_whatever_its_value() -> None:
    state = call("CreateGame", pb.CreateGameRequest(config=config_pb2.GameConfig(num_players=2, seed=1))).state
    action = call("ListLegalActions", pb.ListLegalActionsRequest(state=state)).actions[0].action
    for expected in (0, 1):
        error = refused("ApplyAction", pb.ApplyActionRequest(state=state, action=action, expected_step=expected))
        assert (error.reason, error.field_violations[0].field) == ("STEP_MISMATCH", "expected_step")
        assert "plain state" in error.message


# Audiences.


View = tuple[bytes, list[bytes], list[bytes]]


def _expected_views(state: state_pb2.GameState, events: list[Any], audiences: list[int | None]) -> list[View]:
    """What GetPlayerView answers each audience about the plain ``state`` and ``events``, and what ListLegalActions
    lists for it (the acting seat's actions for that seat, nothing for another or a spectator)."""
    out = []
    listed = call("ListLegalActions", pb.ListLegalActionsRequest(state=state))
    for seat in audiences:
        request = pb.GetPlayerViewRequest(state=state, events=events)
        if seat is not None:
            request.seat = seat
        view = call("GetPlayerView", request)
        legal = (
            listed.actions if seat is not None and listed.HasField("acting_seat") and seat == listed.acting_seat else []
        )
        out.append(
            (
                view.view.SerializeToString(deterministic=True),
                [e.SerializeToString() for e in view.events],
                [a.SerializeToString() for a in legal],
            )
        )
    return out


def _views(response: pb.ApplyActionResponse) -> list[View]:
    return [
        (
            out.view.SerializeToString(deterministic=True),
            [e.SerializeToString() for e in out.events],
            [a.SerializeToString() for a in out.legal_actions],
        )
        for out in response.audience_views
    ]


@pytest.mark.parametrize("modules", MODULES, ids=lambda modules: str(list(modules)))
@settings(max_examples=6, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**31), validate_only=st.booleans())
def test_every_audience_of_a_move_sees_what_get_player_view_shows_it(
    modules: tuple[int, ...], players: int, seed: int, validate_only: bool
) -> None:
    """Plain and sealed alike: the views and events of the move, for every seat and a spectator, are GetPlayerView's
    for the new state and the move's full events (the plain ApplyAction's)."""
    rng = random.Random(seed)
    game = sealed_game(players, seed, modules)
    keys, token = list(game.seat_keys), game.sealed_state
    audiences: list[int | None] = [*range(players), None]
    rng.shuffle(audiences)
    for _ in range(rng.randrange(1, 40)):
        plain = state_pb2.GameState.FromString(unseal(CONFIG.key_ring, token).state_bytes)
        listed = call("ListLegalActions", pb.ListLegalActionsRequest(state=plain))
        if not listed.actions:
            break
        action = rng.choice(list(listed.actions)).action
        plain_applied = call(
            "ApplyAction",
            pb.ApplyActionRequest(
                state=plain,
                action=action,
                validate_only=validate_only,
                audiences=[pb.Audience() if seat is None else pb.Audience(seat=seat) for seat in audiences],
            ),
        )
        expected = _expected_views(plain_applied.state, list(plain_applied.events), audiences)
        assert _views(plain_applied) == expected
        sealed_applied = call(
            "ApplyAction",
            pb.ApplyActionRequest(
                sealed_state=token,
                action=action,
                seat_key=keys[listed.acting_seat],
                validate_only=validate_only,
                audiences=[
                    pb.Audience() if seat is None else pb.Audience(seat=seat, seat_key=keys[seat]) for seat in audiences
                ],
            ),
        )
        assert _views(sealed_applied) == expected
        assert [out.seat if out.HasField("seat") else None for out in sealed_applied.audience_views] == audiences
        if validate_only:
            assert all(not out.events for out in sealed_applied.audience_views)
            break
        token = sealed_applied.sealed_state


def test_an_audience_is_refused_as_a_view_for_it_would_be_and_nothing_is_applied() -> None:
    game = sealed_game()
    keys, token = list(game.seat_keys), game.sealed_state
    seat = game.acting_seat
    listed = call("ListLegalActions", pb.ListLegalActionsRequest(sealed_state=token))
    action: actions_pb2.Action = listed.actions[0].action
    other = (seat + 1) % 3
    cases = [
        ([pb.Audience(), pb.Audience(seat=other)], "SEAT_KEY_MISSING", "audiences[1].seat_key"),
        ([pb.Audience(seat=other, seat_key=keys[seat])], "SEAT_KEY_INVALID", "audiences[0].seat_key"),
        ([pb.Audience(seat=3)], "INVALID_SEAT", "audiences[0].seat"),
        (
            [pb.Audience(seat=other, seat_key=keys[other]), pb.Audience(seat=other, seat_key=keys[other])],
            "INVALID_SEAT",
            "audiences[1]",
        ),
        ([pb.Audience(), pb.Audience()], "INVALID_SEAT", "audiences[1]"),
    ]
    for audiences, reason, field in cases:
        request = pb.ApplyActionRequest(sealed_state=token, action=action, seat_key=keys[seat], audiences=audiences)
        error = refused("ApplyAction", request)
        assert (error.reason, error.field_violations[0].field) == (reason, field)
    # A plain state needs no keys: its caller is trusted.
    plain = state_pb2.GameState.FromString(unseal(CONFIG.key_ring, token).state_bytes)
    request = pb.ApplyActionRequest(
        state=plain, action=action, audiences=[pb.Audience(seat=other, seat_key="nonsense")]
    )
    assert len(call("ApplyAction", request).audience_views) == 1
