"""describe.py tells every event and action in plain English, with the key facts."""

from __future__ import annotations

import pytest
from splendor.v1 import (
    cities_pb2,
    common_pb2,
    events_pb2,
    orient_pb2,
    state_pb2,
    strongholds_pb2,
    trading_posts_pb2,
    view_pb2,
)
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
    (E.Event(game_started=E.GameStarted(first_seat=1, num_players=3)), ["3-player", "Player 2 plays first"]),
    (
        E.Event(gems_taken=E.GemsTaken(seat=1, tokens=common_pb2.TokenCounts(red=1, blue=1, green=1))),
        ["Player 2 takes", "1 red", "1 blue", "1 green"],
    ),
    (E.Event(gems_taken=E.GemsTaken(seat=0, tokens=common_pb2.TokenCounts(white=2))), ["Player 1 takes 2 white"]),
    (
        E.Event(gems_returned=E.GemsReturned(seat=2, tokens=common_pb2.TokenCounts(black=1, gold=1))),
        ["Player 3 returns 1 black, 1 gold"],
    ),
    (
        E.Event(card_reserved=E.CardReserved(seat=0, card_id=45, deck=1, blind=False, slot=3)),
        ["Player 1 reserves card 45 (level 2, black bonus, 1 point)", "level 2 row", "slot 3"],
    ),
    (
        E.Event(card_reserved=E.CardReserved(seat=3, card_id=80, deck=2, blind=True)),
        ["Player 4 reserves the top card of the level 3 deck", "card 80 (level 3, white bonus, 4 points)"],
    ),
    (
        E.Event(card_reserved=E.CardReserved(seat=3, deck=0, blind=True)),
        ["Player 4 reserves the top card of the level 1 deck", "unseen"],
    ),
    (E.Event(gold_received=E.GoldReceived(seat=0, amount=1)), ["Player 1 receives 1 gold"]),
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
        ["Player 1 buys card 57 (level 2, red bonus, 2 points) from the market paying 3 red, 1 gold"],
    ),
    (
        E.Event(card_purchased=E.CardPurchased(seat=1, card_id=13, source=E.CARD_SOURCE_RESERVE)),
        ["Player 2 buys card 13 (level 1, blue bonus, 1 point) from their reserve", "for free"],
    ),
    (
        E.Event(card_revealed=E.CardRevealed(deck=0, slot=1, card_id=12)),
        ["Card 12 (level 1, white bonus, 0 points) is revealed", "level 1 row", "slot 1"],
    ),
    (E.Event(market_slot_emptied=E.MarketSlotEmptied(deck=2, slot=0)), ["level 3 deck is empty", "slot 0"]),
    (E.Event(noble_visited=E.NobleVisited(seat=2, noble_id=3)), ["Noble 3 (3 points) visits Player 3"]),
    (E.Event(city_claimed=E.CityClaimed(seat=1, city_id=11)), ["Player 2 takes city 11", "final round"]),
    (
        E.Event(decision_required=E.DecisionRequired(seat=1, kind=state_pb2.DECISION_KIND_RETURN_TOKENS, amount=2)),
        ["Player 2", "must return 2"],
    ),
    (
        E.Event(
            decision_required=E.DecisionRequired(seat=0, kind=state_pb2.DECISION_KIND_CHOOSE_NOBLE, options=[3, 5])
        ),
        ["Player 1", "choose", "noble 3 (3 points)", "noble 5 (3 points)"],
    ),
    (
        E.Event(
            decision_required=E.DecisionRequired(seat=1, kind=state_pb2.DECISION_KIND_CHOOSE_CITY, options=[2, 11])
        ),
        ["Player 2 qualifies for several cities", "city 2", "city 11"],
    ),
    (E.Event(passed=E.Passed(seat=3)), ["Player 4", "passes"]),
    (
        E.Event(final_round_triggered=E.FinalRoundTriggered(seat=0, prestige=15)),
        ["Final round! Player 1 reached 15"],
    ),
    (E.Event(turn_ended=E.TurnEnded(seat=0, next_seat=1, turn=7)), ["Turn 7", "Player 2"]),
    (
        E.Event(
            game_ended=E.GameEnded(reason=state_pb2.END_REASON_FINAL_ROUND_COMPLETED, ranking=RANKING, winners=[2])
        ),
        [
            "Game over",
            "final round was completed",
            "Player 3 wins",
            "1. Player 3: 16 prestige, 11 cards (winner)",
            "2. Player 1: 12 prestige, 1 card",
            "2. Player 2: 12 prestige, 1 card",
        ],
    ),
    (
        E.Event(game_ended=E.GameEnded(reason=state_pb2.END_REASON_ALL_PLAYERS_PASSED, winners=[0, 1])),
        ["every player passed", "Players 1 and 2 share the victory"],
    ),
    (
        E.Event(game_ended=E.GameEnded(reason=state_pb2.END_REASON_TURN_LIMIT_REACHED)),
        ["turn limit", "Nobody wins"],
    ),
    # The Trading Posts.
    (
        E.Event(power_gem_taken=E.PowerGemTaken(seat=1, color=common_pb2.COLOR_RED, post_id=0)),
        ["Player 2 takes 1 red", "trading post 1 (a gem after each purchase)"],
    ),
    (
        E.Event(shield_placed=E.ShieldPlaced(seat=2, post_id=3, prestige_gained=5)),
        ["Player 3 places a shield on trading post 4 (5 prestige once)", "gaining 5 prestige points"],
    ),
    (E.Event(shield_placed=E.ShieldPlaced(seat=0, post_id=1)), ["Player 1 places a shield on trading post 2"]),
    (
        E.Event(decision_required=E.DecisionRequired(seat=1, kind=state_pb2.DECISION_KIND_TAKE_GEM, colors=[2, 4])),
        ["Player 2 must choose the colour", "blue, red"],
    ),
    # The Strongholds.
    (
        E.Event(stronghold_placed=E.StrongholdPlaced(seat=0, card_id=12)),
        ["Player 1 places a stronghold on card 12 (level 1, white bonus, 0 points)"],
    ),
    (
        E.Event(stronghold_placed=E.StrongholdPlaced(seat=3, card_id=45, from_card_id=12)),
        ["Player 4 moves a stronghold from card 12", "to card 45 (level 2, black bonus, 1 point)"],
    ),
    (
        E.Event(stronghold_removed=E.StrongholdRemoved(seat=1, card_id=57, owner=2)),
        ["Player 2 gives Player 3's stronghold on card 57", "back"],
    ),
    (
        E.Event(strongholds_returned=E.StrongholdsReturned(owner=2, card_id=57, count=3)),
        ["Player 3 gets back 3 strongholds from card 57", "left the market"],
    ),
    (
        E.Event(card_conquered=E.CardConquered(seat=0, card_id=80)),
        ["Player 1 conquers card 80 (level 3, white bonus, 4 points)", "three strongholds"],
    ),
    (
        E.Event(
            decision_required=E.DecisionRequired(
                seat=0, kind=state_pb2.DECISION_KIND_PLACE_STRONGHOLD, options=[12, 57]
            )
        ),
        ["Player 1 must place or move a stronghold", "card 12 (", "card 57 ("],
    ),
    (
        E.Event(decision_required=E.DecisionRequired(seat=2, kind=state_pb2.DECISION_KIND_CONQUER, options=[80])),
        ["Player 3 may conquer", "card 80 (level 3", "or decline"],
    ),
    # The Orient.
    (
        E.Event(card_paired=E.CardPaired(seat=1, card_id=95, partner_card_id=13, color=common_pb2.COLOR_BLUE)),
        ["Player 2 pairs card 95 (Orient level 1, paired, 0 points) with card 13", "one more blue bonus"],
    ),
    (
        E.Event(free_card_taken=E.FreeCardTaken(seat=0, card_id=57, deck=1, slot=2)),
        ["Player 1 takes card 57 (level 2, red bonus, 2 points) for free", "level 2 row, slot 2"],
    ),
    (
        E.Event(noble_reserved=E.NobleReserved(seat=3, noble_id=5)),
        ["Player 4 reserves noble 5 (3 points)", "only that player"],
    ),
    (
        E.Event(cards_discarded=E.CardsDiscarded(seat=1, card_ids=[90, 14])),
        ["Player 2 gives up card 90 (Orient level 1, worth 2 gold once, 0 points), card 14", "back to the box"],
    ),
    (
        E.Event(decision_required=E.DecisionRequired(seat=1, kind=state_pb2.DECISION_KIND_PAIR_CARD, options=[12, 13])),
        ["Player 2 must choose the card to pair with", "card 12 (", "card 13 ("],
    ),
    (
        E.Event(
            decision_required=E.DecisionRequired(seat=0, kind=state_pb2.DECISION_KIND_TAKE_FREE_CARD, options=[45, 57])
        ),
        ["Player 1 must choose a card to take for free", "card 45 (", "card 57 ("],
    ),
    (
        E.Event(
            decision_required=E.DecisionRequired(seat=2, kind=state_pb2.DECISION_KIND_RESERVE_NOBLE, options=[3, 5])
        ),
        ["Player 3 must choose a noble to reserve", "noble 3 (3 points)", "noble 5 (3 points)"],
    ),
]


