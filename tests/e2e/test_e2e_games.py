"""Whole games through the API, and the calls around them: catalog, replay, validate_only, views."""

from __future__ import annotations

import itertools
import random

import pytest
from splendor.v1 import actions_pb2, config_pb2, engine_service_pb2, events_pb2, state_pb2, view_pb2
from splendor_client import EngineClient

from engine_service.codec import action_from_proto, fill_events, state_from_proto
from engine_service.rules import (
    ACTION_ID_COUNT,
    CARDS,
    NOBLES,
    CardReserved,
    Event,
    GameState,
    action_from_id,
    apply,
    state_digest,
)
from tests.e2e.support import BLUE, GREEN, RED, proto, take_gems
from tests.server.positions import TURN_SAFETY, dealt, give_reserved, random_game

pytestmark = pytest.mark.e2e


def _play(
    client: EngineClient, num_players: int, seed: int
) -> tuple[config_pb2.GameConfig, list[actions_pb2.Action], state_pb2.GameState]:
    """A random game played to its end through ListLegalActions and ApplyAction, checked against the core."""
    rng = random.Random(seed)
    config = config_pb2.GameConfig(num_players=num_players, seed=seed)
    game = client.create_game(config)
    state = game.state
    played = []
    while state.end_reason == state_pb2.END_REASON_UNSPECIFIED:
        assert state.turn < TURN_SAFETY, "the game never ended"
        legal = client.legal_actions(state)
        assert legal, "a game in progress always has a legal action"
        chosen = rng.choice(legal)
        assert action_from_id(chosen.action_id) == action_from_proto(chosen.action)
        core_before = state_from_proto(state)
        result = client.apply(state, chosen.action, expected_turn=state.turn)
        expected, _ = apply(core_before, action_from_proto(chosen.action))
        assert state_from_proto(result.state) == expected
        assert result.events, "every move has events"
        played.append(chosen.action)
        state = result.state
    return config, played, state


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_random_games_play_to_the_end(client: EngineClient, num_players: int) -> None:
    _, played, final = _play(client, num_players, seed=40 + num_players)
    assert final.end_reason != state_pb2.END_REASON_UNSPECIFIED
    assert len(final.ranking) == num_players and list(final.winners)
    assert client.legal_actions(final) == []
    assert final.round == final.turn // num_players
    assert len(played) >= final.turn


def test_replay_reproduces_the_game_and_its_digests(client: EngineClient) -> None:
    config, played, final = _play(client, 3, seed=77)
    replay = client.replay(config, played)
    assert replay.state == final
    assert len(replay.state_digests) == len(played)
    # The same digests as the core computes for each state of the game.
    core = [state_digest(after) for _, _, after, _ in random_game(3, 77)]
    assert replay.state_digests == core
    kinds = [event.WhichOneof("kind") for event in replay.events]
    assert kinds[0] == "game_started" and kinds[-1] == "game_ended"


def test_validate_only_returns_the_unchanged_state_and_no_events(client: EngineClient) -> None:
    state = client.create_game(config_pb2.GameConfig(num_players=2, seed=3)).state
    state.round = 5  # output-only: ignored on input, recomputed on output
    result = client.apply(state, take_gems(RED, BLUE, GREEN), validate_only=True)
    assert result.events == []
    state.round = 0
    assert result.state == state
    applied = client.apply(state, take_gems(RED, BLUE, GREEN))
    assert applied.state.turn == 1 and applied.events


