"""Plain-English descriptions of events and actions, for logs and the ``splendor-play`` client.

>>> describer = Describer(catalog)          # catalog from EngineClient.get_catalog(), or None
>>> describer.event(event)
'Seat 0 buys card 57 (level 2, red bonus, 2 points) from the market paying 3 red, 1 gold'

Seats, decks and market slots are numbered from 0 as in the protocol; decks and
market rows are named by their level ("the level 1 row" is deck 0). Without a
catalog, cards and nobles are named by id only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from splendor.v1 import actions_pb2, catalog_pb2, cities_pb2, events_pb2, state_pb2

from .actions import ActionLike, as_action
from .colors import color_name, format_counts

BASE_DECK_COUNT = 3
"""Decks 0-2 are the base levels 1-3; the Orient decks follow."""

END_REASONS: dict[int, str] = {
    state_pb2.END_REASON_FINAL_ROUND_COMPLETED: "a player reached the goal and the final round was completed",
    state_pb2.END_REASON_ALL_PLAYERS_PASSED: "every player passed for a whole round",
    state_pb2.END_REASON_TURN_LIMIT_REACHED: "the turn limit was reached",
}


def plural(count: int, word: str) -> str:
    """``"1 point"``, ``"2 points"``."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def deck_name(deck: int) -> str:
    """``"level 1"`` for deck 0, ..., ``"Orient level 1"`` for deck 3, ..."""
    if deck < BASE_DECK_COUNT:
        return f"level {deck + 1}"
    return f"Orient level {deck - BASE_DECK_COUNT + 1}"


