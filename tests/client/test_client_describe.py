"""describe.py tells every event and action in plain English, with the key facts."""

from __future__ import annotations

import pytest
from splendor.v1 import common_pb2, events_pb2, state_pb2
from splendor_client import actions
from splendor_client.describe import (
    Describer,
    deck_name,
    describe_action,
    describe_event,
    ranking_lines,
    winners_text,
)

from tests.client.client_fakes import sample_catalog

E = events_pb2
RANKING = [
    state_pb2.Standing(seat=2, place=1, prestige=16, purchased_cards=11),
    state_pb2.Standing(seat=0, place=2, prestige=12, purchased_cards=1),
    state_pb2.Standing(seat=1, place=2, prestige=12, purchased_cards=1),
]

# One event of every kind, with the facts its description must contain.
CASES: list[tuple[events_pb2.Event, list[str]]] = [
    (E.Event(game_started=E.GameStarted(first_seat=1, num_players=3)), ["3-player", "seat 1 plays first"]),
    (
        E.Event(gems_taken=E.GemsTaken(seat=1, tokens=common_pb2.TokenCounts(red=1, blue=1, green=1))),
        ["Seat 1 takes", "1 red", "1 blue", "1 green"],
    ),
    (E.Event(gems_taken=E.GemsTaken(seat=0, tokens=common_pb2.TokenCounts(white=2))), ["Seat 0 takes 2 white"]),
    (
        E.Event(gems_returned=E.GemsReturned(seat=2, tokens=common_pb2.TokenCounts(black=1, gold=1))),
        ["Seat 2 returns 1 black, 1 gold"],
    ),
    (
        E.Event(card_reserved=E.CardReserved(seat=0, card_id=45, deck=1, blind=False, slot=3)),
        ["Seat 0 reserves card 45 (level 2, black bonus, 1 point)", "level 2 row", "slot 3"],
    ),
    (
        E.Event(card_reserved=E.CardReserved(seat=3, card_id=80, deck=2, blind=True)),
        ["Seat 3 reserves the top card of the level 3 deck", "card 80 (level 3, white bonus, 4 points)"],
    ),
    (
        E.Event(card_reserved=E.CardReserved(seat=3, deck=0, blind=True)),
        ["Seat 3 reserves the top card of the level 1 deck", "unseen"],
    ),
    (E.Event(gold_received=E.GoldReceived(seat=0, amount=1)), ["Seat 0 receives 1 gold"]),
    (
        E.Event(
            card_purchased=E.CardPurchased(
                seat=0,
                card_id=57,
                source=E.CARD_SOURCE_MARKET,
                slot=2,
                payment=common_pb2.TokenCounts(red=3, gold=1),
            )
        ),
        ["Seat 0 buys card 57 (level 2, red bonus, 2 points) from the market paying 3 red, 1 gold"],
    ),
    (
        E.Event(card_purchased=E.CardPurchased(seat=1, card_id=13, source=E.CARD_SOURCE_RESERVE)),
        ["Seat 1 buys card 13 (level 1, blue bonus, 1 point) from their reserve", "for free"],
    ),
    (
        E.Event(card_revealed=E.CardRevealed(deck=0, slot=1, card_id=12)),
        ["Card 12 (level 1, white bonus, 0 points) is revealed", "level 1 row", "slot 1"],
    ),
    (E.Event(market_slot_emptied=E.MarketSlotEmptied(deck=2, slot=0)), ["level 3 deck is empty", "slot 0"]),
    (E.Event(noble_visited=E.NobleVisited(seat=2, noble_id=3)), ["Noble 3 (3 points) visits seat 2"]),
    (E.Event(city_claimed=E.CityClaimed(seat=1, city_id=11)), ["Seat 1 takes city 11", "final round"]),
    (
        E.Event(decision_required=E.DecisionRequired(seat=1, kind=state_pb2.DECISION_KIND_RETURN_TOKENS, amount=2)),
        ["Seat 1", "must return 2"],
    ),
    (
        E.Event(
            decision_required=E.DecisionRequired(seat=0, kind=state_pb2.DECISION_KIND_CHOOSE_NOBLE, options=[3, 5])
        ),
        ["Seat 0", "choose", "noble 3 (3 points)", "noble 5 (3 points)"],
    ),
    (E.Event(passed=E.Passed(seat=3)), ["Seat 3", "passes"]),
    (
        E.Event(final_round_triggered=E.FinalRoundTriggered(seat=0, prestige=15)),
        ["Final round! Seat 0 reached 15"],
    ),
    (E.Event(turn_ended=E.TurnEnded(seat=0, next_seat=1, turn=7)), ["Turn 7", "seat 1"]),
    (
        E.Event(
            game_ended=E.GameEnded(reason=state_pb2.END_REASON_FINAL_ROUND_COMPLETED, ranking=RANKING, winners=[2])
        ),
        [
            "Game over",
            "final round was completed",
            "Seat 2 wins",
            "1. seat 2: 16 prestige, 11 cards (winner)",
            "2. seat 0: 12 prestige, 1 card",
            "2. seat 1: 12 prestige, 1 card",
        ],
    ),
    (
        E.Event(game_ended=E.GameEnded(reason=state_pb2.END_REASON_ALL_PLAYERS_PASSED, winners=[0, 1])),
        ["every player passed", "Seats 0 and 1 share the victory"],
    ),
    (
        E.Event(game_ended=E.GameEnded(reason=state_pb2.END_REASON_TURN_LIMIT_REACHED)),
        ["turn limit", "Nobody wins"],
    ),
]