def test_every_event_kind_has_a_case() -> None:
    kinds = {field.name for field in events_pb2.Event.DESCRIPTOR.oneofs_by_name["kind"].fields}
    assert kinds == {event.WhichOneof("kind") for event, _ in CASES}


def test_every_decision_kind_has_a_case() -> None:
    kinds = set(state_pb2.DecisionKind.values()) - {state_pb2.DECISION_KIND_UNSPECIFIED}
    described = {event.decision_required.kind for event, _ in CASES if event.HasField("decision_required")}
    assert described == kinds
    generic = E.Event(decision_required=E.DecisionRequired(seat=0, kind=99))  # type: ignore[arg-type]
    assert Describer().event(generic) == "Player 1 must decide"


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
    assert winners_text([1]) == "Player 2 wins."
    assert winners_text([0, 2, 3]) == "Players 1, 3 and 4 share the victory."
    assert ranking_lines(RANKING[:1], [2]) == ["  1. Player 3: 16 prestige, 11 cards (winner)"]


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
        (actions.choose_city(11), "choose city 11"),
        (actions.take_gem("green"), "take 1 green"),
        (actions.place_stronghold(12), "place a stronghold on card 12 (level 1, white bonus, 0 points)"),
        (
            actions.place_stronghold(12, from_card_id=13),
            "move a stronghold from card 13 (level 1, blue bonus, 1 point) to card 12 (level 1, white bonus, 0 points)",
        ),
        (
            actions.remove_stronghold(57),
            "give back the opponent's stronghold on card 57 (level 2, red bonus, 2 points)",
        ),
        (actions.decline(), "decline"),
        (actions.pair_card(13), "pair with card 13 (level 1, blue bonus, 1 point)"),
        (actions.take_free_card(14), "take card 14 (level 1, green bonus, 0 points) for free"),
        (actions.reserve_noble(3), "reserve noble 3 (3 points)"),
        (
            actions.purchase(57, cards_spent=[90]),
            "buy card 57 (level 2, red bonus, 2 points) "
            "giving up card 90 (Orient level 1, worth 2 gold once, 0 points)",
        ),
        (actions.purchase(13, cards_spent=[]), "buy card 13 (level 1, blue bonus, 1 point) giving up no card"),
    ],
)
def test_action_descriptions(action: actions.ActionLike, text: str) -> None:
    assert describe_action(action, sample_catalog()) == text