def test_catalog_lists_cards_nobles_and_action_ranges(client: EngineClient) -> None:
    catalog = client.get_catalog()
    assert len(catalog.cards) == len(CARDS) and len(catalog.nobles) == len(NOBLES)
    assert [card.id for card in catalog.cards] == list(range(len(CARDS)))
    assert catalog.cards[0].bonus == CARDS[0].bonus + 1
    assert catalog.action_id_count == ACTION_ID_COUNT
    ranges = catalog.action_id_ranges
    assert [r.kind for r in ranges] == [
        "take_gems",
        "take_two_gems",
        "reserve_card",
        "reserve_from_deck",
        "purchase_card",
        "pass",
        "return_tokens",
        "choose_noble",
        "choose_city",
        "take_gem",
        "decline",
        "place_stronghold",
        "remove_stronghold",
        "pair_card",
        "take_free_card",
        "reserve_noble",
        "place_stronghold",
    ]
    assert ranges[0].offset == 0 and all(r.index_rule for r in ranges)
    for previous, following in itertools.pairwise(ranges):
        assert previous.offset + previous.count == following.offset
    assert ranges[-1].offset + ranges[-1].count == ACTION_ID_COUNT
    for r in ranges:  # each range's ids are that kind of action
        for value in (r.offset, r.offset + r.count - 1):
            kind = type(action_from_id(value)).__name__
            assert kind.lower() == r.kind.replace("_", ""), (r.kind, kind)


def test_create_game_deals_and_announces(client: EngineClient) -> None:
    game = client.create_game(config_pb2.GameConfig(num_players=4, seed=12, first_seat=2))
    assert game.state.seat == 2 and game.state.first_seat == 2 and len(game.state.players) == 4
    assert game.events[0].game_started == events_pb2.GameStarted(first_seat=2, num_players=4)
    assert sum(1 for event in game.events if event.HasField("card_revealed")) == 12


@pytest.mark.parametrize("num_players", [2, 4])
def test_views_never_show_hidden_cards(client: EngineClient, num_players: int) -> None:
    for index, (_, _, after, events) in enumerate(random_game(num_players, seed=60 + num_players)):
        if index % 7:
            continue
        # Make sure some cards were reserved unseen, by every seat.
        state = after
        for seat in range(num_players):
            if len(state.players[seat].reserved) < 3 and state.decks[0]:
                state = give_reserved(state, seat, [state.decks[0][0]], blind=True)
        message = proto(state)
        deck_ids = {card for pile in state.decks for card in pile}
        for viewer in (None, *range(num_players)):
            result = client.view(message, seat=viewer, events=_events(events, state))
            view = result.view
            secret = set(deck_ids)
            for seat, player in enumerate(state.players):
                if seat != viewer:
                    secret |= {c for c, blind in zip(player.reserved, player.reserved_blind) if blind}
            shown = _card_ids(view)
            assert not shown & secret, (viewer, shown & secret)
            assert list(view.deck_sizes) == [len(pile) for pile in state.decks]
            assert view.HasField("viewer_seat") == (viewer is not None)
            for event in result.events:
                if event.HasField("card_reserved") and event.card_reserved.blind:
                    visible = event.card_reserved.seat == viewer
                    assert event.card_reserved.HasField("card_id") == visible
        if index > 60:
            break


def _events(events: tuple[Event, ...], state: GameState) -> list[events_pb2.Event]:
    """Events of a move plus an unseen reservation by each seat, as ApplyAction would return them."""
    extra = tuple(CardReserved(seat, 1, 0, True, None) for seat in range(len(state.players)))
    holder = engine_service_pb2.ApplyActionResponse()
    fill_events(holder.events, events + extra)
    return list(holder.events)


def _card_ids(view: view_pb2.GameView) -> set[int]:
    """Every card id anywhere in a GameView."""
    ids = {slot.card_id for row in view.market for slot in row.slots if slot.HasField("card_id")}
    for player in view.players:
        ids |= set(player.purchased_card_ids)
        ids |= {card.card_id for card in player.reserved if card.HasField("card_id")}
    return ids


def test_blind_reservation_hidden_from_others_shown_to_owner(client: EngineClient) -> None:
    state = give_reserved(dealt(3, seed=8), 1, [dealt(3, seed=8).decks[2][0]], blind=True)
    card = state.players[1].reserved[0]
    message = proto(state)
    owner = client.view(message, seat=1).view.players[1].reserved[0]
    other = client.view(message, seat=0).view.players[1].reserved[0]
    spectator = client.view(message).view.players[1].reserved[0]
    assert owner.card_id == card and owner.blind and owner.deck == 2
    for hidden in (other, spectator):
        assert not hidden.HasField("card_id") and hidden.blind and hidden.deck == 2