def test_every_event_kind_has_a_case() -> None:
    kinds = {field.name for field in events_pb2.Event.DESCRIPTOR.oneofs_by_name["kind"].fields}
    assert kinds == {event.WhichOneof("kind") for event, _ in CASES}


@pytest.mark.parametrize(
    ("event", "facts"), CASES, ids=[f"{e.WhichOneof('kind')}-{i}" for i, (e, _) in enumerate(CASES)]
)
def test_event_descriptions_hold_the_key_facts(event: events_pb2.Event, facts: list[str]) -> None:
    text = Describer(sample_catalog()).event(event)
    for fact in facts:
        assert fact in text
    assert text == describe_event(event, sample_catalog())


@pytest.mark.parametrize("event", [event for event, _ in CASES])
def test_every_event_describes_without_a_catalog(event: events_pb2.Event) -> None:
    text = Describer().event(event)
    assert text
    assert not text.startswith("(")


def test_without_catalog_cards_are_named_by_id() -> None:
    event = E.Event(card_revealed=E.CardRevealed(deck=1, slot=0, card_id=57))
    assert Describer().event(event) == "Card 57 is revealed in the level 2 row, slot 0"
    assert Describer(sample_catalog()).card(99) == "card 99"


def test_empty_event_and_many_events() -> None:
    describer = Describer(sample_catalog())
    assert describer.event(E.Event()) == "(empty event)"
    events = [event for event, _ in CASES]
    assert len(describer.events(events)) == len(events)
    assert not any(line.startswith("Turn ") for line in describer.events(events, skip_turn_ended=True))


def test_deck_names() -> None:
    assert [deck_name(deck) for deck in range(6)] == [
        "level 1",
        "level 2",
        "level 3",
        "Orient level 1",
        "Orient level 2",
        "Orient level 3",
    ]


def test_winners_and_ranking_text() -> None:
    assert winners_text([]) == "Nobody wins."
    assert winners_text([1]) == "Seat 1 wins."
    assert winners_text([0, 2, 3]) == "Seats 0, 2 and 3 share the victory."
    assert ranking_lines(RANKING[:1], [2]) == ["  1. seat 2: 16 prestige, 11 cards (winner)"]


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (actions.take_gems("red", "blue", "green"), "take 1 red, 1 blue, 1 green"),
        (actions.take_two("black"), "take 2 black"),
        (actions.reserve(57), "reserve card 57 (level 2, red bonus, 2 points)"),
        (actions.reserve_from_deck(1), "reserve the top card of the level 2 deck"),
        (actions.purchase(13), "buy card 13 (level 1, blue bonus, 1 point)"),
        (
            actions.purchase(57, {"red": 3, "gold": 1}),
            "buy card 57 (level 2, red bonus, 2 points) paying 3 red, 1 gold",
        ),
        (actions.pass_turn(), "pass"),
        (actions.return_tokens(red=1, gold=1), "return 1 red, 1 gold"),
        (actions.choose_noble(5), "choose noble 5 (3 points)"),
        (186, "action #186"),
        (actions.take_gems(), "take no gems"),
    ],
)
def test_action_descriptions(action: actions.ActionLike, text: str) -> None:
    assert describe_action(action, sample_catalog()) == text