@pytest.mark.parametrize(
    ("card_id", "text"),
    [
        (90, "card 90 (Orient level 1, worth 2 gold once, 0 points)"),
        (95, "card 95 (Orient level 1, paired, 0 points)"),
        (100, "card 100 (Orient level 2, paired, then a free level 1 card, 0 points)"),
        (102, "card 102 (Orient level 2, 2 white bonuses, 0 points)"),
        (107, "card 107 (Orient level 2, white bonus, reserves a noble, 1 point)"),
        (110, "card 110 (Orient level 3, white bonus, a free level 2 card, 0 points)"),
        (115, "card 115 (Orient level 3, white bonus, discards 2 black bonuses, 3 points)"),
    ],
)
def test_orient_cards_are_named_with_their_deck_and_ability(card_id: int, text: str) -> None:
    assert Describer(sample_catalog()).card(card_id) == text


def test_posts_are_named_by_power() -> None:
    describer = Describer(sample_catalog())
    assert describer.post(4) == "trading post 5 (1 prestige per shield)"
    assert describer.post(2) == "trading post 3"  # not in the sample catalog
    assert Describer().post(0) == "trading post 1"


def test_module_states_are_described_line_by_line() -> None:
    describer = Describer(sample_catalog())
    state = state_pb2.GameState()
    assert describer.module_states(state) == []  # the base game has none
    state.trading_posts.CopyFrom(
        trading_posts_pb2.TradingPostsState(
            shields=[trading_posts_pb2.PlacedShields(post_ids=[0, 3]), trading_posts_pb2.PlacedShields()]
        )
    )
    assert describer.module_states(state) == [
        "Player 1 has shields on: trading post 1 (a gem after each purchase), trading post 4 (5 prestige once)",
        "Player 2 has shields on: none yet",
    ]
    view = view_pb2.GameView()
    view.strongholds.CopyFrom(
        strongholds_pb2.StrongholdsState(
            placed=[strongholds_pb2.PlacedStrongholds(card_ids=[12, 12, 57]), strongholds_pb2.PlacedStrongholds()]
        )
    )
    assert describer.module_states(view) == [
        "Player 1 has 2 strongholds on card 12 (level 1, white bonus, 0 points), "
        "1 stronghold on card 57 (level 2, red bonus, 2 points), 0 in supply",
        "Player 2 has all 3 strongholds in supply",
    ]
    view = view_pb2.GameView()
    view.orient.CopyFrom(
        orient_pb2.OrientState(
            pairs=[
                orient_pb2.SeatPairs(pairs=[orient_pb2.CardPair(card_id=95, partner_card_id=13)]),
                orient_pb2.SeatPairs(),
            ],
            reserved_nobles=[orient_pb2.ReservedNobles(), orient_pb2.ReservedNobles(noble_ids=[5])],
            discarded=[orient_pb2.DiscardedCards(card_ids=[90]), orient_pb2.DiscardedCards()],
        )
    )
    lines = Describer().module_states(view)
    assert lines == [
        "Player 1 has card 95 paired with card 13",
        "Player 2 has reserved noble 5",
        "Player 1 gave up card 90",
    ]
    view = view_pb2.GameView()
    view.cities.CopyFrom(
        cities_pb2.CitiesState(
            available_city_ids=[2, 11], held=[cities_pb2.HeldCities(city_ids=[4]), cities_pb2.HeldCities()]
        )
    )
    assert Describer().module_states(view) == ["Cities on the table: city 2, city 11", "Player 1 holds city 4"]