class Describer:
    """Describes events and actions, naming cards and nobles from a catalog when it has one."""

    def __init__(self, catalog: catalog_pb2.Catalog | None = None) -> None:
        """Index the catalog's cards and nobles by id (``None``: describe by id only)."""
        self.cards: dict[int, catalog_pb2.CardInfo] = {}
        self.nobles: dict[int, catalog_pb2.NobleInfo] = {}
        self.cities: dict[int, cities_pb2.CityInfo] = {}
        if catalog is not None:
            self.cards = {card.id: card for card in catalog.cards}
            self.nobles = {noble.id: noble for noble in catalog.nobles}
            self.cities = {city.id: city for city in catalog.cities}

    # Components.

    def card(self, card_id: int) -> str:
        """``"card 57 (level 2, red bonus, 2 points)"``; just ``"card 57"`` if the catalog lacks it."""
        info = self.cards.get(card_id)
        if info is None:
            return f"card {card_id}"
        return f"card {card_id} (level {info.level}, {color_name(info.bonus)} bonus, {plural(info.points, 'point')})"

    def noble(self, noble_id: int) -> str:
        """``"noble 3 (3 points)"``; just ``"noble 3"`` if the catalog lacks it."""
        info = self.nobles.get(noble_id)
        if info is None:
            return f"noble {noble_id}"
        return f"noble {noble_id} ({plural(info.points, 'point')})"

    def city(self, city_id: int) -> str:
        """``"city 11 (13 prestige)"``; just ``"city 11"`` if the catalog lacks it."""
        info = self.cities.get(city_id)
        if info is None:
            return f"city {city_id}"
        return f"city {city_id} ({info.prestige} prestige)"

    # Events.

    def event(self, event: events_pb2.Event) -> str:
        """One event as a sentence (a ``GameEnded`` adds one line per ranked seat)."""
        kind = event.WhichOneof("kind")
        if kind is None:
            return "(empty event)"
        describe = getattr(self, f"_{kind}", None)
        if describe is None:  # an event kind newer than this client
            return f"({kind.replace('_', ' ')})"
        text: str = describe(getattr(event, kind))
        return text

    def events(self, events: Iterable[events_pb2.Event], *, skip_turn_ended: bool = False) -> list[str]:
        """Every event described, optionally without the ``TurnEnded`` bookkeeping."""
        return [
            self.event(event) for event in events if not (skip_turn_ended and event.WhichOneof("kind") == "turn_ended")
        ]

    def _game_started(self, event: events_pb2.GameStarted) -> str:
        return f"A {event.num_players}-player game is dealt; seat {event.first_seat} plays first"

    def _gems_taken(self, event: events_pb2.GemsTaken) -> str:
        return f"Seat {event.seat} takes {format_counts(event.tokens)}"

    def _gems_returned(self, event: events_pb2.GemsReturned) -> str:
        return f"Seat {event.seat} returns {format_counts(event.tokens)} to the bank"

    def _card_reserved(self, event: events_pb2.CardReserved) -> str:
        if event.blind:
            text = f"Seat {event.seat} reserves the top card of the {deck_name(event.deck)} deck"
            return text + (f": {self.card(event.card_id)}" if event.HasField("card_id") else " (unseen)")
        card = self.card(event.card_id) if event.HasField("card_id") else "a card"
        where = f"the {deck_name(event.deck)} row"
        if event.HasField("slot"):
            where += f", slot {event.slot}"
        return f"Seat {event.seat} reserves {card} from {where}"

    def _gold_received(self, event: events_pb2.GoldReceived) -> str:
        return f"Seat {event.seat} receives {event.amount} gold"

    def _card_purchased(self, event: events_pb2.CardPurchased) -> str:
        if event.source == events_pb2.CARD_SOURCE_RESERVE:
            source = "from their reserve"
        elif event.source == events_pb2.CARD_SOURCE_MARKET:
            source = "from the market"
        else:
            source = ""
        paying = format_counts(event.payment, empty="")
        price = f"paying {paying}" if paying else "for free (bonuses cover it)"
        return " ".join(part for part in (f"Seat {event.seat} buys {self.card(event.card_id)}", source, price) if part)

    def _card_revealed(self, event: events_pb2.CardRevealed) -> str:
        card = _capital(self.card(event.card_id))
        return f"{card} is revealed in the {deck_name(event.deck)} row, slot {event.slot}"

    def _market_slot_emptied(self, event: events_pb2.MarketSlotEmptied) -> str:
        return f"The {deck_name(event.deck)} deck is empty: slot {event.slot} of its row stays empty"

    def _noble_visited(self, event: events_pb2.NobleVisited) -> str:
        return f"{_capital(self.noble(event.noble_id))} visits seat {event.seat}"

    def _city_claimed(self, event: events_pb2.CityClaimed) -> str:
        return f"Seat {event.seat} takes {self.city(event.city_id)}: the final round begins if it has not"

    def _decision_required(self, event: events_pb2.DecisionRequired) -> str:
        if event.kind == state_pb2.DECISION_KIND_RETURN_TOKENS:
            return f"Seat {event.seat} holds more than 10 tokens and must return {event.amount}"
        if event.kind == state_pb2.DECISION_KIND_CHOOSE_NOBLE:
            options = ", ".join(self.noble(noble_id) for noble_id in event.options)
            return f"Seat {event.seat} qualifies for several nobles and must choose one: {options}"
        if event.kind == state_pb2.DECISION_KIND_CHOOSE_CITY:
            options = ", ".join(self.city(city_id) for city_id in event.options)
            return f"Seat {event.seat} qualifies for several cities and must choose one: {options}"
        return f"Seat {event.seat} must decide"

    def _passed(self, event: events_pb2.Passed) -> str:
        return f"Seat {event.seat} cannot move and passes"

    def _final_round_triggered(self, event: events_pb2.FinalRoundTriggered) -> str:
        return f"Final round! Seat {event.seat} reached {plural(event.prestige, 'prestige point')}"

    def _turn_ended(self, event: events_pb2.TurnEnded) -> str:
        return f"Turn {event.turn} is over; seat {event.next_seat} plays next"

    def _game_ended(self, event: events_pb2.GameEnded) -> str:
        lines = [f"Game over: {END_REASONS.get(event.reason, 'the game ended')}. {winners_text(event.winners)}"]
        lines += ranking_lines(event.ranking, event.winners)
        return "\n".join(lines)

    # Actions.

    def action(self, action: ActionLike) -> str:
        """An action as an imperative phrase: ``"take 1 red, 1 blue, 1 green"``, ``"buy card 57 (...)"``."""
        message = as_action(action)
        kind = message.WhichOneof("kind")
        if kind == "take_gems":
            names = [color_name(value) for value in message.take_gems.colors]
            return "take " + (", ".join(f"1 {name}" for name in names) if names else "no gems")
        if kind == "take_two_gems":
            return f"take 2 {color_name(message.take_two_gems.color)}"
        if kind == "reserve_card":
            return f"reserve {self.card(message.reserve_card.card_id)}"
        if kind == "reserve_from_deck":
            return f"reserve the top card of the {deck_name(message.reserve_from_deck.deck)} deck"
        if kind == "purchase_card":
            return self._purchase_action(message.purchase_card)
        if kind == "pass":
            return "pass"
        if kind == "return_tokens":
            return f"return {format_counts(message.return_tokens.tokens)}"
        if kind == "choose_noble":
            return f"choose {self.noble(message.choose_noble.noble_id)}"
        if kind == "choose_city":
            return f"choose {self.city(message.choose_city.city_id)}"
        if kind == "action_id":
            return f"action #{message.action_id}"
        return "(empty action)"

    def _purchase_action(self, purchase: actions_pb2.PurchaseCard) -> str:
        text = f"buy {self.card(purchase.card_id)}"
        if purchase.HasField("payment"):
            text += f" paying {format_counts(purchase.payment)}"
        return text


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def winners_text(winners: Sequence[int]) -> str:
    """``"Seat 2 wins."`` or ``"Seats 0 and 2 share the victory."``."""
    seats = list(winners)
    if not seats:
        return "Nobody wins."
    if len(seats) == 1:
        return f"Seat {seats[0]} wins."
    listed = ", ".join(str(seat) for seat in seats[:-1]) + f" and {seats[-1]}"
    return f"Seats {listed} share the victory."


def ranking_lines(ranking: Iterable[state_pb2.Standing], winners: Sequence[int] = ()) -> list[str]:
    """One line per standing: ``"  1. seat 2: 16 prestige, 11 cards (winner)"``."""
    winning = set(winners)
    return [
        f"  {standing.place}. seat {standing.seat}: {standing.prestige} prestige, "
        f"{plural(standing.purchased_cards, 'card')}" + (" (winner)" if standing.seat in winning else "")
        for standing in ranking
    ]


def describe_event(event: events_pb2.Event, catalog: catalog_pb2.Catalog | None = None) -> str:
    """One event as a sentence; see ``Describer`` to describe many with the same catalog."""
    return Describer(catalog).event(event)


def describe_action(action: ActionLike, catalog: catalog_pb2.Catalog | None = None) -> str:
    """One action as an imperative phrase; see ``Describer``."""
    return Describer(catalog).action(action)
