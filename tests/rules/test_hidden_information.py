"""Hidden information: deck contents, the seed, and cards reserved unseen by another seat."""

from __future__ import annotations

from engine_service.rules import (
    SPECTATOR,
    CardPurchased,
    CardReserved,
    GameConfig,
    GameView,
    PurchaseCard,
    ReserveCard,
    ReserveFromDeck,
    TakeGems,
    events_for,
    new_game,
    view_for,
)
from engine_service.rules.views import ReservedCardView
from tests.rules.helpers import card_ids_shown, hidden_from, of_type, play, position, tokens

VIEWERS = (0, 1, 2, SPECTATOR)


def _blind_reserved():
    state = position(3, seed=21)
    card = state.decks[2][0]
    after, events = play(state, ReserveFromDeck(2))
    return after, events, card


def test_view_has_no_deck_contents_seed_or_config() -> None:
    assert "decks" not in GameView._fields
    assert "seed" not in GameView._fields and "config" not in GameView._fields
    state, _ = new_game(GameConfig(4, seed=5))
    view = view_for(state, SPECTATOR)
    assert view.deck_sizes == (36, 26, 16)
    assert view.market == state.market
    assert set(card_ids_shown(view)) == {card for row in state.market for card in row}


def test_blind_reserve_hidden_from_other_seats_and_spectators_in_the_view() -> None:
    state, _, card = _blind_reserved()
    for viewer in (1, 2, SPECTATOR):
        view = view_for(state, viewer)
        assert view.players[0].reserved == (ReservedCardView(None, 2, True),)
        assert card not in card_ids_shown(view)


def test_blind_reserve_visible_to_its_owner_in_the_view() -> None:
    state, _, card = _blind_reserved()
    view = view_for(state, 0)
    assert view.players[0].reserved == (ReservedCardView(card, 2, True),)
    assert card in card_ids_shown(view)


def test_blind_reserve_hidden_from_other_seats_and_spectators_in_the_events() -> None:
    _, events, card = _blind_reserved()
    assert of_type(events, CardReserved) == [CardReserved(0, card, 2, True, None)]
    for viewer in (1, 2, SPECTATOR):
        redacted = events_for(tuple(events), viewer)
        assert of_type(redacted, CardReserved) == [CardReserved(0, None, 2, True, None)]
        assert len(redacted) == len(events)
        assert all(card not in card_ids_shown(event) for event in redacted)
    assert events_for(tuple(events), 0) == tuple(events)


def test_face_up_reserve_is_public() -> None:
    state = position(3, seed=21)
    card = state.market[1][0]
    after, events = play(state, ReserveCard(card))
    for viewer in VIEWERS:
        assert view_for(after, viewer).players[0].reserved == (ReservedCardView(card, 1, False),)
        assert of_type(events_for(tuple(events), viewer), CardReserved)[0].card_id == card


def test_views_never_show_hidden_cards() -> None:
    state, _, _ = _blind_reserved()
    state, _ = play(state, ReserveFromDeck(0), ReserveCard(state.market[0][0]))
    for viewer in VIEWERS:
        view = view_for(state, viewer)
        shown = set(card_ids_shown(view))
        assert not shown & hidden_from(state, viewer)
        own = set(state.players[viewer].reserved) if viewer is not None else set()
        public = {c for p in state.players for c, blind in zip(p.reserved, p.reserved_blind) if not blind}
        assert shown == {c for row in state.market for c in row if c is not None} | public | own


def test_blind_reserved_card_becomes_public_once_bought() -> None:
    state = position(2, seed=3, deck_tops={0: [5]}, held={0: tokens(blue=3)})  # card 5 costs 3 blue
    state, _ = play(state, ReserveFromDeck(0), TakeGems((0, 2, 3)))
    assert view_for(state, 1).players[0].reserved == (ReservedCardView(None, 0, True),)
    after, events = play(state, PurchaseCard(5))
    assert of_type(events_for(tuple(events), 1), CardPurchased)[0].card_id == 5
    assert view_for(after, 1).players[0].purchased == (5,)
    assert view_for(after, 1).players[0].reserved == ()


def test_other_fields_of_the_view_match_the_state() -> None:
    state, _, _ = _blind_reserved()
    view = view_for(state, 1)
    assert view.viewer == 1 and view.num_players == 3
    assert view.bank == state.bank and view.nobles == state.nobles
    assert view.seat == state.seat and view.turn == state.turn and view.first_seat == state.first_seat
    assert [p.tokens for p in view.players] == [p.tokens for p in state.players]
    assert view.deck_sizes == tuple(len(pile) for pile in state.decks)
